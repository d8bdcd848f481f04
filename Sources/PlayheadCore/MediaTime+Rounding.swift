// Exact integer helpers shared by the MediaTime operations.

extension MediaTime.RoundingMode {
  /// Divides `numerator` by the positive `denominator` and rounds the exact quotient.
  ///
  /// Returns the rounded quotient and whether the division was inexact.
  func divide(_ numerator: Int128, by denominator: Int128) -> (quotient: Int128, inexact: Bool) {
    let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
    if remainder == 0 { return (quotient, false) }
    let awayFromZero: Int128 = numerator < 0 ? -1 : 1
    switch self {
    case .roundTowardZero:
      return (quotient, true)
    case .roundAwayFromZero:
      return (quotient + awayFromZero, true)
    case .roundTowardPositiveInfinity:
      return (numerator > 0 ? quotient + 1 : quotient, true)
    case .roundTowardNegativeInfinity:
      return (numerator < 0 ? quotient - 1 : quotient, true)
    case .roundHalfAwayFromZero:
      let magnitude = remainder < 0 ? -remainder : remainder
      // magnitude >= denominator / 2, written without overflow.
      return (magnitude >= denominator - magnitude ? quotient + awayFromZero : quotient, true)
    }
  }
}

extension MediaTime {
  /// A numeric time from a 128-bit numerator, saturating to an infinity when it does not
  /// fit `Int64`.
  static func saturating(value: Int128, timescale: Int32, rounded: Bool) -> MediaTime {
    guard let exact = Int64(exactly: value) else {
      return value > 0 ? .positiveInfinity : .negativeInfinity
    }
    return MediaTime(
      value: exact, timescale: timescale, flags: rounded ? [.valid, .hasBeenRounded] : .valid)
  }

  /// The greatest common divisor of two non-negative integers (gcd(0, 0) == 0).
  static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }
}
