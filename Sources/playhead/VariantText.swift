import Foundation
import Playhead

/// Formats renditions and bit rates for people.
enum VariantText {
  /// `360p 527 kbps`: the picture height (or `#index` without one) and the declared
  /// bandwidth (left out when the playlist gives none).
  static func label(_ variant: VariantInfo) -> String {
    let name = variant.height.map { "\($0)p" } ?? "#\(variant.index)"
    guard variant.bandwidth > 0 else { return name }
    return name + " " + bitRate(Double(variant.bandwidth))
  }

  /// `527 kbps` below 1 Mbit/s, `1.03 Mbps` below 1 Gbit/s, `2.50 Gbps` from there on;
  /// `-` for a negative or non-finite rate.
  static func bitRate(_ bitsPerSecond: Double) -> String {
    guard bitsPerSecond.isFinite, bitsPerSecond >= 0 else { return "-" }
    if bitsPerSecond < 999_500 {
      return String(format: "%.0f kbps", bitsPerSecond / 1000)
    }
    if bitsPerSecond < 999_995_000 {
      return String(format: "%.2f Mbps", bitsPerSecond / 1_000_000)
    }
    return String(format: "%.2f Gbps", bitsPerSecond / 1_000_000_000)
  }

  /// `WxH`, or nil when either side is unknown.
  static func resolution(width: Int?, height: Int?) -> String? {
    guard let width, let height else { return nil }
    return "\(width)x\(height)"
  }
}

/// Averages the declared bandwidth of the renditions played, weighted by the media time
/// each one played.
///
/// Feed it every event in order; media time counts only while the player is playing, and a
/// seek or a new start restarts the count from the new position, so a jump is never
/// counted as played.
struct BitrateAverager: Sendable {
  private var bandwidth: Int?
  private var lastItemTime: MediaTime?
  private var isPlaying = false
  private var weightedBits = 0.0
  /// Media time played by renditions with a known bandwidth.
  private var knownSeconds = 0.0
  /// The bandwidth of the last rendition with a known bandwidth.
  private(set) var lastKnownBandwidth: Int?

  /// Takes `event` into account.
  mutating func record(_ event: PlayerEvent) {
    advance(to: event.itemTime)
    switch event.kind {
    case .variantChanged(_, let variant, _):
      bandwidth = variant.bandwidth > 0 ? variant.bandwidth : nil
      if let bandwidth { lastKnownBandwidth = bandwidth }
    case .timeControlStatusChanged(let status):
      isPlaying = status == .playing
      lastItemTime = event.itemTime.isNumeric ? event.itemTime : nil
    case .seekCompleted:
      lastItemTime = event.itemTime.isNumeric ? event.itemTime : nil
    default:
      break
    }
  }

  /// Counts the media time from the last event to `time` for the current rendition.
  private mutating func advance(to time: MediaTime) {
    defer { lastItemTime = time.isNumeric ? time : nil }
    guard isPlaying, time.isNumeric, let last = lastItemTime else { return }
    let seconds = (time - last).seconds
    guard seconds > 0, seconds.isFinite else { return }
    guard let bandwidth else { return }
    knownSeconds += seconds
    weightedBits += Double(bandwidth) * seconds
  }

  /// The average in bits per second: time-weighted over the media played by renditions
  /// that declare a bandwidth, or the last known bandwidth when no time was counted; nil
  /// when no rendition declared one.
  var averageBitsPerSecond: Double? {
    if knownSeconds > 0 { return weightedBits / knownSeconds }
    return lastKnownBandwidth.map(Double.init)
  }
}
