/// Why and where `JSONParser` stopped; `JSONReader` turns it into a `PlayheadError`.
struct JSONParseFailure: Error {
  /// What is wrong, as the start of a sentence without its position.
  var problem: String
  /// The byte offset the problem is at; nil when it has no place (an empty text).
  var offset: Int?

  init(_ problem: String, at offset: Int?) {
    self.problem = problem
    self.offset = offset
  }

  /// The error, with the offset given as a line and column of `bytes` too.
  ///
  /// Lines are counted by line feeds, columns by characters (UTF-8 sequences), from 1.
  func playheadError(in bytes: UnsafeBufferPointer<UInt8>) -> PlayheadError {
    guard let offset else { return PlayheadError(.malformedJSON, problem) }
    var line = 1
    var column = 1
    for position in 0..<min(offset, bytes.count) {
      let byte = bytes[position]
      if byte == ASCII.lineFeed {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return PlayheadError(
      .malformedJSON, "\(problem) at line \(line), column \(column) (byte offset \(offset))")
  }

  /// `key` in double quotes for a message: at most 40 characters, control characters and
  /// quotes escaped, so the message stays one line.
  static func quoted(_ key: String) -> String {
    var shown = ""
    for (count, scalar) in key.unicodeScalars.enumerated() {
      if count == 40 {
        shown += "…"
        break
      }
      switch scalar {
      case "\"": shown += "\\\""
      case "\\": shown += "\\\\"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar == "\u{2028}" || scalar == "\u{2029}":
        shown += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
      default: shown.unicodeScalars.append(scalar)
      }
    }
    return "\"\(shown)\""
  }
}
