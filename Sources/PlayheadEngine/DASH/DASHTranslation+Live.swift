import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS

extension DASHTranslation {
  /// The most segments a live playlist lists per Period (the newest are kept).
  static let liveSegmentLimit = 10_000

  /// The live playlist `key` at `now`: the segments available in the time-shift buffer, in
  /// every available Period, numbered so that a segment keeps its number across MPD
  /// reloads (its `$Number$`, after a base for its Period's start), each with its
  /// wall-clock time as its program date-time; ended once the presentation has.
  func livePlaylist(_ key: String, parts: [DASHTrackPart], now: Date) -> MediaPlaylist {
    let window = mpd.availabilityWindow(at: now)
    let available = Set(mpd.periodIndices(availableAt: now))
    var segments: [MediaSegment] = []
    var longest = MediaTime.zero
    var lastPeriod: Int?
    for part in parts where available.contains(part.period) {
      let period = mpd.periods[part.period]
      let representation = part.representation
      let listed = representation.availableSegments(
        in: period, of: mpd, at: now, maxCount: Self.liveSegmentLimit)
      let map = representation.initialization.map {
        InitializationSection(uri: $0.url, byteRange: $0.range)
      }
      let base = Self.sequenceBase(of: period)
      let periodNumber = Int(clamping: Int64(period.start.seconds.rounded(.down)))
      for reference in listed.segments
      where reference.duration > .zero && reference.start + reference.duration > window.earliest {
        longest = max(longest, reference.duration)
        var segment = MediaSegment(
          uri: reference.url, duration: reference.duration, byteRange: reference.range,
          discontinuity: lastPeriod != nil && lastPeriod != part.period, map: map,
          mediaSequence: base + Int(clamping: reference.number),
          discontinuitySequence: periodNumber, bitrate: representation.bandwidth / 1000)
        segment.setProgramDateTime(mpd.wallClockTime(of: reference.start))
        segments.append(segment)
        lastPeriod = part.period
      }
    }
    return MediaPlaylist(
      url: Self.playlistURL(key, manifest: manifestURL), version: 7,
      targetDuration: max(1, Int(longest.seconds.rounded(.up))),
      mediaSequence: segments.first?.mediaSequence ?? 0,
      discontinuitySequence: segments.first?.discontinuitySequence ?? 0,
      endList: window.hasEnded, independentSegments: true, segments: segments,
      dateRanges: adDateRanges(in: available.intersection(parts.map(\.period))))
  }

  /// The media sequence number a Period's segment numbers are counted from: zero for a
  /// Period at 0, else a million per second of its start (a later Period's numbers are
  /// always higher, and stay the same across reloads).
  static func sequenceBase(of period: MPDPeriod) -> Int {
    let seconds = Int64(max(0, period.start.seconds.rounded(.down)))
    return Int(clamping: seconds.multipliedReportingOverflow(by: 1_000_000).partialValue)
  }
}
