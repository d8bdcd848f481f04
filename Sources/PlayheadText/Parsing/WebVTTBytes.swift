import Foundation

/// A half-open range `[start, end)` of byte offsets into the file being parsed.
struct WebVTTSpan: Equatable {
  var start: Int
  var end: Int

  init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = end
  }

  var count: Int { end - start }
  var isEmpty: Bool { start >= end }
}

/// The file's bytes, with the scanning helpers the parser needs.
///
/// Valid only inside the `withUnsafeBytes` call that created it. Every helper is bounded by
/// the span it is given, so malformed text never reads out of bounds. Line breaks never
/// fall inside the spans the parser asks about, so carriage returns need no special care
/// here.
struct WebVTTBytes {
  let bytes: UnsafeBufferPointer<UInt8>

  subscript(_ offset: Int) -> UInt8 { bytes[offset] }

  /// The bytes of `span` decoded as UTF-8: invalid sequences become U+FFFD, and so do
  /// NUL characters (as the WebVTT parser requires).
  func string(_ span: WebVTTSpan) -> String {
    guard !span.isEmpty else { return "" }
    let buffer = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
    let text = String(decoding: buffer, as: UTF8.self)
    guard buffer.contains(0) else { return text }
    return String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
  }

  /// At most the first `excerptLength` characters of `span`, with `…` when cut: text from
  /// the file quoted in a warning, which must stay short whatever the input.
  func excerpt(_ span: WebVTTSpan) -> String {
    let head = WebVTTSpan(span.start, min(span.end, span.start + Self.excerptLength * 4))
    return Self.excerpt(string(head), cut: head.end < span.end)
  }

  static let excerptLength = 40

  /// At most the first `excerptLength` characters of `text`, with `…` when cut.
  static func excerpt(_ text: String, cut: Bool = false) -> String {
    guard cut || text.count > excerptLength else { return text }
    return String(text.prefix(excerptLength)) + "…"
  }

  /// The lines of `spans` decoded and joined with line feeds.
  func joined(_ spans: [WebVTTSpan]) -> String {
    spans.map(string).joined(separator: "\n")
  }

  /// Whether `span` holds exactly `literal`.
  func equals(_ span: WebVTTSpan, _ literal: StaticString) -> Bool {
    span.count == literal.utf8CodeUnitCount && hasPrefix(span, literal)
  }

  /// Whether `span` starts with `literal`.
  func hasPrefix(_ span: WebVTTSpan, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard span.count >= length else { return false }
    let pattern = literal.utf8Start
    for offset in 0..<length where bytes[span.start + offset] != pattern[offset] {
      return false
    }
    return true
  }

  /// Whether `span` is `keyword` followed by nothing but white space (`STYLE`, `REGION`),
  /// or, with `orText`, by white space and anything (`NOTE comment`).
  func isKeywordLine(_ span: WebVTTSpan, _ keyword: StaticString, orText: Bool = false) -> Bool {
    guard hasPrefix(span, keyword) else { return false }
    let rest = WebVTTSpan(span.start + keyword.utf8CodeUnitCount, span.end)
    if rest.isEmpty { return true }
    if orText { return Self.isSpace(bytes[rest.start]) }
    return trimmed(rest).isEmpty
  }

  /// Whether `span` contains `-->`.
  func containsArrow(_ span: WebVTTSpan) -> Bool {
    firstArrow(in: span) != nil
  }

  /// The offset of the first `-->` in `span`, or nil.
  func firstArrow(in span: WebVTTSpan) -> Int? {
    var index = span.start
    while index + 2 < span.end {
      if bytes[index + 2] == UInt8(ascii: ">") && bytes[index + 1] == UInt8(ascii: "-")
        && bytes[index] == UInt8(ascii: "-")
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The first offset in `span` holding `byte`, or nil.
  func firstIndex(of byte: UInt8, in span: WebVTTSpan) -> Int? {
    var index = span.start
    while index < span.end {
      if bytes[index] == byte { return index }
      index += 1
    }
    return nil
  }

  /// `span` without leading and trailing white space.
  func trimmed(_ span: WebVTTSpan) -> WebVTTSpan {
    var start = span.start
    var end = span.end
    while start < end && Self.isSpace(bytes[start]) { start += 1 }
    while end > start && Self.isSpace(bytes[end - 1]) { end -= 1 }
    return WebVTTSpan(start, end)
  }

  /// The white-space separated tokens of `span`.
  func tokens(_ span: WebVTTSpan) -> [WebVTTSpan] {
    var result: [WebVTTSpan] = []
    var index = span.start
    while index < span.end {
      while index < span.end && Self.isSpace(bytes[index]) { index += 1 }
      let start = index
      while index < span.end && !Self.isSpace(bytes[index]) { index += 1 }
      if index > start { result.append(WebVTTSpan(start, index)) }
    }
    return result
  }

  /// The digits at `offset` and after: their span and their value, or nil for the value
  /// when it does not fit `Int64`.
  func digits(at offset: Int, end: Int) -> (span: WebVTTSpan, value: Int64?) {
    var index = offset
    var value: Int64? = 0
    while index < end && Self.isDigit(bytes[index]) {
      if let current = value {
        let (times, overflowTimes) = current.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = times.addingReportingOverflow(Int64(bytes[index] - 0x30))
        value = overflowTimes || overflowSum ? nil : sum
      }
      index += 1
    }
    return (WebVTTSpan(offset, index), value)
  }

  /// ASCII white space as WebVTT counts it inside a line: space, tab, form feed.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0C
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
  }
}
