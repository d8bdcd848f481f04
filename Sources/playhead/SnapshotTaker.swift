import Foundation
import Playhead
import PlayheadOverlay

/// A PNG snapshot and its size in pixels.
struct Snapshot: Sendable {
  var png: Data
  var width: Int
  var height: Int

  /// Writes the PNG to `path`, creating its folder if needed; a failure is an `.ioError`.
  func write(toPath path: String) throws(PlayheadError) {
    let url = fileURL(forPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try png.write(to: url, options: .atomic)
    } catch {
      throw PlayheadError(
        .ioError, "cannot write \(path): \(PlayheadError.reason(for: error))", url: url)
    }
  }

  /// The width and height in a PNG's IHDR chunk, or nil when `png` does not start with one.
  static func dimensions(ofPNG png: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](png.prefix(24))
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count == 24, Array(bytes[0..<8]) == signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func bigEndian(_ offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    return (bigEndian(16), bigEndian(20))
  }
}

/// Takes a snapshot with a player of its own: fast mode, audio off, an exact seek while
/// paused, then the frame that seek presented.
enum SnapshotTaker {
  /// How long to wait, after the seek landed, for its frame to be presented. The frame is
  /// normally presented in the same step as the seek completes; this bounds the wait for
  /// media whose stream ends before any frame at or before the time.
  static let presentationGraceSeconds = 10.0

  /// The frame at `time` (the latest at or before it) as PNG, scaled to `width`×`height`
  /// when both are given.
  ///
  /// Throws the source's or media's error when it cannot be opened, and
  /// `.noPlayableStreams` when it has no video track.
  ///
  /// The subtitles `--burn-subtitles` draws: the track in `language` among `files` and the
  /// media's own (an HLS rendition or a subtitle stream of the file), or with no language
  /// the first of `files`.
  struct Subtitles: Sendable {
    var language: String?
    var files: [SubtitleFile]
  }

  /// With `burning`, that subtitle track is selected once the frame is shown, and its cues
  /// at `time` are drawn on the snapshot with libass once the track has caught up with the
  /// position; no such track is an `.invalidArgument` error, a file that fails to load its
  /// loading error.
  static func take(
    url: URL, at time: MediaTime, width: Int?, height: Int?, gravity: VideoGravity,
    burning subtitles: Subtitles? = nil
  ) throws(PlayheadError) -> Snapshot {
    // Probe first: a file without video fails here with a clear error, and the player
    // item reuses the opened demuxer.
    let asset = Asset(url: url)
    try waitFor { () async throws(PlayheadError) in try await asset.load() }
    guard asset.tracks.contains(where: { $0.kind == .video }) else {
      throw PlayheadError(
        .noPlayableStreams, "no video track to snapshot in \(url.absoluteString)", url: url)
    }
    var configuration = PlayerConfiguration.fast()
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    defer { player.close() }
    let item = PlayerItem(asset: asset)
    for file in subtitles?.files ?? [] { file.add(to: item) }
    let waiter = SnapshotWaiter(player: player, item: item, time: time, subtitles: subtitles)
    player.addEventObserver(queue: waiter.queue) { event in waiter.handle(event) }
    player.replaceCurrentItem(with: item)
    try waiter.wait()
    var png = try player.snapshot(width: width, height: height, gravity: gravity)
    if subtitles != nil {
      var picture = try PNGCodec.decode(png)
      try SubtitleOverlayRenderer().draw(item.activeTextCues.map(\.cue), onto: &picture)
      png = try PNGCodec.encode(picture)
    }
    guard let size = Snapshot.dimensions(ofPNG: png) else {
      throw PlayheadError(.decodeFailed, "the snapshot of \(url.absoluteString) is not a PNG")
    }
    return Snapshot(png: png, width: size.width, height: size.height)
  }
}

