import Foundation
import PlayheadCore

/// ISO 8601 date-times as used by `EXT-X-PROGRAM-DATE-TIME` and `EXT-X-DATERANGE`.
///
/// Parsing accepts `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh[:mm]|±hhmm]`; a missing zone is
/// read as UTC. Formatting writes UTC with milliseconds.
enum ISO8601Text {
  /// The date `span` holds, or nil when it is not such a date-time.
  static func parse(_ text: ByteText, _ span: ByteSpan) -> Date? {
    parseNotingForm(text, span)?.date
  }

  /// The date `span` holds and whether `span` is exactly `format(date)` (the writer's
  /// form: `T`, three fraction digits after `.`, `Z`, no leap second, no hour 24), or nil
  /// when it is not such a date-time.
  static func parseNotingForm(_ text: ByteText, _ span: ByteSpan) -> (
    date: Date, isWriterForm: Bool
  )? {
    // `YYYY-MM-DDThh:mm:ss` has fixed positions: read them directly.
    guard span.count >= 19 else { return nil }
    let bytes = text.bytes
    let start = span.start
    var allDigits = true
    func number(_ offset: Int, _ count: Int) -> Int {
      var value = 0
      for index in (start + offset)..<(start + offset + count) {
        let digit = bytes[index] &- 0x30
        allDigits = allDigits && digit <= 9
        value = value * 10 + Int(digit)
      }
      return value
    }
    let year = number(0, 4)
    let month = number(5, 2)
    let day = number(8, 2)
    let hour = number(11, 2)
    let minute = number(14, 2)
    let second = number(17, 2)
    let separator = bytes[start + 10]
    guard allDigits, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
      separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20,
      bytes[start + 13] == UInt8(ascii: ":"), bytes[start + 16] == UInt8(ascii: ":")
    else { return nil }
    var reader = DigitReader(text: text, index: start + 19, end: span.end)
    var nanoseconds = 0
    var count = 0
    let fractionSeparator = reader.peek
    if fractionSeparator == UInt8(ascii: ".") || fractionSeparator == UInt8(ascii: ",") {
      reader.index += 1
      while let byte = reader.peek, ByteText.isDigit(byte) {
        if count < 9 { nanoseconds = nanoseconds * 10 + Int(byte - 0x30) }
        count += 1
        reader.index += 1
      }
      guard count > 0 else { return nil }
      for _ in min(count, 9)..<9 { nanoseconds *= 10 }
    }
    var offsetSeconds = 0
    let zone = reader.peek
    if let zone {
      if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
        reader.index += 1
      } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
        reader.index += 1
        guard let zoneHours = reader.digits(2) else { return nil }
        var zoneMinutes = 0
        if reader.peek == UInt8(ascii: ":") { reader.index += 1 }
        if reader.index < reader.end {
          guard let minutes = reader.digits(2) else { return nil }
          zoneMinutes = minutes
        }
        guard zoneHours <= 23, zoneMinutes <= 59 else { return nil }
        offsetSeconds = (zoneHours * 3600 + zoneMinutes * 60) * (zone == UInt8(ascii: "-") ? -1 : 1)
      } else {
        return nil
      }
    }
    guard reader.index == reader.end, (1...12).contains(month),
      (1...daysInMonth(year: year, month: month)).contains(day), hour <= 24, minute <= 59,
      second <= 60
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    let date = Date(timeIntervalSince1970: Double(whole) + Double(nanoseconds) / 1e9)
    // With 24 bytes, `T`, three digits after `.` and `Z` the layout is the writer's.
    let isWriterForm =
      span.count == 24 && separator == UInt8(ascii: "T")
      && fractionSeparator == UInt8(ascii: ".") && count == 3 && zone == UInt8(ascii: "Z")
      && hour <= 23 && second <= 59
    return (date, isWriterForm)
  }

  /// `date` as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC, milliseconds rounded to nearest).
  static func format(_ date: Date) -> String {
    let scaled = (date.timeIntervalSince1970 * 1000).rounded()
    // Dates beyond ±3 million years do not occur in playlists; clamp instead of trapping.
    let totalMilliseconds = scaled.isFinite ? Int64(max(-1e17, min(1e17, scaled))) : 0
    let milliseconds = Int(((totalMilliseconds % 1000) + 1000) % 1000)
    let seconds = (totalMilliseconds - Int64(milliseconds)) / 1000
    let secondOfDay = Int(((seconds % 86_400) + 86_400) % 86_400)
    let days = Int((seconds - Int64(secondOfDay)) / 86_400)
    let (year, month, day) = civilFromDays(days)
    return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
      + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":"
      + pad(secondOfDay % 60, 2) + "." + pad(milliseconds, 3) + "Z"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  private static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day count since 1970-01-01 (inverse of `daysFromCivil`).
  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}

/// Reads fixed-width digit groups from a span.
private struct DigitReader {
  let text: ByteText
  var index: Int
  let end: Int

  var peek: UInt8? { index < end ? text.bytes[index] : nil }

  mutating func digits(_ count: Int) -> Int? {
    guard end - index >= count else { return nil }
    var value = 0
    for _ in 0..<count {
      let byte = text.bytes[index]
      guard ByteText.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
      index += 1
    }
    return value
  }

  mutating func expect(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    index += 1
    return true
  }
}
