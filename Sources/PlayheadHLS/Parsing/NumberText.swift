import Foundation
import PlayheadCore

/// Parsers for the number formats of attribute lists and tag values, on bytes.
///
/// Every parser returns nil for malformed text and for values that do not fit, so that
/// untrusted input never traps.
extension ByteText {
  /// A `decimal-integer`: one or more digits, at most `Int.max`.
  func integer(_ span: ByteSpan) -> Int? {
    guard !span.isEmpty, span.count <= 19 else { return nil }
    var value = 0
    for index in span.start..<span.end {
      let byte = bytes[index]
      guard ByteText.isDigit(byte) else { return nil }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.addingReportingOverflow(Int(byte - 0x30))
      if overflow1 || overflow2 { return nil }
      value = sum
    }
    return value
  }

  /// A `decimal-floating-point` (or a `signed-decimal-floating-point` when
  /// `allowSign`) as an exact time: `2.002` is 2002/1000.
  ///
  /// Up to 9 fraction digits are kept; more are rounded half away from zero. A value
  /// whose numerator does not fit `Int64` gives nil.
  func decimalTime(_ span: ByteSpan, allowSign: Bool = false) -> MediaTime? {
    if let time = shortDecimalTime(span) { return time }
    var index = span.start
    var negative = false
    if allowSign && index < span.end && bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var whole: Int64 = 0
    var wholeDigits = 0
    while index < span.end && ByteText.isDigit(bytes[index]) {
      let (shifted, overflow1) = whole.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.addingReportingOverflow(Int64(bytes[index] - 0x30))
      if overflow1 || overflow2 { return nil }
      whole = sum
      wholeDigits += 1
      index += 1
    }
    var fraction: Int64 = 0
    var fractionDigits = 0
    var roundUp = false
    if index < span.end && bytes[index] == UInt8(ascii: ".") {
      index += 1
      var seen = 0
      while index < span.end && ByteText.isDigit(bytes[index]) {
        let digit = Int64(bytes[index] - 0x30)
        if fractionDigits < 9 {
          fraction = fraction * 10 + digit
          fractionDigits += 1
        } else if seen == 9 {
          roundUp = digit >= 5
        }
        seen += 1
        index += 1
      }
      if seen == 0 && wholeDigits == 0 { return nil }
    }
    guard index == span.end, wholeDigits + fractionDigits > 0 else { return nil }
    var scale: Int64 = 1
    for _ in 0..<fractionDigits { scale *= 10 }
    let (scaled, overflow1) = whole.multipliedReportingOverflow(by: scale)
    let (sum, overflow2) = scaled.addingReportingOverflow(fraction + (roundUp ? 1 : 0))
    if overflow1 || overflow2 { return nil }
    return MediaTime(value: negative ? -sum : sum, timescale: Int32(scale))
  }

  /// `decimalTime` of the common case, in one pass: no sign, at most 18 bytes and 9
  /// fraction digits, so that all the digits together fit `Int64` without checks. Nil
  /// when `span` is not such a number (the general parser then decides).
  private func shortDecimalTime(_ span: ByteSpan) -> MediaTime? {
    guard !span.isEmpty, span.count <= 18 else { return nil }
    var value: Int64 = 0
    var digits = 0
    var scale: Int64 = 1
    var inFraction = false
    for index in span.start..<span.end {
      let digit = bytes[index] &- 0x30
      if digit <= 9 {
        value = value &* 10 &+ Int64(digit)
        digits += 1
        if inFraction { scale &*= 10 }
      } else if bytes[index] == UInt8(ascii: ".") && !inFraction {
        inFraction = true
      } else {
        return nil
      }
    }
    guard digits > 0, scale <= 1_000_000_000 else { return nil }
    return MediaTime(value: value, timescale: Int32(scale))
  }

  /// A `decimal-floating-point` (signed when `allowSign`) as a `Double`.
  func double(_ span: ByteSpan, allowSign: Bool = false) -> Double? {
    guard !span.isEmpty, span.count <= 64 else { return nil }
    var digits = 0
    var dots = 0
    for index in span.start..<span.end {
      let byte = bytes[index]
      if ByteText.isDigit(byte) {
        digits += 1
      } else if byte == UInt8(ascii: ".") {
        dots += 1
      } else if !(allowSign && byte == UInt8(ascii: "-") && index == span.start) {
        return nil
      }
    }
    guard digits > 0, dots <= 1, let value = Double(string(span)), value.isFinite else {
      return nil
    }
    return value
  }

  /// A `hexadecimal-sequence` (`0x` or `0X` and hex digits) as bytes, left-padded with
  /// zeros to `width` bytes; nil when malformed or longer than `width` bytes.
  func hexBytes(_ span: ByteSpan, width: Int) -> [UInt8]? {
    guard span.count > 2, bytes[span.start] == UInt8(ascii: "0"),
      bytes[span.start + 1] | 0x20 == UInt8(ascii: "x")
    else { return nil }
    let digits = ByteSpan(span.start + 2, span.end)
    guard digits.count <= width * 2 else { return nil }
    var result = [UInt8](repeating: 0, count: width)
    var outIndex = width - 1
    var low = true
    var index = digits.end - 1
    while index >= digits.start {
      guard let nibble = Self.hexValue(bytes[index]) else { return nil }
      if low {
        result[outIndex] = nibble
      } else {
        result[outIndex] |= nibble << 4
        outIndex -= 1
      }
      low.toggle()
      index -= 1
    }
    return result
  }

  /// Whether `span` is a well-formed `hexadecimal-sequence` of any length.
  func isHexSequence(_ span: ByteSpan) -> Bool {
    guard span.count > 2, bytes[span.start] == UInt8(ascii: "0"),
      bytes[span.start + 1] | 0x20 == UInt8(ascii: "x")
    else { return false }
    for index in (span.start + 2)..<span.end where Self.hexValue(bytes[index]) == nil {
      return false
    }
    return true
  }

  /// The value of a hexadecimal digit (`0`–`9`, `A`–`F`, `a`–`f`), or nil.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }

  /// A `decimal-resolution`: `WxH` (`x` or `X`).
  func resolution(_ span: ByteSpan) -> Resolution? {
    var separator: Int?
    for index in span.start..<span.end where bytes[index] | 0x20 == UInt8(ascii: "x") {
      separator = index
      break
    }
    guard let separator,
      let width = integer(ByteSpan(span.start, separator)),
      let height = integer(ByteSpan(separator + 1, span.end))
    else { return nil }
    return Resolution(width: width, height: height)
  }

  /// A byte range `n[@o]`: the length and the offset when written.
  func byteRange(_ span: ByteSpan) -> (length: Int64, offset: Int64?)? {
    let at = firstIndex(of: UInt8(ascii: "@"), in: span)
    guard let length = integer(ByteSpan(span.start, at ?? span.end)) else { return nil }
    guard let at else { return (Int64(length), nil) }
    guard let offset = integer(ByteSpan(at + 1, span.end)) else { return nil }
    let (_, overflow) = offset.addingReportingOverflow(length)
    if overflow { return nil }
    return (Int64(length), Int64(offset))
  }
}
