/// A rational media time: `value / timescale` seconds, plus flags for the four times that
/// are not numbers (invalid, indefinite, positive infinity and negative infinity).
///
/// All arithmetic, comparison and rescaling is exact integer arithmetic on 128-bit
/// intermediates; floating point appears only at the `seconds` boundary. When a result
/// must be rounded (a timescale that cannot hold it exactly) the rounding rule is stated by
/// the operation and the result carries `.hasBeenRounded`. A value that overflows `Int64`
/// saturates to `.positiveInfinity` or `.negativeInfinity`; no operation traps.
///
/// A time is numeric when its flags contain `.valid`, none of the special flags, and its
/// timescale is positive. Fields of a non-numeric time other than `flags` carry no meaning.
///
/// ```swift
/// let t = MediaTime(value: 1, timescale: 2) + MediaTime(value: 1, timescale: 3)
/// // t == 5/6 s, timescale 6
/// ```
public struct MediaTime: Sendable {
  /// Which kind of time a value is, and whether it has been rounded.
  ///
  /// A time whose flags lack `.valid` is invalid whatever else is set. Among the special
  /// flags, `.indefinite` wins over the infinities; a time with both infinity flags is
  /// treated as invalid.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The time is valid: numeric, infinite or indefinite.
    public static let valid = Flags(rawValue: 1 << 0)
    /// An operation that produced this time (or one of its inputs) had to round.
    public static let hasBeenRounded = Flags(rawValue: 1 << 1)
    /// The time is positive infinity.
    public static let positiveInfinity = Flags(rawValue: 1 << 2)
    /// The time is negative infinity.
    public static let negativeInfinity = Flags(rawValue: 1 << 3)
    /// The time is unknown (for example, the duration of a live stream).
    public static let indefinite = Flags(rawValue: 1 << 4)
  }

  /// How a conversion rounds a value that does not fit the target timescale exactly.
  ///
  /// Each mode is defined on the exact rational result, for negative values too:
  /// `-3/2` becomes `-2` (half away from zero), `-1` (toward zero), `-2` (away from zero),
  /// `-1` (toward positive infinity) and `-2` (toward negative infinity).
  public enum RoundingMode: Sendable, CaseIterable {
    /// Nearest integer; an exact half goes away from zero (`2.5 → 3`, `-2.5 → -3`).
    case roundHalfAwayFromZero
    /// Truncates (`2.7 → 2`, `-2.7 → -2`).
    case roundTowardZero
    /// Any fraction moves away from zero (`2.1 → 3`, `-2.1 → -3`).
    case roundAwayFromZero
    /// Ceiling (`2.1 → 3`, `-2.7 → -2`).
    case roundTowardPositiveInfinity
    /// Floor (`2.7 → 2`, `-2.1 → -3`).
    case roundTowardNegativeInfinity
  }

  /// The numerator; meaningful only when the time is numeric.
  public var value: Int64
  /// The denominator, in units per second; meaningful only when the time is numeric.
  public var timescale: Int32
  /// The kind of time and whether it has been rounded.
  public var flags: Flags

  /// Creates the time `value / timescale` seconds.
  ///
  /// A timescale of zero or less gives an invalid time (the fields are kept as given).
  public init(value: Int64, timescale: Int32) {
    self.value = value
    self.timescale = timescale
    self.flags = timescale > 0 ? .valid : []
  }

  /// Creates a time from raw fields, exactly as given.
  init(value: Int64, timescale: Int32, flags: Flags) {
    self.value = value
    self.timescale = timescale
    self.flags = flags
  }

  /// Zero seconds, with timescale 1.
  public static let zero = MediaTime(value: 0, timescale: 1)
  /// A time that is not a time; the result of any operation on invalid input.
  public static let invalid = MediaTime(value: 0, timescale: 0, flags: [])
  /// An unknown time, such as the duration of a live stream.
  public static let indefinite = MediaTime(value: 0, timescale: 0, flags: [.valid, .indefinite])
  /// Later than every numeric time.
  public static let positiveInfinity = MediaTime(
    value: 0, timescale: 0, flags: [.valid, .positiveInfinity])
  /// Earlier than every numeric time.
  public static let negativeInfinity = MediaTime(
    value: 0, timescale: 0, flags: [.valid, .negativeInfinity])

  /// The five kinds of time, in `CMTimeCompare` order.
  enum Kind: Int, Comparable {
    case negativeInfinity = 0
    case numeric = 1
    case positiveInfinity = 2
    case indefinite = 3
    case invalid = 4

    static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The kind of this time, derived from its flags and timescale.
  var kind: Kind {
    guard flags.contains(.valid) else { return .invalid }
    if flags.contains(.indefinite) { return .indefinite }
    let positive = flags.contains(.positiveInfinity)
    let negative = flags.contains(.negativeInfinity)
    if positive && negative { return .invalid }
    if positive { return .positiveInfinity }
    if negative { return .negativeInfinity }
    return timescale > 0 ? .numeric : .invalid
  }

  /// Whether the time is numeric, infinite or indefinite (anything but invalid).
  public var isValid: Bool { kind != .invalid }
  /// Whether the time is a finite number of seconds.
  public var isNumeric: Bool { kind == .numeric }
  /// Whether the time is indefinite.
  public var isIndefinite: Bool { kind == .indefinite }
  /// Whether the time is positive infinity.
  public var isPositiveInfinity: Bool { kind == .positiveInfinity }
  /// Whether the time is negative infinity.
  public var isNegativeInfinity: Bool { kind == .negativeInfinity }
  /// Whether the flags say that rounding happened on the way to this time.
  public var hasBeenRounded: Bool { flags.contains(.hasBeenRounded) }
}