/// Follows a snapshot player's events: seeks once the item is ready, and reports when the
/// frame at the seek time has been presented or why it cannot be.
private final class SnapshotWaiter: Sendable {
  /// Where `handle` runs.
  let queue = DispatchQueue(label: "playhead.cli.snapshot")
  private weak let player: Player?
  private let item: PlayerItem
  private let time: MediaTime
  private let done = DispatchSemaphore(value: 0)
  private let state = Locked(State())

  /// The subtitles to burn in, if any.
  private let subtitles: SnapshotTaker.Subtitles?

  private struct State: Sendable {
    var result: Result<Void, PlayheadError>?
    var seekLanded = false
    var framePresented = false
    /// The subtitle track selected once the frame was shown, until it caught up.
    var pendingTrack: RenditionInfo?
  }

  init(player: Player, item: PlayerItem, time: MediaTime, subtitles: SnapshotTaker.Subtitles?) {
    self.player = player
    self.item = item
    self.time = time
    self.subtitles = subtitles
  }

  /// Blocks until the frame is presented; throws why it cannot be.
  func wait() throws(PlayheadError) {
    done.wait()
    let result = queue.sync { state.withLock { $0.result } }
    try result?.get()
  }

  func handle(_ event: PlayerEvent) {
    guard state.withLock({ $0.result == nil }) else { return }
    switch event.kind {
    case .itemStatusChanged(let changed, .readyToPlay) where changed === item:
      player?.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
    case .itemStatusChanged(_, .failed(let error)), .failedToPlayToEnd(_, let error):
      finish(.failure(error))
    case .seekCompleted(_, finished: true):
      let framePresented = state.withLock { state in
        state.seekLanded = true
        return state.framePresented
      }
      if framePresented {
        frameShown()
      } else {
        queue.asyncAfter(deadline: .now() + SnapshotTaker.presentationGraceSeconds) {
          [self] in
          finish(
            .failure(
              PlayheadError(
                .decodeFailed,
                "no video frame at \(TimeText.seconds(time)) in \(item.asset.url.absoluteString)",
                url: item.asset.url)))
        }
      }
    case .seekCompleted(_, finished: false):
      finish(
        .failure(
          PlayheadError(
            .decodeFailed, "the seek to \(TimeText.seconds(time)) did not complete",
            url: item.asset.url)))
    case .firstFramePresented:
      let seekLanded = state.withLock { state in
        state.framePresented = true
        return state.seekLanded
      }
      if seekLanded { frameShown() }
    case .textTrackLoaded(_, let track, _), .textTrackFailed(_, let track, _):
      let awaited = state.withLock { $0.pendingTrack == track }
      guard awaited else { break }
      if case .textTrackFailed(_, _, let error) = event.kind {
        finish(.failure(error))
      } else {
        finish(.success(()))
      }
    default:
      break
    }
  }

  /// The frame at the time is shown: done, or with subtitles to burn in, their track is
  /// selected and the snapshot waits for it to catch up with the position.
  private func frameShown() {
    guard let subtitles else { return finish(.success(())) }
    let tracks = item.sidecarTextTracks + item.subtitleRenditions
    let chosen =
      subtitles.language.map { language in
        tracks.first { TrackLanguage.match($0.language, language) != .none }
      } ?? item.sidecarTextTracks.first
    guard let track = chosen else {
      let available = tracks.map { $0.language ?? "und" }
      return finish(
        .failure(
          PlayheadError(
            .invalidArgument,
            "option '--burn-subtitles' asks for subtitles in '\(subtitles.language ?? "und")', "
              + "but there is no subtitle track in it (available: "
              + "\(available.isEmpty ? "none" : available.joined(separator: ", ")))",
            url: item.asset.url)))
    }
    state.withLock { $0.pendingTrack = track }
    _ = item.selectTextTrack(track)
  }

  /// Records the first result and wakes `wait()`; later results are ignored.
  private func finish(_ outcome: Result<Void, PlayheadError>) {
    let first = state.withLock { state in
      guard state.result == nil else { return false }
      state.result = outcome
      return true
    }
    if first { done.signal() }
  }
}
