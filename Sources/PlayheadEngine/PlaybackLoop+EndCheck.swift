import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// How far short of its declared end a VOD item's media may stop and still count as
  /// played to its end: the larger of this and `endedEarlyFraction` of the declared
  /// duration (docs/decisions/0024). Streams end a little short or long of what they
  /// declare (audio and video of unequal length, rounded segment durations); a file cut
  /// in half or with broken sample tables stops far earlier.
  static let endedEarlyAllowance = MediaTime(value: 2, timescale: 1)
  /// The share of the declared duration a VOD item may stop short by (5 %).
  static let endedEarlyFraction = (numerator: Int64(1), denominator: Int64(20))

  /// The `.mediaEndedEarly` error for a VOD item whose media ended at `endTime`: far short
  /// of its declared end (its duration, or the forward end when that is earlier), or
  /// without a single frame from the video track it has. Nil when the end is fine.
  func endedEarlyError(_ active: ActiveItem, at endTime: MediaTime) -> PlayheadError? {
    guard let media = active.media, media.streamKind == .vod else { return nil }
    let duration = media.duration
    guard duration.isNumeric, duration > .zero else { return nil }
    let declared = forwardEnd(active).map { min($0, duration) } ?? duration
    let allowance = max(
      Self.endedEarlyAllowance,
      declared.multiplied(
        byRatio: Self.endedEarlyFraction.numerator,
        denominator: Self.endedEarlyFraction.denominator))
    let endsShort = declared - endTime > allowance
    let videoCodec = media.tracks.first { $0.kind == .video }?.codec ?? "video"
    let noVideo = media.hasVideo && active.loader.snapshot().framesDecoded == 0
    guard endsShort || noVideo else { return nil }
    var reasons: [String] = []
    if endsShort {
      reasons.append(
        "the media ended at \(Self.secondsText(endTime)) s of its declared "
          + "\(Self.secondsText(declared)) s")
    }
    if noVideo { reasons.append("its video track (\(videoCodec)) gave no frame") }
    return PlayheadError(
      .mediaEndedEarly,
      "\(active.item.asset.url.absoluteString) did not play to its end: "
        + reasons.joined(separator: ", and ") + " (corrupt or cut-short media)",
      url: active.item.asset.url)
  }
}
