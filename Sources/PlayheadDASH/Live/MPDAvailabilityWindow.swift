import Foundation
import PlayheadCore

/// Where a presentation stands at one wall-clock instant: what is available on its
/// presentation timeline and where a live player starts (ISO/IEC 23009-1 5.3.9.5, DASH-IF
/// IOP 4.3).
///
/// Presentation time 0 of a dynamic MPD is its `availabilityStartTime`; a Period's segments
/// sit at `Period.start + (t - presentationTimeOffset) / timescale` on the same line. For a
/// static MPD the window is the whole presentation and `now` is its end.
public struct MPDAvailabilityWindow: Sendable, Hashable {
  /// Whether the MPD is dynamic (the window moves with the clock).
  public var isDynamic: Bool
  /// The presentation time of the instant asked about: `now - availabilityStartTime`; for
  /// a static MPD, the presentation's end (`.positiveInfinity` when no end is known).
  public var now: MediaTime
  /// The earliest presentation time still in the time-shift buffer:
  /// `now - timeShiftBufferDepth`, not before the first Period's start (that start when no
  /// depth is given, or for a static MPD).
  public var earliest: MediaTime
  /// The delay behind `now` a live player keeps (`MPD.presentationDelay`); zero for a
  /// static MPD.
  public var presentationDelay: MediaTime
  /// Where a live player starts: `now - presentationDelay`, not before `earliest`; for a
  /// static MPD, its end, like `now` (a static presentation plays from `earliest`).
  public var liveEdge: MediaTime
  /// Whether nothing more becomes available: a static MPD, or a dynamic one whose
  /// `availabilityEndTime` has passed or whose last Period ended before `now`.
  public var hasEnded: Bool
}

extension MPD {
  /// The default delay behind the live edge when the MPD gives no
  /// `suggestedPresentationDelay` and no `minBufferTime`: 10 seconds.
  public static let defaultPresentationDelay = MediaTime(value: 10, timescale: 1)

  /// The delay behind `now` a live player keeps: `suggestedPresentationDelay`, else
  /// `minBufferTime` but at least twice `maxSegmentDuration` when that is given (two
  /// segments to buffer), else `defaultPresentationDelay`.
  ///
  /// A negative value counts as zero.
  public var presentationDelay: MediaTime {
    if let delay = suggestedPresentationDelay { return max(delay, .zero) }
    var delay = minBufferTime
    if let longest = maxSegmentDuration {
      delay = max(delay ?? .zero, longest * 2)
    }
    return max(delay ?? Self.defaultPresentationDelay, .zero)
  }

  /// The presentation time of `now`: `now - availabilityStartTime` (to the microsecond);
  /// nil for an MPD without `availabilityStartTime`.
  public func presentationTime(at now: Date) -> MediaTime? {
    guard let start = availabilityStartTime else { return nil }
    return Self.mediaTime(now.timeIntervalSince(start))
  }

  /// The wall-clock instant of `presentationTime`; nil without `availabilityStartTime`.
  public func wallClockTime(of presentationTime: MediaTime) -> Date? {
    guard let start = availabilityStartTime, presentationTime.isNumeric else { return nil }
    return start.addingTimeInterval(presentationTime.seconds)
  }

  /// The availability window at `now` (a wall-clock instant, corrected by the offset a
  /// `UTCTiming` gave).
  ///
  /// For a static MPD `now` does not matter: the window is the whole presentation. After a
  /// dynamic MPD's `availabilityEndTime`, `hasEnded` is true and no segment is available.
  public func availabilityWindow(at now: Date) -> MPDAvailabilityWindow {
    let first = periods.first?.start ?? .zero
    guard type == .dynamic, let position = presentationTime(at: now) else {
      let end = periods.last?.end ?? mediaPresentationDuration ?? .positiveInfinity
      return MPDAvailabilityWindow(
        isDynamic: false, now: end, earliest: first, presentationDelay: .zero, liveEdge: end,
        hasEnded: true)
    }
    var earliest = first
    if let depth = timeShiftBufferDepth {
      earliest = max(first, position - depth)
    }
    let delay = presentationDelay
    let edge = max(earliest, position - delay)
    var ended = false
    if let end = availabilityEndTime, now >= end { ended = true }
    if let last = periods.last, let lastEnd = last.end, lastEnd <= position { ended = true }
    if let total = mediaPresentationDuration, total <= position { ended = true }
    return MPDAvailabilityWindow(
      isDynamic: true, now: position, earliest: earliest, presentationDelay: delay,
      liveEdge: edge, hasEnded: ended)
  }

  /// The indexes in `periods` of the Periods that overlap the window at `now`: those that
  /// start before `now` and end (when known) after `earliest`. All of them for a static
  /// MPD; for a dynamic one, the last is usually still open.
  public func periodIndices(availableAt now: Date) -> [Int] {
    let window = availabilityWindow(at: now)
    guard window.isDynamic else { return Array(periods.indices) }
    return periods.indices.filter { index in
      let period = periods[index]
      guard period.start <= window.now else { return false }
      guard let end = period.end else { return true }
      return end > window.earliest
    }
  }

  /// Seconds as a time in microseconds.
  static func mediaTime(_ seconds: TimeInterval) -> MediaTime {
    MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
  }
}
