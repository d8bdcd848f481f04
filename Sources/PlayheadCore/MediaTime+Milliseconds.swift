import Foundation

extension MediaTime {
  /// A duration of `milliseconds` in nanoseconds (the clocks' timescale), saturating at
  /// about ±104 days.
  public static func fromMilliseconds(_ milliseconds: Int) -> MediaTime {
    let clamped = min(max(Int64(milliseconds), -9_000_000_000), 9_000_000_000)
    return MediaTime(nanoseconds: clamped * 1_000_000)
  }
}
