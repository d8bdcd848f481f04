extension MediaTime {
  /// Adds two times exactly.
  ///
  /// Same timescales keep it. Different timescales give their least common multiple when
  /// that fits `Int32`; otherwise the result uses the larger of the two timescales, the
  /// exact sum is rounded once, half away from zero, and `.hasBeenRounded` is set if that
  /// changed it. A sum beyond `Int64` saturates to `.positiveInfinity` or
  /// `.negativeInfinity`.
  ///
  /// Non-numeric operands follow `CMTimeAdd`: invalid with anything is invalid;
  /// `+inf + -inf` is invalid; indefinite with anything valid is indefinite; an infinity
  /// plus a number or the same infinity is that infinity.
  public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
    combine(lhs, rhs, negatingRight: false)
  }

  /// Subtracts `rhs` from `lhs` exactly, as `lhs + (-rhs)` with the rules of `+`.
  ///
  /// `+inf - +inf` and `-inf - -inf` are invalid. No intermediate negation can overflow.
  public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
    combine(lhs, rhs, negatingRight: true)
  }

  /// Negates a time; the infinities swap, indefinite and invalid stay as they are.
  ///
  /// The negation of `Int64.min / t` does not fit and saturates to `.positiveInfinity`.
  public static prefix func - (time: MediaTime) -> MediaTime {
    switch time.kind {
    case .numeric:
      return saturating(
        value: -Int128(time.value), timescale: time.timescale, rounded: time.hasBeenRounded)
    case .positiveInfinity: return .negativeInfinity
    case .negativeInfinity: return .positiveInfinity
    case .indefinite, .invalid: return time
    }
  }

  /// Adds `rhs` to `lhs` in place, with the rules of `+`.
  public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }

  /// Subtracts `rhs` from `lhs` in place, with the rules of `-`.
  public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

  /// Multiplies a time by an integer, keeping its timescale.
  ///
  /// A product beyond `Int64` saturates to an infinity of the product's sign. An infinity
  /// times a positive factor keeps its sign, times a negative factor flips it, and times
  /// zero is invalid. Indefinite stays indefinite; invalid stays invalid.
  public func multiplied(by factor: Int64) -> MediaTime {
    multiplied(byRatio: factor, denominator: 1)
  }

  /// Multiplies a time by an integer; see `multiplied(by:)`.
  public static func * (time: MediaTime, factor: Int64) -> MediaTime {
    time.multiplied(by: factor)
  }

  /// Multiplies a time by an integer; see `multiplied(by:)`.
  public static func * (factor: Int64, time: MediaTime) -> MediaTime {
    time.multiplied(by: factor)
  }

  /// Multiplies a time by `numerator / denominator`, keeping its timescale.
  ///
  /// The exact product is rounded once with `rounding`, setting `.hasBeenRounded` if that
  /// changed it. A zero denominator gives `.invalid`. Overflow and non-numeric times follow
  /// `multiplied(by:)`, the sign of the ratio taking the place of the factor's sign.
  public func multiplied(
    byRatio numerator: Int64, denominator: Int64,
    rounding: RoundingMode = .roundHalfAwayFromZero
  ) -> MediaTime {
    guard denominator != 0 else { return .invalid }
    var top = Int128(numerator)
    var bottom = Int128(denominator)
    if bottom < 0 {
      top = -top
      bottom = -bottom
    }
    switch kind {
    case .invalid, .indefinite:
      return self
    case .positiveInfinity, .negativeInfinity:
      if top == 0 { return .invalid }
      return (top > 0) == (kind == .positiveInfinity) ? .positiveInfinity : .negativeInfinity
    case .numeric:
      let (quotient, inexact) = rounding.divide(Int128(value) * top, by: bottom)
      return .saturating(value: quotient, timescale: timescale, rounded: hasBeenRounded || inexact)
    }
  }

  /// The same time in units of `1 / newTimescale` seconds, rounded with `rounding`.
  ///
  /// Sets `.hasBeenRounded` if rounding changed the value. A value beyond `Int64` in the
  /// new timescale saturates to an infinity. A timescale of zero or less gives `.invalid`;
  /// a non-numeric time is returned unchanged.
  public func convertScale(
    _ newTimescale: Int32, rounding: RoundingMode = .roundHalfAwayFromZero
  ) -> MediaTime {
    guard newTimescale > 0 else { return .invalid }
    guard kind == .numeric else { return self }
    if newTimescale == timescale { return self }
    let (quotient, inexact) = rounding.divide(
      Int128(value) * Int128(newTimescale), by: Int128(timescale))
    return .saturating(value: quotient, timescale: newTimescale, rounded: hasBeenRounded || inexact)
  }

  /// The magnitude of the time: numeric times lose their sign, `-inf` becomes `+inf`.
  ///
  /// `|Int64.min / t|` does not fit and saturates to `.positiveInfinity`. Indefinite and
  /// invalid times are returned unchanged.
  public var absoluteValue: MediaTime {
    switch kind {
    case .numeric: return value < 0 ? -self : self
    case .negativeInfinity: return .positiveInfinity
    case .positiveInfinity, .indefinite, .invalid: return self
    }
  }

  /// The magnitude of `time`; see `absoluteValue`.
  public static func abs(_ time: MediaTime) -> MediaTime { time.absoluteValue }

  /// The exact sum or difference of two times, with the rules documented on `+`.
  private static func combine(_ lhs: MediaTime, _ rhs: MediaTime, negatingRight: Bool)
    -> MediaTime
  {
    var rightKind = rhs.kind
    if negatingRight {
      if rightKind == .positiveInfinity {
        rightKind = .negativeInfinity
      } else if rightKind == .negativeInfinity {
        rightKind = .positiveInfinity
      }
    }
    switch (lhs.kind, rightKind) {
    case (.invalid, _), (_, .invalid):
      return .invalid
    case (.indefinite, _), (_, .indefinite):
      return .indefinite
    case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity):
      return .invalid
    case (.positiveInfinity, _), (_, .positiveInfinity):
      return .positiveInfinity
    case (.negativeInfinity, _), (_, .negativeInfinity):
      return .negativeInfinity
    case (.numeric, .numeric):
      break
    }
    let rounded = lhs.hasBeenRounded || rhs.hasBeenRounded
    let left = Int128(lhs.value)
    let right = negatingRight ? -Int128(rhs.value) : Int128(rhs.value)
    if lhs.timescale == rhs.timescale {
      return saturating(value: left + right, timescale: lhs.timescale, rounded: rounded)
    }
    let leftScale = Int128(lhs.timescale)
    let rightScale = Int128(rhs.timescale)
    let divisor = Int128(gcd(UInt64(lhs.timescale), UInt64(rhs.timescale)))
    let common = leftScale / divisor * rightScale
    if common <= Int128(Int32.max) {
      return saturating(
        value: left * (common / leftScale) + right * (common / rightScale),
        timescale: Int32(common), rounded: rounded)
    }
    // |numerator| < 2^95 and scale < 2^31, so the product below stays under 2^126.
    let scale = Swift.max(lhs.timescale, rhs.timescale)
    let numerator = (left * rightScale + right * leftScale) * Int128(scale)
    let (quotient, inexact) = RoundingMode.roundHalfAwayFromZero.divide(
      numerator, by: leftScale * rightScale)
    return saturating(value: quotient, timescale: scale, rounded: rounded || inexact)
  }
}
