import Foundation

/// The one-line text form of a log entry that Playhead's text handlers write:
/// `2024-05-01T10:20:30.123Z debug playhead.player: ABR decision level=2 reason=buffer`.
///
/// Fields: the wall-clock time in UTC to the millisecond, the level, the logger's label and
/// a colon, the message, then the metadata as `key=value`, sorted by key. A value that is
/// empty or holds a space, quote, `=` or control character is written in double quotes
/// with `\"`, `\\`, `\n`, `\r` and `\t` escapes; line breaks in the message are escaped the
/// same way, so an entry is always one line.
public enum LogLine {
  /// The line for one entry, without a line break at the end.
  public static func format(
    time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
  ) -> String {
    var line = timestamp(time)
    line += " "
    line += level.rawValue
    line += " "
    line += label
    line += ": "
    line += escapingLineBreaks(message)
    for key in metadata.keys.sorted() {
      guard let value = metadata[key] else { continue }
      line += " "
      line += key
      line += "="
      line += quotedIfNeeded(value.description)
    }
    return line
  }

  /// `time` as `YYYY-MM-DDThh:mm:ss.mmmZ` (UTC, milliseconds rounded down).
  public static func timestamp(_ time: Date) -> String {
    time.formatted(timestampStyle)
  }

  private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  /// `text` as it is when it can stand bare after `key=`, else quoted and escaped.
  static func quotedIfNeeded(_ text: String) -> String {
    let bare =
      !text.isEmpty
      && !text.unicodeScalars.contains { scalar in
        scalar == " " || scalar == "\"" || scalar == "=" || scalar.value < 0x20
          || scalar.value == 0x7F || scalar.properties.isWhitespace
      }
    return bare ? text : "\"" + escaped(text, quote: true) + "\""
  }

  /// `text` with its line breaks (and tabs) written as escapes.
  static func escapingLineBreaks(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return text }
    return escaped(text, quote: false)
  }

  private static func escaped(_ text: String, quote: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where quote: result += "\\\""
      case "\\" where quote: result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
