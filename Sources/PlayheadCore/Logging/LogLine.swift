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
    let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
    let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
    let (year, month, day) = civilDate(daysSince1970: days)
    let secondOfDay = millisecondOfDay / 1000
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
      + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):"
      + "\(padded(secondOfDay % 60, 2)).\(padded(millisecondOfDay % 1000, 3))Z"
  }

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

  /// The quotient rounded down and the non-negative remainder.
  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
  /// `civil_from_days`).
  private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
