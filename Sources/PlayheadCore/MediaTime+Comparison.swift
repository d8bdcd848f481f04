extension MediaTime: Equatable, Comparable, Hashable {
  /// Whether two times are the same instant, comparing numeric times by rational value.
  ///
  /// `1/2 == 2/4`. The `.hasBeenRounded` flag is ignored. Every invalid time equals every
  /// other invalid time, and likewise for indefinite and each infinity, whatever their
  /// other fields hold.
  public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
    let kind = lhs.kind
    guard kind == rhs.kind else { return false }
    guard kind == .numeric else { return true }
    return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Orders times as `CMTimeCompare` does.
  ///
  /// `-inf` < every numeric time < `+inf` < indefinite < invalid; numeric times compare by
  /// exact rational value.
  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
    let leftKind = lhs.kind
    let rightKind = rhs.kind
    guard leftKind == rightKind else { return leftKind < rightKind }
    guard leftKind == .numeric else { return false }
    return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
  }

  /// Hashes the kind and, for numeric times, the fraction in lowest terms, so that equal
  /// times hash equally.
  public func hash(into hasher: inout Hasher) {
    let kind = kind
    hasher.combine(kind.rawValue)
    guard kind == .numeric else { return }
    let reduced = reducedFraction
    hasher.combine(reduced.value)
    hasher.combine(reduced.timescale)
  }

  /// The numeric value as a fraction in lowest terms (zero is `0/1`).
  var reducedFraction: (value: Int64, timescale: Int32) {
    let divisor = MediaTime.gcd(value.magnitude, UInt64(timescale))
    return (value / Int64(divisor), timescale / Int32(divisor))
  }

  /// The earlier of two times, or `.invalid` if either is invalid.
  ///
  /// Unlike `Swift.min`, an invalid operand is never hidden by the other one.
  public static func minimum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
    if a.kind == .invalid || b.kind == .invalid { return .invalid }
    return b < a ? b : a
  }

  /// The later of two times, or `.invalid` if either is invalid.
  ///
  /// Indefinite is later than `+inf`, as in the ordering of `<`.
  public static func maximum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
    if a.kind == .invalid || b.kind == .invalid { return .invalid }
    return a < b ? b : a
  }
}
