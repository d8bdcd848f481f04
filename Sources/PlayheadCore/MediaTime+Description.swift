extension MediaTime: CustomStringConvertible, CustomDebugStringConvertible {
  /// `"value/timescale = S.mmms"` for numeric times, with the seconds rounded half away from
  /// zero to milliseconds and `" (rounded)"` appended when `.hasBeenRounded` is set;
  /// `"+infinity"`, `"-infinity"`, `"indefinite"` or `"invalid"` otherwise.
  ///
  /// Example: `MediaTime(value: 1, timescale: 2).description == "1/2 = 0.500s"`.
  public var description: String {
    switch kind {
    case .positiveInfinity: return "+infinity"
    case .negativeInfinity: return "-infinity"
    case .indefinite: return "indefinite"
    case .invalid: return "invalid"
    case .numeric: break
    }
    let suffix = hasBeenRounded ? " (rounded)" : ""
    return "\(value)/\(timescale) = \(secondsText)\(suffix)"
  }

  /// `"S.mmms"`: the seconds rounded half away from zero to milliseconds, or the
  /// `description` of a non-numeric time.
  var secondsText: String {
    guard isNumeric else { return description }
    let (millis, _) = RoundingMode.roundHalfAwayFromZero.divide(
      Int128(value) * 1_000, by: Int128(timescale))
    let magnitude = millis < 0 ? -millis : millis
    let fraction = String(magnitude % 1_000)
    let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
    let sign = millis < 0 ? "-" : ""
    return "\(sign)\(magnitude / 1_000).\(padded)s"
  }

  /// The raw fields: `"MediaTime(value: 1, timescale: 2, flags: [valid])"`.
  public var debugDescription: String {
    let names: [(Flags, String)] = [
      (.valid, "valid"), (.hasBeenRounded, "hasBeenRounded"),
      (.positiveInfinity, "positiveInfinity"), (.negativeInfinity, "negativeInfinity"),
      (.indefinite, "indefinite"),
    ]
    var parts = names.filter { flags.contains($0.0) }.map(\.1)
    let known = names.reduce(Flags()) { $0.union($1.0) }
    let unknown = flags.subtracting(known).rawValue
    if unknown != 0 { parts.append("0x" + String(unknown, radix: 16)) }
    return "MediaTime(value: \(value), timescale: \(timescale), "
      + "flags: [\(parts.joined(separator: ", "))])"
  }
}
