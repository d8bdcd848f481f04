import Foundation

/// Parsers for the streaming and request options; each names the option in its error.
extension ArgumentValue {
  /// A bit rate in bits per second: `600000`, `600k` or `1.5M` (decimal multipliers),
  /// from 1 bit/s to 100 Gbit/s.
  static func bitRate(_ text: String, option: String) throws(UsageError) -> Int {
    var digits = Substring(text)
    var multiplier = 1.0
    switch digits.last {
    case "k", "K":
      multiplier = 1_000
      digits = digits.dropLast()
    case "m", "M":
      multiplier = 1_000_000
      digits = digits.dropLast()
    default:
      break
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let number = Double(digits), number.isFinite
    else { throw badBitRate(text, option: option) }
    let bitsPerSecond = (number * multiplier).rounded()
    guard bitsPerSecond >= 1, bitsPerSecond <= 100_000_000_000 else {
      throw badBitRate(text, option: option)
    }
    return Int(bitsPerSecond)
  }

  /// A pixel count: a whole number (`921600`) or a size `WxH` (`1280x720`), at least 1.
  static func pixelCount(_ text: String, option: String) throws(UsageError) -> Int {
    let message = "option '\(option)' needs a pixel count (921600) or a size WxH (1280x720), "
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    var factors: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part),
        (1...1_000_000_000).contains(value)
      else { throw UsageError(message + "not '\(text)'") }
      factors.append(value)
    }
    guard (1...2).contains(factors.count) else { throw UsageError(message + "not '\(text)'") }
    // Each factor is at most 10^9 and there are at most two, so the product fits.
    let count = factors.reduce(1, *)
    guard count <= 1_000_000_000_000 else {
      throw UsageError(message + "not '\(text)'")
    }
    return count
  }

  /// A whole number from `range`, written in plain digits.
  static func integer(
    _ text: String, option: String, in range: ClosedRange<Int>
  ) throws(UsageError) -> Int {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text),
      range.contains(value)
    else {
      throw UsageError(
        "option '\(option)' needs a whole number from \(range.lowerBound) to "
          + "\(range.upperBound), not '\(text)'")
    }
    return value
  }

  /// An HTTP header written `Name: value`; the name is an HTTP token, the value has no line
  /// breaks and loses the spaces around it.
  static func header(_ text: String, option: String) throws(UsageError) -> (String, String) {
    guard let colon = text.firstIndex(of: ":") else {
      throw UsageError("option '\(option)' needs 'Name: value', not '\(text)'")
    }
    let name = String(text[..<colon])
    let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    let tokenPunctuation = "!#$%&'*+-.^_`|~"
    guard !name.isEmpty,
      name.unicodeScalars.allSatisfy({ scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar)
            || tokenPunctuation.unicodeScalars.contains(scalar))
      })
    else {
      throw UsageError("option '\(option)' has a bad header name in '\(text)'")
    }
    guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else {
      throw UsageError("option '\(option)' has a control character in its value")
    }
    return (name, value)
  }

  /// A non-empty text without line breaks or other control characters.
  static func singleLine(_ text: String, option: String) throws(UsageError) -> String {
    guard !text.isEmpty else { throw UsageError("option '\(option)' needs a non-empty value") }
    guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw UsageError("option '\(option)' has a control character in its value")
    }
    return text
  }

  private static func badBitRate(_ text: String, option: String) -> UsageError {
    UsageError(
      "option '\(option)' needs a bit rate in bits/s greater than 0 (600000, 600k, 1.5M), "
        + "not '\(text)'")
  }
}
