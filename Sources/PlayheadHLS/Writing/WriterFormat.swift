import Foundation
import PlayheadCore

/// Text forms of the values the writer puts in tags.
enum WriterFormat {
  /// `time` as a decimal number of seconds with at most 9 fraction digits, trailing zeros
  /// removed (`2002/1000` is `2.002`, `6/1` is `6`). Exact for times the parser produced.
  static func decimal(_ time: MediaTime) -> String {
    guard time.isNumeric else { return "0" }
    let scale = Int128(time.timescale)
    let numerator = Int128(time.value) * 1_000_000_000
    let magnitude = (2 * (numerator < 0 ? -numerator : numerator) + scale) / (2 * scale)
    let whole = magnitude / 1_000_000_000
    var fraction = Int(magnitude % 1_000_000_000)
    var text = (time.value < 0 && magnitude != 0 ? "-" : "") + String(whole)
    guard fraction != 0 else { return text }
    var digits = 9
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let fractionText = String(fraction)
    text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    return text
  }

  /// `value` as a plain decimal (no exponent) that reads back as the same `Double`.
  static func decimal(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    var text = "\(value)"
    if let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      text = expand(
        mantissa: String(text[..<exponentIndex]),
        exponent: Int(text[text.index(after: exponentIndex)...]) ?? 0)
    }
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  /// `mantissa × 10^exponent` written out without an exponent.
  private static func expand(mantissa: String, exponent: Int) -> String {
    var sign = ""
    var body = Substring(mantissa)
    if body.hasPrefix("-") {
      sign = "-"
      body = body.dropFirst()
    }
    let point =
      body.firstIndex(of: ".").map { body.distance(from: body.startIndex, to: $0) } ?? body.count
    let digits = body.filter { $0 != "." }
    let newPoint = point + exponent
    if newPoint <= 0 {
      return sign + "0." + String(repeating: "0", count: -newPoint) + digits
    }
    if newPoint >= digits.count {
      return sign + digits + String(repeating: "0", count: newPoint - digits.count)
    }
    let index = digits.index(digits.startIndex, offsetBy: newPoint)
    return sign + digits[..<index] + "." + digits[index...]
  }

  /// `text` read as the parser reads a decimal-integer attribute.
  static func integer(_ text: String) -> Int? {
    ParserContext.withBytes(of: text) { $0.integer(ByteSpan(0, $0.bytes.count)) }
  }

  /// `text` read as the parser reads a decimal-floating-point attribute.
  static func double(_ text: String) -> Double? {
    ParserContext.withBytes(of: text) { $0.double(ByteSpan(0, $0.bytes.count)) }
  }

  /// `text` read as the parser reads a decimal-resolution attribute.
  static func resolution(_ text: String) -> Resolution? {
    ParserContext.withBytes(of: text) { $0.resolution(ByteSpan(0, $0.bytes.count)) }
  }

  /// `bytes` as `0x` and lowercase hex digits.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits: [Character] = Array("0123456789abcdef")
    var text = "0x"
    text.reserveCapacity(2 + bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return text
  }

  /// `range` as `length@offset` (nil when its length is unknown: HLS cannot say "to the end").
  static func byteRange(_ range: ByteRange?) -> String? {
    guard let range, let length = range.length else { return nil }
    return "\(length)@\(range.offset)"
  }

  /// `text` made safe for a quoted string: double quotes and line feeds cannot appear in
  /// one, so they are removed (a carriage return inside a line is ordinary text).
  static func quotable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\n" }) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\"" && $0 != "\n" }))
  }

  /// Whether `text` holds a double quote and can be written unquoted (no comma, no quote
  /// first, no blanks at either end), so that it reads back the same.
  static func isUnquotable(_ text: String) -> Bool {
    text.contains("\"") && !text.hasPrefix("\"") && !text.contains(",")
      && text.utf8.first.map { !ByteText.isBlank($0) } == true
      && text.utf8.last.map { !ByteText.isBlank($0) } == true
  }

  /// Whether `text` can be written unquoted: an enumerated string, a number or a
  /// hexadecimal sequence (letters, digits, `.`, `-`).
  static func isPlainToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "-"):
          return true
        default: return false
        }
      }
  }
}

/// Builds an attribute list, in the order the attributes are added.
struct AttributeWriter {
  private(set) var text = ""
  /// The source text of substituted values of the playlist being written.
  private let sources = SubstitutionSources.writing

  private mutating func separate() {
    if !text.isEmpty { text += "," }
  }

  /// `NAME="value"`, when `value` is not nil.
  ///
  /// A value holding a double quote was read unquoted (a quoted string cannot hold one), so
  /// it is written unquoted again when it can be (no comma, not starting with a quote).
  mutating func quoted(_ name: String, _ value: String?) {
    guard let value else { return }
    if WriterFormat.isUnquotable(value) {
      plain(name, value)
      return
    }
    separate()
    let written = sources.isEmpty ? value : sources.text(for: value)
    text += name + "=\"" + WriterFormat.quotable(written) + "\""
  }

  /// `NAME=value`, when `value` is not nil.
  mutating func plain(_ name: String, _ value: String?) {
    guard let value else { return }
    separate()
    text += name + "=" + value
  }

  /// `NAME=YES` when `flag` is set.
  mutating func yes(_ name: String, _ flag: Bool) {
    if flag { plain(name, "YES") }
  }

  /// `NAME=value` unquoted when the value is a plain token (or holds a double quote, which
  /// only an unquoted value can), else quoted.
  mutating func token(_ name: String, _ value: String?) {
    guard let value else { return }
    if WriterFormat.isPlainToken(value) || WriterFormat.isUnquotable(value) {
      plain(name, value)
    } else {
      quoted(name, value)
    }
  }

  /// An attribute modelled by a typed field: the raw text when it means the same as the
  /// typed value (so that `01` stays `01`), else the typed value's canonical text; the raw
  /// text alone when the typed value is nil (it could not be read).
  mutating func modelled(
    _ name: String, raw: [String: String], canonical: String?, quote: Bool,
    same: (String) -> Bool
  ) {
    var value = raw[name]
    if let canonical, value.map(same) != true { value = canonical }
    if quote { quoted(name, value) } else { token(name, value) }
  }

  /// The attributes of `raw` not in `written`, by name, quoted when `quotedNames` says so
  /// or the value is not a plain token.
  mutating func remaining(_ raw: [String: String], written: Set<String>, quotedNames: Set<String>) {
    for name in raw.keys.sorted() where !written.contains(name) {
      if quotedNames.contains(name) { quoted(name, raw[name]) } else { token(name, raw[name]) }
    }
  }
}
