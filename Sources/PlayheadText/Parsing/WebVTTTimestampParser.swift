import PlayheadCore

/// Reads WebVTT timestamps (`mm:ss.ttt` or `h…h:mm:ss.ttt`) and cue timing lines.
///
/// Hours may have any number of digits; a time beyond `Int64` milliseconds is an error,
/// never an overflow trap.
enum WebVTTTimestampParser {
  /// A timestamp that does not parse, with the reason.
  struct Failure: Error {
    let reason: String
  }

  /// The timestamp at `offset`, in milliseconds, and the offset after it.
  static func timestamp(in text: ByteText, at offset: Int, end: Int) throws(Failure) -> (
    milliseconds: Int64, next: Int
  ) {
    guard offset < end, ByteText.isDigit(text[offset]) else {
      throw Failure(reason: "expected a timestamp")
    }
    let first = text.digits(at: offset, end: end)
    guard let value1 = first.value else { throw Failure(reason: "the timestamp is too large") }
    let hoursFirst = first.span.count != 2 || value1 > 59
    var position = first.span.end
    guard position < end, text[position] == UInt8(ascii: ":") else {
      throw Failure(reason: "expected ':' in the timestamp")
    }
    let second = text.digits(at: position + 1, end: end)
    guard second.span.count == 2, let value2Read = second.value else {
      throw Failure(reason: "expected two digits after ':' in the timestamp")
    }
    position = second.span.end
    var hours: Int64 = 0
    var minutes = value1
    var seconds = value2Read
    if hoursFirst || (position < end && text[position] == UInt8(ascii: ":")) {
      guard position < end, text[position] == UInt8(ascii: ":") else {
        throw Failure(reason: "expected ':' and seconds after the minutes")
      }
      let third = text.digits(at: position + 1, end: end)
      guard third.span.count == 2, let value3 = third.value else {
        throw Failure(reason: "expected two digits of seconds in the timestamp")
      }
      position = third.span.end
      hours = value1
      minutes = value2Read
      seconds = value3
    }
    guard position < end, text[position] == UInt8(ascii: ".") else {
      throw Failure(reason: "expected '.' and milliseconds in the timestamp")
    }
    let fraction = text.digits(at: position + 1, end: end)
    guard fraction.span.count == 3, let milliseconds = fraction.value else {
      throw Failure(reason: "expected three digits of milliseconds in the timestamp")
    }
    guard minutes <= 59, seconds <= 59 else {
      throw Failure(reason: "minutes and seconds must be below 60 in the timestamp")
    }
    let (hourPart, overflowHours) = hours.multipliedReportingOverflow(by: 3_600_000)
    let rest = minutes * 60_000 + seconds * 1000 + milliseconds
    let (total, overflowTotal) = hourPart.addingReportingOverflow(rest)
    guard !overflowHours, !overflowTotal else {
      throw Failure(reason: "the timestamp is too large")
    }
    return (total, fraction.span.end)
  }

  /// A timing line: start and end in milliseconds and the span of the settings after them.
  static func timing(in text: ByteText, _ line: ByteSpan) throws(Failure) -> (
    start: Int64, end: Int64, settings: ByteSpan
  ) {
    var position = skipSpaces(text, from: line.start, end: line.end)
    let start = try timestamp(in: text, at: position, end: line.end)
    position = skipSpaces(text, from: start.next, end: line.end)
    guard position + 3 <= line.end, text[position] == UInt8(ascii: "-"),
      text[position + 1] == UInt8(ascii: "-"), text[position + 2] == UInt8(ascii: ">")
    else {
      throw Failure(reason: "expected '-->' after the start time")
    }
    position = skipSpaces(text, from: position + 3, end: line.end)
    let end: (milliseconds: Int64, next: Int)
    do {
      end = try timestamp(in: text, at: position, end: line.end)
    } catch {
      throw Failure(reason: error.reason + " after '-->'")
    }
    return (start.milliseconds, end.milliseconds, ByteSpan(end.next, line.end))
  }

  /// A whole span that must be exactly one timestamp (`LOCAL:` of `X-TIMESTAMP-MAP`).
  static func exactTimestamp(in text: ByteText, _ span: ByteSpan) throws(Failure) -> Int64 {
    let result = try timestamp(in: text, at: span.start, end: span.end)
    guard result.next == span.end else {
      throw Failure(reason: "unexpected text after the timestamp")
    }
    return result.milliseconds
  }

  /// A time of `milliseconds` ms, timescale 1000.
  static func time(_ milliseconds: Int64) -> MediaTime {
    MediaTime(value: milliseconds, timescale: 1000)
  }

  private static func skipSpaces(_ text: ByteText, from offset: Int, end: Int) -> Int {
    var position = offset
    while position < end && ByteText.isSpace(text[position]) { position += 1 }
    return position
  }
}
