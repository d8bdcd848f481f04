import PlayheadCore

/// Reads the numbers of cue and region settings: percentages and line numbers.
///
/// Numbers longer than `maxNumberLength` characters are refused, which keeps the
/// decimal conversion cheap whatever the input, and so are line numbers of
/// `lineNumberLimit` or more, so that the writer's plain decimals always read back.
enum WebVTTNumberParser {
  /// The longest number text accepted, in bytes (the `%` excluded).
  static let maxNumberLength = 64
  /// Line numbers must be smaller than this in magnitude (10^60): written as a plain
  /// decimal, such a number never needs more than `maxNumberLength` characters.
  static let lineNumberLimit = 1e60

  /// A WebVTT percentage (`[0-9]+(.[0-9]+)?%`, from 0 to 100), or nil.
  static func percentage(in text: ByteText, _ span: ByteSpan) -> Double? {
    guard span.count >= 2, text[span.end - 1] == UInt8(ascii: "%") else { return nil }
    let number = ByteSpan(span.start, span.end - 1)
    guard isDecimal(text, number, allowingSign: false),
      let value = double(text, number), value >= 0, value <= 100
    else { return nil }
    return value
  }

  /// A line number (`-?[0-9]+(.[0-9]+)?`, less than 10^60 in magnitude), or nil.
  static func lineNumber(in text: ByteText, _ span: ByteSpan) -> Double? {
    guard isDecimal(text, span, allowingSign: true), let value = double(text, span),
      value.magnitude < lineNumberLimit
    else { return nil }
    return value == 0 ? 0 : value
  }

  /// A non-negative integer made only of digits, or nil (also when it does not fit `Int`).
  static func integer(in text: ByteText, _ span: ByteSpan) -> Int? {
    guard !span.isEmpty else { return nil }
    let digits = text.digits(at: span.start, end: span.end)
    guard digits.span.end == span.end, let value = digits.value else { return nil }
    return Int(exactly: value)
  }

  /// Whether `span` is digits, optionally with a fraction after `.`, optionally signed.
  private static func isDecimal(_ text: ByteText, _ span: ByteSpan, allowingSign: Bool)
    -> Bool
  {
    guard span.count <= maxNumberLength else { return false }
    var start = span.start
    if allowingSign && start < span.end && text[start] == UInt8(ascii: "-") { start += 1 }
    let whole = text.digits(at: start, end: span.end).span
    guard !whole.isEmpty else { return false }
    if whole.end == span.end { return true }
    guard text[whole.end] == UInt8(ascii: ".") else { return false }
    let fraction = text.digits(at: whole.end + 1, end: span.end).span
    return !fraction.isEmpty && fraction.end == span.end
  }

  private static func double(_ text: ByteText, _ span: ByteSpan) -> Double? {
    Double(text.webVTTString(span))
  }
}
