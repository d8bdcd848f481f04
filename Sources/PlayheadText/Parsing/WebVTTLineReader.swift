import PlayheadCore

/// Splits the file into lines (LF, CR or CRLF), counting them and enforcing the line
/// length limit.
///
/// Its state can be saved and restored, which the WebVTT block rules need: a line that
/// contains `-->` ends the block before it and is read again as the start of the next.
struct WebVTTLineReader {
  /// A place in the file: the offset of the next line and the number of lines before it.
  struct Mark {
    fileprivate(set) var position: Int
    fileprivate(set) var lineNumber: Int
  }

  /// One line: its bytes without the line break, its 1-based number, and whether it ends
  /// the file (no line break after it).
  struct Line {
    let span: ByteSpan
    let number: Int
    let endsFile: Bool
  }

  let text: ByteText
  let maxLineLength: Int
  var mark: Mark

  init(text: ByteText, start: Int, maxLineLength: Int) {
    self.text = text
    self.maxLineLength = maxLineLength
    self.mark = Mark(position: start, lineNumber: 0)
  }

  /// Whether every byte has been read.
  var isAtEnd: Bool { mark.position >= text.bytes.count }

  /// The next line, possibly empty; at the end of the file, an empty line that ends it.
  ///
  /// Throws `.limitExceeded` for a line longer than `maxLineLength`.
  mutating func next() throws(WebVTTError) -> Line {
    let count = text.bytes.count
    let start = mark.position
    var end = start
    while end < count && text[end] != 0x0A && text[end] != 0x0D { end += 1 }
    mark.lineNumber += 1
    guard end - start <= maxLineLength else {
      throw WebVTTError(
        .limitExceeded, line: mark.lineNumber,
        "line is \(end - start) bytes long, more than the limit of \(maxLineLength)")
    }
    if end >= count {
      mark.position = count
      return Line(span: ByteSpan(start, end), number: mark.lineNumber, endsFile: true)
    }
    mark.position = end + 1
    if text[end] == 0x0D && end + 1 < count && text[end + 1] == 0x0A { mark.position += 1 }
    return Line(span: ByteSpan(start, end), number: mark.lineNumber, endsFile: false)
  }

  /// Skips blank lines made only of line breaks (not of spaces), counting them.
  mutating func skipLineBreaks() {
    let count = text.bytes.count
    while mark.position < count {
      let byte = text[mark.position]
      if byte == 0x0A {
        mark.position += 1
      } else if byte == 0x0D {
        mark.position += 1
        if mark.position < count && text[mark.position] == 0x0A { mark.position += 1 }
      } else {
        return
      }
      mark.lineNumber += 1
    }
  }
}
