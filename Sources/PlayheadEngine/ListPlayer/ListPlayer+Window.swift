import Foundation
import PlayheadCore

extension ListPlayer {
  // MARK: Settings

  /// How many items behind and ahead of the current one are preloaded (each at least 0);
  /// the seed's `setPreloadCount:nextCount:`. Default: 1 behind, 1 ahead.
  public func setPreloadCount(previous: Int, next: Int) {
    lock.lock()
    defer { lock.unlock() }
    previousCount = max(0, previous)
    nextCount = max(0, next)
    planWindowLocked()
  }

  /// The preload counts behind and ahead.
  public var preloadCount: (previous: Int, next: Int) {
    lock.lock()
    defer { lock.unlock() }
    return (previousCount, nextCount)
  }

  /// The base preload configuration: `durationMs` for the items next to the current one
  /// (1000 ms by default) and the default rendition preference. Setting it plans the
  /// window again. The seed's `updatePreloadConfig`.
  public var preloadConfig: PreloadConfig {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedPreloadConfig
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      storedPreloadConfig = newValue
      planWindowLocked()
    }
  }

  /// Replaces the base preload configuration (the seed's `updatePreloadConfig`).
  public func updatePreloadConfig(_ config: PreloadConfig) {
    preloadConfig = config
  }

  /// Switches a strategy on or off (the seed's `enableStrategy:enable:`); the dynamic
  /// preload is off by default.
  public func enableStrategy(_ strategy: Strategy, _ enabled: Bool) {
    lock.lock()
    defer { lock.unlock() }
    switch strategy {
    case .dynamicPreload: dynamicEnabled = enabled
    }
    planWindowLocked()
  }

  /// Tunes a strategy with the seed's JSON parameter, e.g.
  /// `{"algorithm": "sub","offset": "200"}` for the dynamic preload. Throws
  /// `.invalidArgument` for a parameter `DynamicPreload(json:)` refuses.
  public func setStrategyParam(_ strategy: Strategy, json: String) throws(PlayheadError) {
    let parsed = try DynamicPreload(json: json)
    lock.lock()
    defer { lock.unlock() }
    switch strategy {
    case .dynamicPreload: storedDynamic = parsed
    }
    planWindowLocked()
  }

  /// The dynamic preload rule in force, or nil while the strategy is off. Setting a
  /// value switches it on; nil switches it off.
  public var dynamicPreload: DynamicPreload? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return dynamicEnabled ? storedDynamic : nil
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      if let newValue { storedDynamic = newValue }
      dynamicEnabled = newValue != nil
      planWindowLocked()
    }
  }

  /// Which bitrate items are preloaded at and start on (seed 003's multi-bitrate modes).
  public var multiBitrateMode: MultiBitrateMode {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedMode
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      storedMode = newValue
      planWindowLocked()
    }
  }

  /// The default start bitrate in bits per second (the seed's `setDefaultBandWidth`): the
  /// highest rendition at most this fast; nil uses the preload configuration's preference,
  /// else the player's.
  public var defaultBandwidth: Int? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedDefaultBandwidth
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      storedDefaultBandwidth = newValue.map { max(0, $0) }
      planWindowLocked()
    }
  }

  /// Whether moving to an item starts playing it (true by default).
  public var autoPlay: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedAutoPlay
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      storedAutoPlay = newValue
    }
  }

  // MARK: The window

  /// The preload window as planned after the last change, nearest items first (ahead
  /// before behind at the same distance), with each preload's state now.
  public var preloadWindow: [PreloadEntry] {
    lock.lock()
    let plan = planned
    let known = records
    lock.unlock()
    return plan.compactMap { entry in
      guard let record = known[entry.uid] else { return nil }
      return PreloadEntry(
        uid: entry.uid, offset: entry.offset, durationMs: entry.durationMs,
        startPreference: entry.preference, taskID: record.taskID,
        state: loader.state(ofTask: record.taskID) ?? .waiting)
    }
  }

  /// The preference the player starts an item on, by the multi-bitrate mode (with `lock`
  /// held).
  func startPreferenceLocked(for uid: String) -> ABRStartPreference {
    let fallback = defaultPreferenceLocked
    let preloaded = records[uid].flatMap(completedBandwidth) ?? preloadedBandwidths[uid]
    switch storedMode {
    case .default:
      return fallback
    case .firstFramePriority:
      return preloaded.map { .bandwidth($0) } ?? fallback
    case .balanced:
      return (preloaded ?? lastPlayedBandwidth).map { .bandwidth($0) } ?? fallback
    case .smoothPriority:
      return lastPlayedBandwidth.map { .bandwidth($0) } ?? fallback
    }
  }

  /// The default bitrate's preference: `defaultBandwidth`, else the preload
  /// configuration's, else the player's.
  var defaultPreferenceLocked: ABRStartPreference {
    if let storedDefaultBandwidth { return .bandwidth(storedDefaultBandwidth) }
    if storedPreloadConfig.startPreference != .automatic {
      return storedPreloadConfig.startPreference
    }
    return player.configuration.hls.startPreference
  }

  /// The preference preloads use now: the default bitrate, or in the balanced and
  /// smooth modes the bitrate playing (once known).
  private var preloadPreferenceLocked: ABRStartPreference {
    switch storedMode {
    case .default, .firstFramePriority:
      return defaultPreferenceLocked
    case .balanced, .smoothPriority:
      let playing = current == nil ? nil : player.currentItem?.currentVariant?.bandwidth
      return (playing ?? lastPlayedBandwidth).map { .bandwidth($0) } ?? defaultPreferenceLocked
    }
  }

  /// Plans the window around the current item: starts the preloads it lacks (or that
  /// cover too little, or another bitrate) and cancels those of items that left it.
  func planWindowLocked() {
    var plan: [(uid: String, offset: Int, durationMs: Int, preference: ABRStartPreference)] = []
    if let current, let index = items.firstIndex(where: { $0.uid == current }) {
      let base = storedPreloadConfig.durationMs
      let preference = preloadPreferenceLocked
      // No item lies further than the list is long: huge counts neither hang nor overflow.
      for distance in 1...max(1, min(max(previousCount, nextCount), items.count)) {
        let duration =
          dynamicEnabled ? storedDynamic.durationMs(baseMs: base, distance: distance) : base
        guard duration > 0 else { break }
        if distance <= nextCount, items.indices.contains(index + distance) {
          plan.append((items[index + distance].uid, distance, duration, preference))
        }
        if distance <= previousCount, items.indices.contains(index - distance) {
          plan.append((items[index - distance].uid, -distance, duration, preference))
        }
      }
    }
    planned = plan
    let wanted = Set(plan.map(\.uid))
    for (uid, record) in records where !wanted.contains(uid) {
      let state = loader.state(ofTask: record.taskID)
      if state?.isFinished == false { loader.cancelTask(record.taskID) }
      if state.map({ if case .completed = $0 { return false } else { return true } }) ?? true {
        records[uid] = nil
      }
    }
    // A completed preload outside the window is kept: its bytes are cached, and the first
    // frame priority mode starts the item on its bitrate.
    for entry in plan {
      guard let url = items.first(where: { $0.uid == entry.uid })?.url else { continue }
      if let record = records[entry.uid], covers(record, entry.durationMs, entry.preference) {
        continue
      }
      if let record = records[entry.uid] {
        if loader.state(ofTask: record.taskID)?.isFinished == false {
          loader.cancelTask(record.taskID)
        } else if let bandwidth = completedBandwidth(record) {
          preloadedBandwidths[entry.uid] = bandwidth
        }
      }
      var config = storedPreloadConfig
      config.durationMs = entry.durationMs
      config.startPreference = entry.preference
      let id = loader.addTask(PreloadTask(url: url, config: config))
      records[entry.uid] = Record(
        taskID: id, durationMs: entry.durationMs, preference: entry.preference)
    }
  }

  /// The bitrate `record`'s preload completed with (nil while it runs, when it failed, or
  /// for a single-bitrate source).
  private func completedBandwidth(_ record: Record) -> Int? {
    guard case .completed(let report)? = loader.state(ofTask: record.taskID) else { return nil }
    return report.variant?.bandwidth
  }

  /// Whether `record`'s preload (running or completed) already gives what the window
  /// wants: at least the duration, at the same preference.
  private func covers(_ record: Record, _ durationMs: Int, _ preference: ABRStartPreference)
    -> Bool
  {
    guard record.durationMs >= durationMs, record.preference == preference else { return false }
    switch loader.state(ofTask: record.taskID) {
    case .failed?, .canceled?, nil: return false
    default: return true
    }
  }
}
