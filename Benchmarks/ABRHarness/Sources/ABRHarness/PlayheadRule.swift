import PlayheadCore
import PlayheadEngine

/// Playhead's `DefaultABRController` and `DefaultLoadControl` driven by the session, with
/// the meter's numbers passed in as the engine passes them.
final class PlayheadRule: SimulatedRule {
  let controller: DefaultABRController
  let loadControl: DefaultLoadControl
  private let levels: [BitrateLevel]
  private let segmentTime: MediaTime
  private var requested: Int?

  init(
    ladder: Ladder, configuration: DefaultABRController.Configuration,
    loadControl: DefaultLoadControl
  ) {
    controller = DefaultABRController(configuration: configuration)
    self.loadControl = loadControl
    levels = ladder.bitrates.enumerated().map {
      BitrateLevel(index: $0.offset, bandwidth: Int($0.element))
    }
    segmentTime = Self.time(ladder.segmentSeconds)
  }

  var abandons: Bool { controller.configuration.abandonsDownloads }

  static func time(_ seconds: Double) -> MediaTime {
    MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
  }

  private func context(_ view: SessionView) -> ABRContext {
    let remaining = Double(view.ladder.segmentCount - view.segment - 1) * view.ladder.segmentSeconds
    let phase: ABRPhase = !view.hasStarted ? .starting : (view.isPlaying ? .playing : .stalled)
    return ABRContext(
      throughputBitsPerSecond: view.throughput, lastTransferBitsPerSecond: view.lastThroughput,
      requestLatency: view.latency.map(Self.time), bufferLevel: Self.time(view.buffer),
      maximumBuffer: loadControl.parameters.maximumBuffer, currentLevel: requested,
      segmentDuration: segmentTime, remainingContent: Self.time(max(0, remaining)),
      playbackRate: 1, phase: phase, constraints: .none)
  }

  func firstLevel(_ view: SessionView) -> Int {
    let level = controller.selectInitialLevel(levels: levels, context: context(view))
    requested = level
    return level
  }

  func nextLevel(_ view: SessionView) -> Int {
    let level = controller.selectLevel(levels: levels, context: context(view)).level
    requested = level
    return level
  }

  func abandon(_ view: SessionView, _ progress: DownloadProgressView) -> Int? {
    let download = InProgressDownload(
      level: progress.level, expectedBytes: Int64(progress.totalBits / 8),
      loadedBytes: Int64(progress.loadedBits / 8), elapsed: Self.time(progress.elapsed),
      timeToFirstByte: Self.time(progress.timeToFirstBit), segmentDuration: segmentTime)
    let target = controller.shouldAbandon(
      levels: levels, download: download, context: context(view))
    if let target { requested = target }
    return target
  }

  func downloaded(
    _ view: SessionView, level: Int, bits: Double, seconds: Double, timeToFirstBit: Double,
    abandoned: Bool
  ) {
    controller.didCompleteDownload(
      CompletedDownload(
        level: level, bytes: Int64(bits / 8), duration: Self.time(seconds),
        timeToFirstByte: Self.time(timeToFirstBit), segmentDuration: segmentTime,
        wasAbandoned: abandoned))
  }

  func idleBeforeRequest(_ view: SessionView) -> Double {
    let chunk = segmentTime
    func loads(after wait: Double) -> Bool {
      loadControl.shouldContinueLoading(
        bufferedAhead: Self.time(max(0, view.buffer - (view.isPlaying ? wait : 0))),
        nextChunkDuration: chunk,
        playbackElapsed: Self.time(view.watched + (view.isPlaying ? wait : 0)),
        isPlaying: view.isPlaying)
    }
    // The engine asks again as time passes; the buffer drains only while playing. Asked
    // in time order, so the load control's hysteresis sees what an engine would show it.
    var wait = 0.0
    while !loads(after: wait) {
      guard view.isPlaying, wait < view.buffer else { return wait }
      wait += Self.pollInterval
    }
    return wait
  }

  /// How often the harness asks the load control again while it says no.
  static let pollInterval = 0.05

  func canStartPlayback(buffer: Double, afterStall: Bool) -> Bool {
    loadControl.shouldStartPlayback(bufferedAhead: Self.time(buffer), isAfterRebuffer: afterStall)
  }
}
