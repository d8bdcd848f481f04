import PlayheadCore

/// Splits the playlist into lines (LF or CRLF), counting them and enforcing the line
/// length limit.
struct LineReader {
  let text: ByteText
  let maxLineLength: Int
  private(set) var position: Int
  private(set) var lineNumber = 0

  init(text: ByteText, start: Int, maxLineLength: Int) {
    self.text = text
    self.position = start
    self.maxLineLength = maxLineLength
  }

  /// The next line without its line break, or nil at the end.
  ///
  /// Throws `.limitExceeded` for a line longer than `maxLineLength`.
  mutating func next() throws(PlaylistParseError) -> ByteSpan? {
    let count = text.bytes.count
    guard position < count else { return nil }
    lineNumber += 1
    let newline = text.firstIndex(of: 0x0A, in: ByteSpan(position, count)) ?? count
    var end = newline
    if end > position && text.bytes[end - 1] == 0x0D { end -= 1 }
    guard end - position <= maxLineLength else {
      throw PlaylistParseError(
        .limitExceeded, line: lineNumber,
        "line is \(end - position) bytes long, more than the limit of \(maxLineLength)")
    }
    let line = ByteSpan(position, end)
    position = newline + 1
    return line
  }
}

/// A line classified: blank or comment, a tag with its value, or a URI.
enum PlaylistLine {
  case ignorable
  /// A tag: its name (with `#`), its value after `:` (empty when none), the whole line.
  case tag(name: ByteSpan, value: ByteSpan, line: ByteSpan)
  case uri(ByteSpan)

  init(_ raw: ByteSpan, in text: ByteText) {
    let span = text.trimmed(raw)
    guard !span.isEmpty else {
      self = .ignorable
      return
    }
    guard text.bytes[span.start] == UInt8(ascii: "#") else {
      self = .uri(span)
      return
    }
    let bytes = text.bytes
    guard span.count >= 4, bytes[span.start + 1] == UInt8(ascii: "E"),
      bytes[span.start + 2] == UInt8(ascii: "X"), bytes[span.start + 3] == UInt8(ascii: "T")
    else {
      self = .ignorable
      return
    }
    // Tag names are short: a plain loop finds the colon sooner than a library call.
    var colon = span.start + 4
    while colon < span.end && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
    let name = ByteSpan(span.start, colon)
    let value = ByteSpan(min(colon + 1, span.end), span.end)
    self = .tag(name: name, value: value, line: span)
  }
}
