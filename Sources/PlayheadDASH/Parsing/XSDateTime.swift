import Foundation

/// XML Schema `xs:dateTime` values as MPDs write them (`2024-03-01T10:00:00Z`,
/// `1970-01-01T00:00:00.5+01:00`).
///
/// A time without a zone is UTC (DASH-IF IOP says to read it so); seconds may be left out
/// (`T21:56`), as some packagers do. Month, day (for its month and year), hour, minute and
/// second are checked: `1066-14-03T21:56` is refused (nil). `24:00:00` is the next day's
/// midnight.
public enum XSDateTime {
  /// The instant `text` writes, or nil when it is not a valid date-time.
  public static func parse(_ text: some StringProtocol) -> Date? {
    let bytes = Array(text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
    var index = 0
    func number(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + count] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += count
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
      index += 1
      return true
    }
    var negativeYear = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negativeYear = true
      index += 1
    }
    // The year has four digits or more.
    let yearStart = index
    while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    guard index - yearStart >= 4, index - yearStart <= 9 else { return nil }
    index = yearStart
    guard var year = number(bytes[yearStart...].prefix { (0x30...0x39).contains($0) }.count)
    else { return nil }
    if negativeYear { year = -year }
    guard expect("-"), let month = number(2), expect("-"), let day = number(2), expect("T"),
      let hour = number(2), expect(":"), let minute = number(2)
    else { return nil }
    var second = 0
    var nanoseconds = 0
    if expect(":") {
      guard let whole = number(2) else { return nil }
      second = whole
      if expect(".") {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        let digits = bytes[start..<index]
        guard !digits.isEmpty else { return nil }
        for (offset, digit) in digits.prefix(9).enumerated() {
          nanoseconds += Int(digit - 0x30) * Self.powersOfTen[8 - offset]
        }
      }
    }
    var offsetSeconds = 0
    if index < bytes.count {
      if expect("Z") {
      } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let hours = number(2), expect(":"), let minutes = number(2), hours <= 14,
          minutes < 60
        else { return nil }
        offsetSeconds = sign * (hours * 3600 + minutes * 60)
      } else {
        return nil
      }
    }
    guard index == bytes.count, (1...12).contains(month), day >= 1,
      day <= daysInMonth(month, year: year), minute < 60, second < 60,
      hour < 24 || (hour == 24 && minute == 0 && second == 0 && nanoseconds == 0)
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second - offsetSeconds)
    return Date(timeIntervalSince1970: seconds + Double(nanoseconds) / 1e9)
  }

  private static let powersOfTen = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
  ]

  private static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
