/// A rational media time: `value / timescale` seconds, with flags for the non-numeric
/// times (invalid, indefinite, positive and negative infinity).
///
/// PROVISIONAL first cut; the complete arithmetic lands with its exhaustive tests.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Which kind of time a value is.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let valid = Flags(rawValue: 1 << 0)
    public static let hasBeenRounded = Flags(rawValue: 1 << 1)
    public static let positiveInfinity = Flags(rawValue: 1 << 2)
    public static let negativeInfinity = Flags(rawValue: 1 << 3)
    public static let indefinite = Flags(rawValue: 1 << 4)
  }

  /// How a conversion rounds a value that does not fit the target timescale exactly.
  public enum RoundingMode: Sendable {
    case roundHalfAwayFromZero
    case roundTowardZero
    case roundAwayFromZero
    case roundTowardPositiveInfinity
    case roundTowardNegativeInfinity
  }

  public var value: Int64
  public var timescale: Int32
  public var flags: Flags

  public init(value: Int64, timescale: Int32) {
    self.value = value
    self.timescale = timescale
    self.flags = timescale > 0 ? .valid : []
  }

  init(value: Int64, timescale: Int32, flags: Flags) {
    self.value = value
    self.timescale = timescale
    self.flags = flags
  }

  public init(seconds: Double, preferredTimescale: Int32) {
    self.init(value: Int64((seconds * Double(preferredTimescale)).rounded()), timescale: preferredTimescale)
  }

  public static let zero = MediaTime(value: 0, timescale: 1)
  public static let invalid = MediaTime(value: 0, timescale: 0, flags: [])
  public static let indefinite = MediaTime(value: 0, timescale: 0, flags: [.valid, .indefinite])
  public static let positiveInfinity = MediaTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity])
  public static let negativeInfinity = MediaTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity])

  public var isValid: Bool { flags.contains(.valid) }
  public var isNumeric: Bool { isValid && flags.isDisjoint(with: [.indefinite, .positiveInfinity, .negativeInfinity]) }
  public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
  public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
  public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }

  public var seconds: Double {
    if isPositiveInfinity { return .infinity }
    if isNegativeInfinity { return -.infinity }
    guard isNumeric else { return .nan }
    return Double(value) / Double(timescale)
  }

  public func convertScale(_ newTimescale: Int32, rounding: RoundingMode) -> MediaTime {
    guard isNumeric, newTimescale > 0 else { return self }
    let product = Double(value) * Double(newTimescale) / Double(timescale)
    let rounded: Double
    switch rounding {
    case .roundHalfAwayFromZero: rounded = product.rounded()
    case .roundTowardZero: rounded = product.rounded(.towardZero)
    case .roundAwayFromZero: rounded = product.rounded(.awayFromZero)
    case .roundTowardPositiveInfinity: rounded = product.rounded(.up)
    case .roundTowardNegativeInfinity: rounded = product.rounded(.down)
    }
    return MediaTime(value: Int64(rounded), timescale: newTimescale)
  }

  public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
    guard lhs.isNumeric, rhs.isNumeric else { return .invalid }
    if lhs.timescale == rhs.timescale { return MediaTime(value: lhs.value + rhs.value, timescale: lhs.timescale) }
    let scale = max(lhs.timescale, rhs.timescale)
    return MediaTime(
      value: lhs.convertScale(scale, rounding: .roundHalfAwayFromZero).value
        + rhs.convertScale(scale, rounding: .roundHalfAwayFromZero).value, timescale: scale)
  }

  public static prefix func - (time: MediaTime) -> MediaTime {
    guard time.isNumeric else { return time }
    return MediaTime(value: -time.value, timescale: time.timescale)
  }

  public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime { lhs + (-rhs) }

  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { lhs.seconds < rhs.seconds }

  public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
    if lhs.isNumeric && rhs.isNumeric {
      return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }
    return lhs.flags == rhs.flags
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(seconds) }

  public var description: String { isNumeric ? "\(value)/\(timescale)" : "\(flags)" }
}
