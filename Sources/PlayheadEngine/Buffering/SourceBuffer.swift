import Foundation
import PlayheadCore

/// What a media source holds ahead of the demuxer, on the item timeline: the media of
/// the item's loaded time ranges beyond what has been decoded (docs/decisions/0025).
struct SourceBuffer: Sendable, Equatable {
  /// The item-time ranges the source holds: downloaded since the stretch began (the
  /// start or the last seek), kept on disk by a cache, or all of a local file.
  var ranges: [MediaTimeRange] = []
  /// Whether the source can say what it holds; when not, decoded media alone counts and
  /// a full decoder stands in for `isHoldingBack`.
  var isKnown = false
  /// Whether everything from the stretch to the end of the media (or the forward end) is
  /// held: nothing more will load.
  var reachesEnd = false
  /// Whether loading holds back at a limit (the load control's target, the item's
  /// forward target or a read-ahead limit) until playback moves on.
  var isHoldingBack = false

  /// A source that cannot say what it holds.
  static let unknown = SourceBuffer()

  /// What two sources of one item (a variant and its alternate audio) hold together:
  /// the media both hold, at the end only when both are, holding back only when both are
  /// (or are at their end).
  func combined(with other: SourceBuffer) -> SourceBuffer {
    guard isKnown, other.isKnown else { return .unknown }
    return SourceBuffer(
      ranges: MediaTimeRange.intersection(ranges, other.ranges), isKnown: true,
      reachesEnd: reachesEnd && other.reachesEnd,
      isHoldingBack: (isHoldingBack || reachesEnd) && (other.isHoldingBack || other.reachesEnd))
  }
}

extension MediaTimeRange {
  /// The time covered by both lists (each merged first), merged.
  static func intersection(_ first: [MediaTimeRange], _ second: [MediaTimeRange])
    -> [MediaTimeRange]
  {
    let left = merged(first)
    let right = merged(second)
    var result: [MediaTimeRange] = []
    for a in left {
      for b in right {
        let start = max(a.start, b.start)
        let end = min(a.end, b.end)
        if start < end { result.append(MediaTimeRange(start: start, end: end)) }
      }
    }
    return merged(result)
  }

  /// The range of `merged` (ranges already merged, as `merged(_:)` gives them) that holds
  /// `time` (starting at most `tolerance` after it), if any.
  static func range(
    containing time: MediaTime, inMerged merged: [MediaTimeRange],
    tolerance: MediaTime = MediaTime(value: 1, timescale: 1000)
  ) -> MediaTimeRange? {
    merged.first { $0.start <= time + tolerance && time <= $0.end }
  }

  /// `ranges` mapped from bytes of a resource of `length` bytes to the time of media that
  /// lasts `duration`, in proportion (a constant byte rate): how progressive media's
  /// cached bytes show on the timeline.
  static func proportional(_ ranges: [ByteRange], length: Int64, duration: MediaTime)
    -> [MediaTimeRange]
  {
    guard length > 0, duration.isNumeric, duration > .zero else { return [] }
    func time(_ offset: Int64) -> MediaTime {
      let clamped = min(max(0, offset), length)
      return duration.multiplied(byRatio: clamped, denominator: length)
    }
    return ranges.compactMap { range in
      let end = range.end ?? length
      guard end > range.offset else { return nil }
      return MediaTimeRange(start: time(range.offset), end: time(end))
    }
  }
}
