import PlayheadCore

/// The WebVTT-specific helpers over the shared `ByteText` scanner.
///
/// Line breaks never fall inside the spans the parser asks about, so carriage returns need
/// no special care here.
extension ByteText {
  /// The bytes of `span` decoded as UTF-8: invalid sequences become U+FFFD, and so do
  /// NUL characters (as the WebVTT parser requires).
  func webVTTString(_ span: ByteSpan) -> String {
    guard !span.isEmpty else { return "" }
    let buffer = buffer(span)
    let text = String(decoding: buffer, as: UTF8.self)
    guard buffer.contains(0) else { return text }
    return String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
  }

  /// At most the first `excerptLength` characters of `span`, with `…` when cut: text from
  /// the file quoted in a warning, which must stay short whatever the input.
  func excerpt(_ span: ByteSpan) -> String {
    let head = ByteSpan(span.start, min(span.end, span.start + Self.excerptLength * 4))
    return Self.excerpt(webVTTString(head), cut: head.end < span.end)
  }

  static let excerptLength = 40

  /// At most the first `excerptLength` characters of `text`, with `…` when cut.
  static func excerpt(_ text: String, cut: Bool = false) -> String {
    guard cut || text.count > excerptLength else { return text }
    return String(text.prefix(excerptLength)) + "…"
  }

  /// The lines of `spans` decoded and joined with line feeds.
  func joined(_ spans: [ByteSpan]) -> String {
    spans.map(webVTTString).joined(separator: "\n")
  }

  /// Whether `span` is `keyword` followed by nothing but white space (`STYLE`, `REGION`),
  /// or, with `orText`, by white space and anything (`NOTE comment`).
  func isKeywordLine(_ span: ByteSpan, _ keyword: StaticString, orText: Bool = false) -> Bool {
    guard hasPrefix(span, keyword) else { return false }
    let rest = ByteSpan(span.start + keyword.utf8CodeUnitCount, span.end)
    if rest.isEmpty { return true }
    if orText { return Self.isSpace(bytes[rest.start]) }
    return trimmed(rest).isEmpty
  }

  /// Whether `span` contains `-->`.
  func containsArrow(_ span: ByteSpan) -> Bool {
    firstArrow(in: span) != nil
  }

  /// The offset of the first `-->` in `span`, or nil.
  func firstArrow(in span: ByteSpan) -> Int? {
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

  /// `span` without leading and trailing white space.
  func trimmed(_ span: ByteSpan) -> ByteSpan {
    trimmed(span, where: Self.isSpace)
  }

  /// The white-space separated tokens of `span`.
  func tokens(_ span: ByteSpan) -> [ByteSpan] {
    var result: [ByteSpan] = []
    var index = span.start
    while index < span.end {
      while index < span.end && Self.isSpace(bytes[index]) { index += 1 }
      let start = index
      while index < span.end && !Self.isSpace(bytes[index]) { index += 1 }
      if index > start { result.append(ByteSpan(start, index)) }
    }
    return result
  }

  /// The digits at `offset` and after: their span and their value, or nil for the value
  /// when it does not fit `Int64`.
  func digits(at offset: Int, end: Int) -> (span: ByteSpan, value: Int64?) {
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
    return (ByteSpan(offset, index), value)
  }

  /// ASCII white space as WebVTT counts it inside a line: space, tab, form feed.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0C
  }
}
