import Foundation
import PlayheadCore

/// Clock values as VAST and VMAP write them, read into exact `MediaTime`s (milliseconds,
/// timescale 1000; no floating point on the way).
///
/// Accepted: `HH:MM:SS`, `HH:MM:SS.mmm` (any number of fraction digits, rounded half up to
/// the millisecond), and the lenient forms servers send: `MM:SS(.mmm)`, plain seconds
/// (`30`, `10.5`), a comma for the decimal point (`00:00:10,5`), one-digit fields
/// (`0:0:5`). Refused (nil): empty text, words (`undefined`), signs, minutes or seconds of
/// 60 and more in the colon forms, more than three fields, and hours past 999,999.
public enum VASTTime {
  /// The time `text` gives, or nil when it is not a clock value.
  public static func parse(_ text: String) -> MediaTime? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
    let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(fields.count) else { return nil }
    var wholeFields: [Int64] = []
    for field in fields.dropLast() {
      guard let value = digits(field), value >= 0 else { return nil }
      wholeFields.append(value)
    }
    guard let secondsMs = milliseconds(of: fields.last!) else { return nil }
    var totalMs = secondsMs
    if fields.count > 1 {
      // In the colon forms every field but the first is below 60.
      guard secondsMs < 60_000 else { return nil }
      if fields.count == 3 && wholeFields[1] >= 60 { return nil }
      let hours = fields.count == 3 ? wholeFields[0] : 0
      let minutes = fields.count == 3 ? wholeFields[1] : wholeFields[0]
      guard hours <= 999_999, minutes <= 999_999 else { return nil }
      totalMs += (hours * 3600 + minutes * 60) * 1000
    }
    return MediaTime(value: totalMs, timescale: 1000)
  }

  /// `time` as `HH:MM:SS.mmm` (hours at least two digits), rounded to the millisecond;
  /// negative and non-numeric times give `00:00:00.000`.
  public static func format(_ time: MediaTime) -> String {
    guard time.isNumeric, time > .zero else { return "00:00:00.000" }
    let totalMs = time.convertScale(1000, rounding: .roundHalfAwayFromZero).value
    let hours = totalMs / 3_600_000
    let minutes = totalMs / 60_000 % 60
    let seconds = totalMs / 1000 % 60
    let millis = totalMs % 1000
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
  }

  /// A run of 1 to 7 ASCII digits as a number.
  private static func digits(_ text: Substring) -> Int64? {
    guard !text.isEmpty, text.utf8.count <= 7, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    return Int64(text)
  }

  /// `SS`, `SS.fff` or `SS,fff` in milliseconds, rounded half up.
  private static func milliseconds(of text: Substring) -> Int64? {
    let parts = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
    guard parts.count <= 2, let whole = digits(parts[0]) else { return nil }
    var millis: Int64 = 0
    if parts.count == 2 {
      let fraction = parts[1]
      guard !fraction.isEmpty, fraction.utf8.count <= 9,
        fraction.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
      else { return nil }
      let padded = Array((fraction + "0000").utf8)
      millis = padded[0..<3].reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
      if padded[3] >= 53 { millis += 1 }
    }
    return whole * 1000 + millis
  }
}

/// A point in an ad given as a time or as a share of its duration: a `skipoffset`, or the
/// `offset` of a `progress` tracking event.
public enum VASTOffset: Sendable, Hashable, CustomStringConvertible {
  /// A time from the start of the ad.
  case time(MediaTime)
  /// A percentage of the ad's duration (0 to 100).
  case percent(Double)

  /// Parses `HH:MM:SS(.mmm)` (and the lenient forms of `VASTTime`) or `n%` (0 to 100,
  /// decimals allowed); nil otherwise.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.hasSuffix("%") {
      let number = trimmed.dropLast().trimmingCharacters(in: .whitespaces)
      guard !number.isEmpty,
        number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        let value = Double(number), value >= 0, value <= 100
      else { return nil }
      self = .percent(value)
    } else if let time = VASTTime.parse(trimmed) {
      self = .time(time)
    } else {
      return nil
    }
  }

  /// The offset as a time into an ad of `duration`, rounded to the millisecond; a
  /// percentage of an unknown duration is nil.
  public func time(inAdOf duration: MediaTime?) -> MediaTime? {
    switch self {
    case .time(let time): return time
    case .percent(let percent):
      guard let duration, duration.isNumeric else { return nil }
      let durationMs = duration.convertScale(1000, rounding: .roundHalfAwayFromZero).value
      // Hundredths of a percent keep the product exact for the percentages servers send.
      let permyriad = Int64((percent * 100).rounded())
      let ms = (durationMs * permyriad + 5_000) / 10_000
      return MediaTime(value: ms, timescale: 1000)
    }
  }

  /// `HH:MM:SS.mmm` or `n%`.
  public var description: String {
    switch self {
    case .time(let time): return VASTTime.format(time)
    case .percent(let percent):
      return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }
  }
}
