/// The growing forward buffer: small while a viewer may still leave, larger as they keep
/// watching (seed 000's buffer optimisation).
///
/// With `.default` the size starts at `minimumDurationSeconds` and grows by
/// `growthPerWatchedSecond` seconds for every second watched, up to
/// `maximumDurationSeconds`. With `.none` the optimiser sets nothing and the engine's own
/// forward buffer (the high-water mark) applies. Durations below 1.0 s (or NaN) become
/// 1.0 s; a maximum below the minimum becomes the minimum; a negative or NaN growth becomes 0.
public struct BufferOptimizer: Sendable, Equatable {
  /// Whether the optimiser sizes the buffer.
  public enum Method: Sendable, Equatable {
    /// Grow from the minimum to the maximum as the viewer watches.
    case `default`
    /// Leave the size to the engine default.
    case none
  }

  /// Whether the optimiser is on.
  public var method: Method
  /// The size at the start of an item, in seconds (≥ 1.0).
  public private(set) var minimumDurationSeconds: Double
  /// The largest size, in seconds (≥ the minimum).
  public private(set) var maximumDurationSeconds: Double
  /// Seconds of buffer added per second watched (≥ 0).
  public private(set) var growthPerWatchedSecond: Double

  /// Creates an optimiser; the values are clamped as described on the type.
  public init(
    method: Method = .default, minimumDurationSeconds: Double = 10,
    maximumDurationSeconds: Double = 50, growthPerWatchedSecond: Double = 0.5
  ) {
    self.method = method
    let minimum = Self.clampDuration(minimumDurationSeconds)
    self.minimumDurationSeconds = minimum
    self.maximumDurationSeconds = max(minimum, Self.clampDuration(maximumDurationSeconds))
    self.growthPerWatchedSecond =
      growthPerWatchedSecond.isNaN ? 0 : min(1e6, max(0, growthPerWatchedSecond))
  }

  /// An optimiser that is off.
  public static let none = BufferOptimizer(method: .none)

  /// The buffer size in seconds after `watchedSeconds` of watching; nil when off.
  ///
  /// Negative or NaN watch times count as zero.
  public func sizeSeconds(afterWatching watchedSeconds: Double) -> Double? {
    guard method == .default else { return nil }
    let watched = watchedSeconds.isNaN ? 0 : max(0, watchedSeconds)
    return min(maximumDurationSeconds, minimumDurationSeconds + growthPerWatchedSecond * watched)
  }

  private static func clampDuration(_ seconds: Double) -> Double {
    guard !seconds.isNaN else { return 1 }
    return min(1e6, max(1, seconds))
  }
}
