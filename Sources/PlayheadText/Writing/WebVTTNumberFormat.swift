/// Writes numbers and times as WebVTT text.
enum WebVTTNumberFormat {
  /// `value` as a plain decimal (`50`, `33.5`, `-2`, never an exponent) that reads back as
  /// the same `Double`: the shortest digits that round-trip, with the point placed.
  static func decimal(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if value == 0 { return "0" }
    let shortest = "\(value.magnitude)"
    var digits: String
    var exponent: Int
    if let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      let mantissa = shortest[..<e]
      exponent = Int(shortest[shortest.index(after: e)...]) ?? 0
      let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
      digits = String(parts[0])
      if parts.count > 1 {
        digits += parts[1]
        exponent -= parts[1].count
      }
    } else {
      let parts = shortest.split(separator: ".", omittingEmptySubsequences: false)
      digits = String(parts[0])
      exponent = 0
      if parts.count > 1 {
        digits += parts[1]
        exponent = -parts[1].count
      }
    }
    // value = digits × 10^exponent, with `digits` an integer text.
    while digits.count > 1 && digits.hasPrefix("0") { digits.removeFirst() }
    while exponent < 0 && digits.count > 1 && digits.hasSuffix("0") {
      digits.removeLast()
      exponent += 1
    }
    var text: String
    if exponent >= 0 {
      text = digits + String(repeating: "0", count: exponent)
    } else {
      let fractionCount = -exponent
      if digits.count > fractionCount {
        let split = digits.index(digits.endIndex, offsetBy: -fractionCount)
        text = digits[..<split] + "." + digits[split...]
      } else {
        text = "0." + String(repeating: "0", count: fractionCount - digits.count) + digits
      }
    }
    return value < 0 ? "-" + text : text
  }

  /// A percentage: `decimal(value) + "%"`.
  static func percentage(_ value: Double) -> String {
    decimal(value) + "%"
  }

  /// A WebVTT timestamp `hh:mm:ss.ttt` (hours with at least two digits) for `milliseconds`.
  static func timestamp(milliseconds: Int64) -> String {
    let clamped = max(milliseconds, 0)
    let hours = clamped / 3_600_000
    let minutes = clamped / 60_000 % 60
    let seconds = clamped / 1000 % 60
    let millis = clamped % 1000
    return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(millis, 3)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}
