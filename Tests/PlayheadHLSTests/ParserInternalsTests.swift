import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadHLS

/// The byte-level helpers behind the parser's fast paths, checked directly.
final class ParserInternalsTests: XCTestCase {
  private func lookup(_ name: String) -> TagName? {
    ParserContext.withBytes(of: name) { TagName.lookup(ByteSpan(0, $0.bytes.count), in: $0) }
  }

  func testTagLookup_findsEveryTagAndNothingElse() {
    for tag in TagName.allCases {
      let name = String(describing: tag.text)
      XCTAssertEqual(lookup(name), tag, name)
      XCTAssertNil(lookup(name + "S"), name + "S")
      XCTAssertNil(lookup(String(name.dropLast())), String(name.dropLast()))
      XCTAssertNil(lookup(String(name.dropLast()) + "_"), name)
      XCTAssertNil(lookup(name.lowercased()), name.lowercased())
    }
    for unknown in ["", "#EXT", "#EXTX", "#EXT-X-", "#EXT-X-CUE-OU", "#EXT-X-KEYS", "#EXT-X-MAPX"] {
      XCTAssertNil(lookup(unknown), unknown)
    }
  }

  private func decimalTime(_ text: String, allowSign: Bool = false) -> (Int64, Int32)? {
    ParserContext.withBytes(of: text) {
      $0.decimalTime(ByteSpan(0, $0.bytes.count), allowSign: allowSign).map {
        ($0.value, $0.timescale)
      }
    }
  }

  func testDecimalTime_isExactInEveryLength() {
    let cases: [(String, Int64, Int32)] = [
      ("6.006", 6006, 1000), ("10", 10, 1), ("5.", 5, 1), (".5", 5, 10), ("0", 0, 1),
      ("0.000000001", 1, 1_000_000_000), ("123456789012345678", 123_456_789_012_345_678, 1),
      ("123456789.123456789", 123_456_789_123_456_789, 1_000_000_000),
      ("1234567890123456789", 1_234_567_890_123_456_789, 1),
      ("0.0000000014", 1, 1_000_000_000), ("0.0000000015", 2, 1_000_000_000),
      ("9223372036854775807", Int64.max, 1),
    ]
    for (text, value, timescale) in cases {
      let time = decimalTime(text)
      XCTAssertEqual(time?.0, value, text)
      XCTAssertEqual(time?.1, timescale, text)
    }
    let signed = decimalTime("-2.5", allowSign: true)
    XCTAssertEqual(signed?.0, -25)
    XCTAssertEqual(signed?.1, 10)
    for invalid in [
      "", ".", "-1", "1.2.3", "1e3", " 1", "1 ", "+1", "١", "9223372036854775808", "0x10",
    ] {
      XCTAssertNil(decimalTime(invalid), "'\(invalid)'")
    }
  }

  func testWritersForm_isRecognisedOnlyWhenFormattingGivesTheSameText() {
    func form(_ text: String) -> Bool? {
      ParserContext.withBytes(of: text) {
        ISO8601Text.parseNotingForm($0, ByteSpan(0, $0.bytes.count))?.isWriterForm
      }
    }
    XCTAssertEqual(form("2024-03-01T10:00:00.000Z"), true)
    XCTAssertEqual(form("0000-01-01T00:00:00.000Z"), true)
    for other in [
      "2024-03-01T10:00:00Z", "2024-03-01T10:00:00.00Z", "2024-03-01t10:00:00.000Z",
      "2024-03-01T10:00:00.000z", "2024-03-01T10:00:00,000Z", "2024-03-01T10:00:00.000+00:00",
      "2016-12-31T23:59:60.000Z", "2024-03-01T24:00:00.000Z", "2024-03-01 10:00:00.000Z",
    ] {
      XCTAssertEqual(form(other), false, other)
    }
    var generator = SplitMix(seed: 7)
    for _ in 0..<5000 {
      let milliseconds =
        Int64(bitPattern: generator.next() % 315_569_520_000_000) - 62_167_219_200_000
      let text = ISO8601Text.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
      let parsed = ParserContext.withBytes(of: text) {
        ISO8601Text.parseNotingForm($0, ByteSpan(0, $0.bytes.count))
      }
      XCTAssertEqual(parsed?.isWriterForm, true, text)
      XCTAssertEqual(parsed.map { ISO8601Text.format($0.date) }, text)
    }
  }
}
