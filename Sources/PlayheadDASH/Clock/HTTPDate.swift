import Foundation

/// HTTP `Date` header values (RFC 9110 5.6.7): the IMF-fixdate form
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete ones a server may still send,
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
///
/// The day name is not checked against the date; the date and time are (`31 Feb` is
/// refused). A two-digit RFC 850 year is 19xx from 70 up, else 20xx.
public enum HTTPDate {
  /// The instant `text` writes, or nil when it is none of the three forms.
  public static func parse(_ text: String) -> Date? {
    guard text.utf8.count <= 64 else { return nil }
    let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(
      String.init)
    // Drop the day name.
    guard tokens.count >= 5, tokens[0].allSatisfy(\.isLetter) else { return nil }
    let rest = Array(tokens.dropFirst())
    var day: String
    var month: String
    var year: String
    var time: String
    if rest.count == 5, rest[4] == "GMT" {
      (day, month, year, time) = (rest[0], rest[1], rest[2], rest[3])
      if year.count == 2, let short = Int(year) {
        year = String(short >= 70 ? 1900 + short : 2000 + short)
      }
    } else if rest.count == 4 {
      (month, day, time, year) = (rest[0], rest[1], rest[2], rest[3])
    } else {
      return nil
    }
    guard let monthIndex = months.firstIndex(of: month), day.count <= 2,
      day.allSatisfy(\.isASCII), day.allSatisfy(\.isNumber), let dayNumber = Int(day),
      year.count == 4, year.allSatisfy(\.isASCII), year.allSatisfy(\.isNumber),
      time.count == 8
    else { return nil }
    day = dayNumber < 10 ? "0\(dayNumber)" : "\(dayNumber)"
    month = monthIndex < 9 ? "0\(monthIndex + 1)" : "\(monthIndex + 1)"
    return XSDateTime.parse("\(year)-\(month)-\(day)T\(time)Z")
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
}
