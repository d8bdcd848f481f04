/// A span of media time: the half-open interval `[start, start + duration)`.
///
/// A range is valid when `start` is numeric and `duration` is a non-negative number or
/// `.positiveInfinity` (a range that never ends, such as a live stream from a point on).
/// Operations on an invalid range give `.invalid` or `false`.
///
/// ```swift
/// let range = MediaTimeRange(start: .zero, duration: MediaTime(value: 10, timescale: 1))
/// range.contains(MediaTime(value: 10, timescale: 1))  // false: the end is excluded
/// ```
public struct MediaTimeRange: Sendable, Hashable, Codable {
  /// The first instant in the range.
  public var start: MediaTime
  /// How long the range lasts.
  public var duration: MediaTime

  /// Creates the range of `duration` from `start`.
  ///
  /// A negative or non-numeric duration (other than `+inf`) gives an invalid range.
  public init(start: MediaTime, duration: MediaTime) {
    self.start = start
    self.duration = duration
  }

  /// Creates the range from `start` up to, but not including, `end`.
  ///
  /// The duration is `end - start` with the rounding rules of `MediaTime.-`; an `end`
  /// before `start` gives an invalid range, and an `end` of `+inf` a range that never ends.
  public init(start: MediaTime, end: MediaTime) {
    self.start = start
    self.duration = end - start
  }

  /// The empty range at time zero.
  public static let zero = MediaTimeRange(start: .zero, duration: .zero)
  /// A range that is not a range.
  public static let invalid = MediaTimeRange(start: .invalid, duration: .invalid)

  /// The first instant after the range: `start + duration` (`+inf` for a range that never
  /// ends, `.invalid` for an invalid range).
  public var end: MediaTime {
    isValid ? start + duration : .invalid
  }

  /// Whether `start` is numeric and `duration` is a non-negative number or `+inf`.
  public var isValid: Bool {
    guard start.isNumeric else { return false }
    if duration.isPositiveInfinity { return true }
    return duration.isNumeric && duration.value >= 0
  }

  /// Whether the range is valid and lasts no time at all.
  public var isEmpty: Bool { isValid && duration == .zero }

  /// Whether `time` lies in `[start, end)`.
  ///
  /// An empty or invalid range contains nothing; only numeric times can be contained.
  public func contains(_ time: MediaTime) -> Bool {
    guard isValid, time.isNumeric else { return false }
    return start <= time && time < end
  }

  /// Whether every instant of `other` lies in this range.
  ///
  /// Both ranges must be valid. An empty `other` is contained when its start lies in
  /// `[start, end]`.
  public func contains(_ other: MediaTimeRange) -> Bool {
    guard isValid, other.isValid else { return false }
    return start <= other.start && other.end <= end
  }

  /// The smallest range that covers both ranges (and any gap between them).
  ///
  /// `.invalid` if either range is invalid.
  public func union(_ other: MediaTimeRange) -> MediaTimeRange {
    guard isValid, other.isValid else { return .invalid }
    return MediaTimeRange(
      start: MediaTime.minimum(start, other.start), end: MediaTime.maximum(end, other.end))
  }

  /// The instants common to both ranges.
  ///
  /// Ranges that are disjoint or only touch give an empty range at the later of the two
  /// starts. `.invalid` if either range is invalid.
  public func intersection(_ other: MediaTimeRange) -> MediaTimeRange {
    guard isValid, other.isValid else { return .invalid }
    let lower = MediaTime.maximum(start, other.start)
    let upper = MediaTime.minimum(end, other.end)
    guard lower < upper else { return MediaTimeRange(start: lower, duration: .zero) }
    return MediaTimeRange(start: lower, end: upper)
  }

  /// Sorts `ranges` by start and merges those that overlap or touch.
  ///
  /// Invalid and empty ranges are dropped. The result is sorted, and consecutive ranges in
  /// it are separated by a gap of nonzero length.
  public static func merged(_ ranges: [MediaTimeRange]) -> [MediaTimeRange] {
    let sorted = ranges.filter { $0.isValid && !$0.isEmpty }.sorted { $0.start < $1.start }
    var result: [MediaTimeRange] = []
    for range in sorted {
      if let last = result.last, range.start <= last.end {
        if last.end < range.end {
          result[result.count - 1] = MediaTimeRange(start: last.start, end: range.end)
        }
      } else {
        result.append(range)
      }
    }
    return result
  }
}

extension MediaTimeRange: CustomStringConvertible {
  /// `"[start, end)"` in seconds, or `"invalid range"`.
  public var description: String {
    guard isValid else { return "invalid range" }
    return "[\(start.secondsText), \(end.secondsText))"
  }
}
