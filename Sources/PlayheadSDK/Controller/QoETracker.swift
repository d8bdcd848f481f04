import Foundation
import PlayheadCore
import PlayheadEngine

/// Builds a session's `SessionQoE` from its player item and the progress it made.
struct QoETracker {
  private var lastPosition: MediaTime?
  private var weightedBits = 0.0
  private var weightedSeconds = 0.0
  private var periodBitrates: [Double] = []
  private var currentBitrate: Double?
  private(set) var errorCount = 0

  /// The rendition changed to one of `bandwidth` bits/s.
  mutating func variantChanged(bandwidth: Int) {
    let bitrate = Double(bandwidth)
    guard bitrate > 0, bitrate != currentBitrate else { return }
    currentBitrate = bitrate
    periodBitrates.append(bitrate)
  }

  /// An error was logged.
  mutating func errorLogged() {
    errorCount += 1
  }

  /// Normal playback reached `time`; a jump of more than `maximumStep` (a seek) is not
  /// counted as played.
  mutating func progressed(to time: MediaTime, maximumStep: MediaTime) {
    guard time.isNumeric else { return }
    defer { lastPosition = time }
    guard let last = lastPosition, time > last, time - last <= maximumStep,
      let bitrate = currentBitrate
    else { return }
    let seconds = (time - last).seconds
    weightedBits += bitrate * seconds
    weightedSeconds += seconds
  }

  /// Playback jumped (seek or resume): the next progress starts a new interval.
  mutating func jumped(to time: MediaTime) {
    lastPosition = time
  }

  /// The figures now, from the item's statistics and logs plus what was tracked here.
  func snapshot(item: PlayerItem?) -> SessionQoE {
    var qoe = SessionQoE()
    qoe.errorCount = errorCount
    guard let item else { return qoe }
    let statistics = item.statistics
    qoe.timeToFirstFrame = statistics.timeToFirstFrame
    qoe.stallCount = statistics.stallCount
    qoe.totalStallTime = statistics.totalStallTime
    qoe.bitrateSwitchCount = statistics.variantSwitchCount
    qoe.droppedFrames = statistics.framesDropped
    qoe.renderedFrames = statistics.framesRendered
    qoe.bytesTransferred = statistics.bytesRead
    qoe.playedTime = statistics.playingTime
    if !periodBitrates.isEmpty {
      qoe.averageBitrate = periodBitrates.reduce(0, +) / Double(periodBitrates.count)
      qoe.timeWeightedBitrate =
        weightedSeconds > 0 ? weightedBits / weightedSeconds : periodBitrates.last
    } else if let declared = Self.declaredBitrate(item.accessLog()) {
      qoe.averageBitrate = declared
      qoe.timeWeightedBitrate = declared
    }
    return qoe
  }

  /// Progressive media: the access log's declared bit rates weighted by time watched.
  private static func declaredBitrate(_ log: [AccessLogEntry]) -> Double? {
    var weighted = 0.0
    var seconds = 0.0
    for entry in log where entry.indicatedBitrate > 0 && entry.durationWatched.isNumeric {
      weighted += entry.indicatedBitrate * entry.durationWatched.seconds
      seconds += entry.durationWatched.seconds
    }
    if seconds > 0 { return weighted / seconds }
    return log.last(where: { $0.indicatedBitrate > 0 })?.indicatedBitrate
  }
}
