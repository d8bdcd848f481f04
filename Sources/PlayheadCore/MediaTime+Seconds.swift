extension MediaTime {
  /// Creates the time nearest to `seconds` in units of `1 / preferredTimescale` seconds.
  ///
  /// The exact binary value of `seconds` is scaled and rounded half away from zero, setting
  /// `.hasBeenRounded` if that changed it. NaN or a timescale of zero or less gives
  /// `.invalid`; `±infinity` gives the matching infinity, as does a value that does not fit
  /// `Int64` in the requested timescale.
  public init(seconds: Double, preferredTimescale: Int32) {
    guard preferredTimescale > 0, !seconds.isNaN else {
      self = .invalid
      return
    }
    // Anything at or beyond 2^64 seconds overflows every timescale, infinities included.
    guard seconds.magnitude < 0x1p64 else {
      self = seconds > 0 ? .positiveInfinity : .negativeInfinity
      return
    }
    // seconds == significand * 2^exponent exactly, with an integer significand below 2^53.
    let significand: UInt64
    let exponent: Int
    if seconds.exponentBitPattern == 0 {
      significand = seconds.significandBitPattern
      exponent = Double.leastNormalMagnitude.exponent.advanced(by: -Double.significandBitCount)
    } else {
      significand = seconds.significandBitPattern | (1 << Double.significandBitCount)
      exponent = Int(seconds.exponentBitPattern) - 1023 - Double.significandBitCount
    }
    var numerator = Int128(significand) * Int128(preferredTimescale)
    if seconds < 0 { numerator = -numerator }
    if exponent >= 0 {
      // |seconds| < 2^64 bounds the exponent at 11: the shift stays under 2^95.
      self = .saturating(
        value: numerator << exponent, timescale: preferredTimescale, rounded: false)
    } else if -exponent > 100 {
      // |numerator| < 2^84, so the quotient is below one half: zero, rounded if nonzero.
      self = .saturating(value: 0, timescale: preferredTimescale, rounded: numerator != 0)
    } else {
      let (quotient, inexact) = RoundingMode.roundHalfAwayFromZero.divide(
        numerator, by: Int128(1) << -exponent)
      self = .saturating(value: quotient, timescale: preferredTimescale, rounded: inexact)
    }
  }

  /// The time in seconds, as the `Double` nearest to `value / timescale` for values up to
  /// 2^53.
  ///
  /// `±infinity` for the infinities; NaN for indefinite and invalid times.
  public var seconds: Double {
    switch kind {
    case .numeric: return Double(value) / Double(timescale)
    case .positiveInfinity: return .infinity
    case .negativeInfinity: return -.infinity
    case .indefinite, .invalid: return .nan
    }
  }

  /// Creates a time of `nanoseconds` in timescale 1,000,000,000.
  public init(nanoseconds: Int64) {
    self.init(value: nanoseconds, timescale: 1_000_000_000)
  }

  /// Creates a time of `milliseconds` in timescale 1,000.
  public init(milliseconds: Int64) {
    self.init(value: milliseconds, timescale: 1_000)
  }

  /// The time in whole nanoseconds, rounded toward negative infinity.
  ///
  /// `nil` when the time is not numeric or does not fit `Int64` nanoseconds (about 292
  /// years).
  public var nanoseconds: Int64? {
    let scaled = convertScale(1_000_000_000, rounding: .roundTowardNegativeInfinity)
    return scaled.isNumeric ? scaled.value : nil
  }
}
