import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The hand-written ISO 8601 date-time parser (`PlaylistDateText`, `EXT-X-PROGRAM-DATE-TIME`)
/// and the program date-time text a parsed segment keeps.
final class DateTextTests: XCTestCase {
  private let url = URL(string: "https://example.com/live/index.m3u8")!

  /// Seconds since 1970 of a UTC date-time, computed by Foundation's Gregorian calendar.
  private func utc(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0,
    _ second: Int = 0, nanoseconds: Int = 0
  ) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
    let components = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let whole = try XCTUnwrap(calendar.date(from: components))
    return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + Double(nanoseconds) / 1e9)
  }

  func testZones_utcAndOffsetsInEveryWrittenForm() throws {
    let noon = try utc(2024, 3, 1, 12)
    let forms = [
      "2024-03-01T12:00:00Z", "2024-03-01T12:00:00z", "2024-03-01t12:00:00Z",
      "2024-03-01 12:00:00Z", "2024-03-01T12:00:00", "2024-03-01T14:00:00+02:00",
      "2024-03-01T14:00:00+0200", "2024-03-01T14:00:00+02", "2024-03-01T06:30:00-05:30",
      "2024-03-01T12:00:00-00:00", "2024-03-02T01:45:00+13:45",
    ]
    for text in forms {
      XCTAssertEqual(PlaylistDateText.date(from: text), noon, text)
    }
    XCTAssertEqual(
      PlaylistDateText.date(from: "2024-01-01T00:30:00+01:00"), try utc(2023, 12, 31, 23, 30),
      "an offset can move the date to the previous year")
  }

  func testFractionalSeconds_keepNanosecondsAndIgnoreDigitsBeyondThem() throws {
    let cases: [(String, Int)] = [
      ("2024-03-01T10:00:00.5Z", 500_000_000),
      ("2024-03-01T10:00:00,25Z", 250_000_000),
      ("2024-03-01T10:00:00.123Z", 123_000_000),
      ("2024-03-01T10:00:00.000001Z", 1_000),
      ("2024-03-01T10:00:00.123456789Z", 123_456_789),
      ("2024-03-01T10:00:00.123456789999Z", 123_456_789),
      ("2024-03-01T11:00:00.75+01:00", 750_000_000),
    ]
    for (text, nanoseconds) in cases {
      let expected = try utc(2024, 3, 1, 10, nanoseconds: nanoseconds)
      let parsed = try XCTUnwrap(PlaylistDateText.date(from: text), text)
      XCTAssertEqual(
        parsed.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 1e-6, text)
    }
  }

  func testCalendar_leapYearsAndMonthLengths() throws {
    XCTAssertEqual(PlaylistDateText.date(from: "2024-02-29T00:00:00Z"), try utc(2024, 2, 29))
    XCTAssertEqual(PlaylistDateText.date(from: "2000-02-29T00:00:00Z"), try utc(2000, 2, 29))
    XCTAssertEqual(PlaylistDateText.date(from: "2023-04-30T00:00:00Z"), try utc(2023, 4, 30))
    XCTAssertEqual(
      PlaylistDateText.date(from: "1969-12-31T23:59:59Z"), try utc(1969, 12, 31, 23, 59, 59))
    for text in ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2023-04-31T00:00:00Z"] {
      XCTAssertNil(PlaylistDateText.date(from: text), text)
    }
  }

  func testInvalidText_givesNil() {
    let invalid = [
      "", "2024", "2024-03-01", "2024-03-01T10:00", "2024-03-01T10:00:0",
      "2024-3-01T10:00:00Z", "2024-03-1T10:00:00Z", "24-03-01T10:00:00Z",
      "2024/03/01T10:00:00Z", "2024-03-01X10:00:00Z", "2024-03-01T10-00-00Z",
      "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-03-00T00:00:00Z",
      "2024-03-01T25:00:00Z", "2024-03-01T10:60:00Z", "2024-03-01T10:00:61Z",
      "2024-03-01T10:00:00.Z", "2024-03-01T10:00:00ZZ", "2024-03-01T10:00:00Z ",
      "2024-03-01T10:00:00+24:00", "2024-03-01T10:00:00+01:60", "2024-03-01T10:00:00+1",
      "2024-03-01T10:00:00+01:0", "2024-03-01T10:00:00 +01:00", "2024-03-01T10:00:00UTC",
      "２０２４-03-01T10:00:00Z", "2024-03-01T1a:00:00Z", "2O24-03-01T10:00:00Z",
    ]
    for text in invalid {
      XCTAssertNil(PlaylistDateText.date(from: text), "'\(text)'")
    }
  }

  func testManyDateTimes_agreeWithFoundationsCalendar() throws {
    var generator = SplitMix(seed: 0x5EED)
    for _ in 0..<500 {
      let year = Int(generator.next() % 250) + 1900
      let month = Int(generator.next() % 12) + 1
      let day = Int(generator.next() % 28) + 1
      let hour = Int(generator.next() % 24)
      let minute = Int(generator.next() % 60)
      let second = Int(generator.next() % 60)
      let milliseconds = Int(generator.next() % 1000)
      let text = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day, hour, minute, second,
        milliseconds)
      let expected = try utc(
        year, month, day, hour, minute, second, nanoseconds: milliseconds * 1_000_000)
      let parsed = try XCTUnwrap(PlaylistDateText.date(from: text), text)
      XCTAssertEqual(
        parsed.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 1e-6, text)
    }
  }

  func testProgramDateTimeText_isKeptExactlyAsWritten() throws {
    let texts = [
      "2024-03-01T10:00:00.000Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
      "1969-12-31T23:59:59.999Z", "2024-03-01T10:00:00Z", "2024-03-01T10:00:00.0Z",
      "2024-03-01T10:00:00.0000Z", "2024-03-01t10:00:00.000Z", "2024-03-01T10:00:00.000z",
      "2024-03-01T10:00:00,000Z", "2024-03-01 10:00:00.000Z", "2024-03-01T10:00:00.000+00:00",
      "2024-03-01T11:00:00.000+01:00", "2016-12-31T23:59:60.000Z", "2024-03-01T24:00:00.000Z",
      "2024-03-01T10:00:00.000",
    ]
    var body = ""
    for (index, text) in texts.enumerated() {
      body += "#EXT-X-PROGRAM-DATE-TIME:\(text)\n#EXTINF:4,\ns\(index).ts\n"
    }
    let text = mediaText(body)
    let playlist = try media(try PlaylistParser.parse(text, url: url))
    XCTAssertEqual(playlist.segments.map(\.programDateTimeText), texts)
    for (index, written) in texts.enumerated() {
      XCTAssertEqual(playlist.segments[index].programDateTime, PlaylistDateText.date(from: written))
    }
    let lines = PlaylistWriter.write(.media(playlist)).split(separator: "\n").map(String.init)
    XCTAssertEqual(
      lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") },
      texts.map { "#EXT-X-PROGRAM-DATE-TIME:" + $0 })
  }

  func testProgramDateTimeText_inTheWritersFormRoundTripsForManyDates() throws {
    var generator = SplitMix(seed: 42)
    var texts: [String] = []
    for _ in 0..<2000 {
      let milliseconds =
        Int64(bitPattern: generator.next() % 315_537_897_600_000) - 62_135_596_800_000
      texts.append(
        PlaylistDateText.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
    }
    let body = texts.enumerated().map { "#EXT-X-PROGRAM-DATE-TIME:\($1)\n#EXTINF:4,\ns\($0).ts\n" }
    let playlist = try media(try PlaylistParser.parse(mediaText(body.joined()), url: url))
    XCTAssertEqual(playlist.segments.map(\.programDateTimeText), texts)
  }

  func testInvalidProgramDateTime_warnsAndKeepsTheTag() throws {
    for text in ["2024-02-30T10:00:00Z", "2024-03-01T10:00:00.Z", "2024-03-01T10:00:00+25:00"] {
      let line = "#EXT-X-PROGRAM-DATE-TIME:\(text)"
      let playlist = try PlaylistParser.parse(mediaText("\(line)\n#EXTINF:4,\na.ts\n"), url: url)
      let segment = try XCTUnwrap(try media(playlist).segments.first)
      XCTAssertNil(segment.programDateTime, text)
      XCTAssertNil(segment.programDateTimeText, text)
      XCTAssertTrue(hasWarning(playlist, "is not an ISO 8601 date", line: 4), text)
      XCTAssertEqual(try media(playlist).unknownTags, [UnknownTag(text: line, position: 0)])
    }
  }

  func testSetProgramDateTime_givesTheWritersTextAndComparesByText() throws {
    let text = mediaText("#EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00.000Z\n#EXTINF:4,\na.ts\n")
    let parsed = try XCTUnwrap(try media(try PlaylistParser.parse(text, url: url)).segments.first)
    var copy = parsed
    copy.programDateTimeText = "2024-03-01T10:00:00.000Z"
    XCTAssertEqual(copy, parsed, "the same text, however it is kept")
    copy.programDateTimeText = "2024-03-01T10:00:00Z"
    XCTAssertNotEqual(copy, parsed)
    copy.setProgramDateTime(parsed.programDateTime)
    XCTAssertEqual(copy.programDateTimeText, "2024-03-01T10:00:00.000Z")
    XCTAssertEqual(copy, parsed)
    copy.setProgramDateTime(Date(timeIntervalSince1970: 1_709_287_200.0004))
    XCTAssertEqual(copy.programDateTimeText, "2024-03-01T10:00:00.000Z")
    XCTAssertNotEqual(copy, parsed, "same text, but another date")
    copy.setProgramDateTime(nil)
    XCTAssertNil(copy.programDateTime)
    XCTAssertNil(copy.programDateTimeText)
  }
}

/// A small deterministic random number generator for table-free test inputs.
struct SplitMix {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
