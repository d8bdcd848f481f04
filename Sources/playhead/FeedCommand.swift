import Foundation
import Playhead

/// `playhead feed URL... [--preload-next N] [--preload-prev N] [--preload-ms MS]
/// [--dynamic-offset-ms MS] [--no-preload] [--watch-seconds S] [--cache-dir DIR] [--json]`:
/// plays the URLs as a short-video feed through a `ListPlayer` in real time, moving to the
/// next item after each has shown its first frame and played for the watch time, and
/// prints each item's time to first frame.
struct FeedCommand: Command {
  static let usage = Usage.feed

  /// The options that take a value.
  static let valueOptions: Set<String> = [
    "--preload-next", "--preload-prev", "--preload-ms", "--dynamic-offset-ms", "--watch-seconds",
  ]

  var inputs: [String] = []
  var preloadNext = 1
  var preloadPrevious = 0
  var preloadMs = 1000
  var dynamicOffsetMs: Int?
  var preloads = true
  var watchSeconds = 2.0
  var json = false
  var cache = CacheOptions()

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "feed")
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        inputs.append(text)
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option("--no-preload", let inline):
        try cursor.noValue(for: "--no-preload", inline: inline)
        preloads = false
      case .option(let name, let inline) where CacheOptions.names.contains(name):
        try cache.parse(name, inline: inline, cursor: &cursor)
      case .option(let name, _) where !Self.valueOptions.contains(name):
        throw cursor.unknown(name)
      case .option(let name, let inline):
        let text = try cursor.value(for: name, inline: inline)
        switch name {
        case "--preload-next":
          preloadNext = try ArgumentValue.integer(text, option: name, in: 0...100)
        case "--preload-prev":
          preloadPrevious = try ArgumentValue.integer(text, option: name, in: 0...100)
        case "--preload-ms":
          preloadMs = try ArgumentValue.integer(text, option: name, in: 1...3_600_000)
        case "--dynamic-offset-ms":
          dynamicOffsetMs = try ArgumentValue.integer(text, option: name, in: 0...3_600_000)
        default:
          watchSeconds = try ArgumentValue.seconds(text, option: name)
        }
      }
    }
    guard !inputs.isEmpty else { throw UsageError("feed needs at least one URL") }
    try cache.validate()
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    var temporary: URL?
    var configuration = PlayerConfiguration()
    if let opened = try cache.open() {
      configuration.cache = opened
    } else if preloads {
      // Preloading needs a cache: a fresh one for this run, deleted afterwards.
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("playhead-feed-\(UUID().uuidString)")
      configuration.cache = try MediaCache.open(directory: folder)
      temporary = folder
    }
    defer {
      configuration.cache?.close()
      if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }
    let list = ListPlayer(configuration: configuration)
    defer { list.close() }
    list.setPreloadCount(previous: preloads ? preloadPrevious : 0, next: preloads ? preloadNext : 0)
    list.updatePreloadConfig(PreloadConfig(durationMs: preloadMs))
    if let dynamicOffsetMs {
      list.dynamicPreload = ListPlayer.DynamicPreload(offsetMs: dynamicOffsetMs)
    }
    let watcher = FeedWatcher(list.player)
    for (index, input) in inputs.enumerated() {
      try list.add(url: URLArgument.url(fromArgument: input), uid: "\(index + 1)")
    }
    var failures = 0
    for (index, uid) in list.uids.enumerated() {
      let preloaded = list.preloadWindow.first { $0.uid == uid }.flatMap { entry -> Int? in
        guard case .completed = entry.state else { return nil }
        return entry.durationMs
      }
      if index == 0 { try list.moveTo(uid: uid) } else { try list.moveToNext() }
      guard let current = list.currentItem else {
        throw PlayheadError(.invalidState, "the list player has no current item")
      }
      let outcome = watcher.waitForFirstFrame(of: current, timeoutMs: 60_000)
      switch outcome {
      case .success(let item):
        let ttff = item.statistics.timeToFirstFrame
        print(console, index: index + 1, uid: uid, ttff: ttff, preloadedMs: preloaded, item: item)
        watcher.waitForClock(list.player.clock, seconds: watchSeconds)
      case .failure(let error):
        failures += 1
        console.error("item \(uid) (\(inputs[index])): \(error.message)")
      }
    }
    return failures == 0 ? .success : .source
  }

  private func print(
    _ console: Console, index: Int, uid: String, ttff: MediaTime, preloadedMs: Int?,
    item: PlayerItem
  ) {
    let milliseconds = ttff.isNumeric ? ttff.seconds * 1000 : .nan
    if json {
      let fields: [JSONField] = [
        JSONField("event", .string("firstFrame")), JSONField("index", .integer(Int64(index))),
        JSONField("uid", .string(uid)), JSONField("url", .string(inputs[index - 1])),
        JSONField("ttffMs", .number((milliseconds * 10).rounded() / 10)),
        JSONField("preloadedMs", preloadedMs.map { .integer(Int64($0)) } ?? .null),
        JSONField(
          "startBandwidth", item.currentVariant.map { .integer(Int64($0.bandwidth)) } ?? .null),
      ]
      console.line(JSONValue.object(fields).encoded)
    } else {
      let preload = preloadedMs.map { "preloaded \($0) ms" } ?? "not preloaded"
      console.line(
        "item \(index) \(inputs[index - 1]): first frame after \(String(format: "%.1f", milliseconds)) ms (\(preload))"
      )
    }
  }
}

/// Follows a list player's events: the current item's first frame or failure.
final class FeedWatcher: @unchecked Sendable {
  // Unchecked Sendable: `started` and `failed` are guarded by `condition`.
  private let condition = NSCondition()
  private var started: [ObjectIdentifier: PlayerItem] = [:]
  private var failed: [ObjectIdentifier: PlayheadError] = [:]
  init(_ player: Player) {
    player.addEventObserver(queue: DispatchQueue(label: "playhead.feed.events")) {
      [weak self] event in
      self?.note(event)
    }
  }

  private func note(_ event: PlayerEvent) {
    condition.lock()
    switch event.kind {
    case .firstFramePresented(let item): started[ObjectIdentifier(item)] = item
    case .itemStatusChanged(let item, .failed(let error)): failed[ObjectIdentifier(item)] = error
    case .failedToPlayToEnd(let item, let error): failed[ObjectIdentifier(item)] = error
    default: break
    }
    condition.broadcast()
    condition.unlock()
  }

  /// Waits for `item` to show its first frame or fail.
  func waitForFirstFrame(of item: PlayerItem, timeoutMs: Int) -> Result<
    PlayerItem, PlayheadError
  > {
    let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let done = started[ObjectIdentifier(item)] { return .success(done) }
      if let error = failed[ObjectIdentifier(item)] { return .failure(error) }
      if !condition.wait(until: deadline) {
        return .failure(
          PlayheadError(.timedOut, "no first frame after \(timeoutMs / 1000) s"))
      }
    }
  }

  /// Lets the item play for `seconds` on `clock`.
  func waitForClock(_ clock: any Clock, seconds: Double) {
    guard seconds > 0 else { return }
    clock.sleep(until: clock.now + MediaTime(seconds: seconds, preferredTimescale: 1000))
  }
}
