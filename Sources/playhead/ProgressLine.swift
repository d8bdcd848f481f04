import Foundation
import Playhead

/// The text of the progress line: `  00:03.20 / 00:10.00  playing  buffered +1.5s`,
/// followed for streams with renditions by the current one and the bandwidth estimate:
/// `  360p 527 kbps  bandwidth 2.10 Mbps`.
struct ProgressLine: Equatable, Sendable {
  /// The item's current time.
  var time: MediaTime
  /// The item's duration (`.indefinite` or `.invalid` when unknown).
  var duration: MediaTime
  /// The player's time-control status.
  var status: TimeControlStatus
  /// Whether playback is stalled (shown instead of the waiting status).
  var isStalled: Bool
  /// The item's buffered ranges.
  var loadedTimeRanges: [MediaTimeRange]
  /// The rendition being loaded (nil for progressive media).
  var variant: VariantInfo? = nil
  /// The engine's bandwidth estimate in bits per second (nil for progressive media).
  var bandwidthEstimate: Double? = nil

  /// The line, without control characters.
  var text: String {
    var line = "  \(TimeText.clock(time)) / \(TimeText.clock(duration))  \(statusText)"
    if let ahead = bufferedAhead {
      line += "  buffered +" + String(format: "%.1fs", ahead)
    }
    if let variant {
      line += "  " + VariantText.label(variant)
    }
    if variant != nil, let bandwidthEstimate, bandwidthEstimate.isFinite, bandwidthEstimate > 0 {
      line += "  bandwidth " + VariantText.bitRate(bandwidthEstimate)
    }
    return line
  }

  /// `playing`, `paused`, `stalled` or `waiting`.
  var statusText: String {
    switch status {
    case .playing: return "playing"
    case .paused: return "paused"
    case .waitingToPlayAtSpecifiedRate: return isStalled ? "stalled" : "waiting"
    }
  }

  /// Seconds buffered beyond `time` in the range that holds it (nil when none does).
  var bufferedAhead: Double? {
    guard time.isNumeric else { return nil }
    for range in loadedTimeRanges where range.isValid && range.start <= time && time <= range.end {
      return max(0, (range.end - time).seconds)
    }
    return nil
  }
}

/// Formats times for people.
enum TimeText {
  /// `mm:ss.cc` (minutes grow past 59), or `--:--.--` for a time that is not numeric.
  static func clock(_ time: MediaTime) -> String {
    guard time.isNumeric else { return "--:--.--" }
    let hundredths = Int64((max(0, time.seconds) * 100).rounded(.down))
    let minutes = hundredths / 6000
    let seconds = (hundredths / 100) % 60
    let fraction = hundredths % 100
    return pad(minutes) + ":" + pad(seconds) + "." + pad(fraction)
  }

  /// `1.234s` for a numeric time, `-` otherwise.
  static func seconds(_ time: MediaTime) -> String {
    guard time.isNumeric else { return "-" }
    return String(format: "%.3fs", time.seconds)
  }

  private static func pad(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
