import Foundation
import PlayheadCore
import XCTest

final class MediaTimeCodingTests: XCTestCase {
  func testCodable_roundTripKeepsEveryField() throws {
    let rounded = time(1, 3).convertScale(10)
    for original in [
      time(1, 2), time(-7, 90_000), rounded, .zero, .invalid, .indefinite, .positiveInfinity,
      .negativeInfinity,
    ] {
      let data = try JSONEncoder().encode(original)
      let decoded = try JSONDecoder().decode(MediaTime.self, from: data)
      XCTAssertEqual(decoded, original)
      XCTAssertEqual(decoded.value, original.value)
      XCTAssertEqual(decoded.timescale, original.timescale)
      XCTAssertEqual(decoded.flags, original.flags)
    }
  }

  func testCodable_usesValueTimescaleFlagsKeys() throws {
    let data = try JSONEncoder().encode(time(3, 2))
    let object = try JSONDecoder().decode([String: Int64].self, from: data)
    XCTAssertEqual(object, ["value": 3, "timescale": 2, "flags": 1])
  }

  func testDecode_fromLiteralJSON() throws {
    let json = Data(#"{"value": 90000, "timescale": 90000, "flags": 1}"#.utf8)
    XCTAssertEqual(try JSONDecoder().decode(MediaTime.self, from: json), time(1, 1))
    let infinity = Data(#"{"value": 0, "timescale": 0, "flags": 5}"#.utf8)
    XCTAssertTrue(try JSONDecoder().decode(MediaTime.self, from: infinity).isPositiveInfinity)
  }

  func testDecode_badInputThrows() {
    let missing = Data(#"{"value": 1, "timescale": 2}"#.utf8)
    XCTAssertThrowsError(try JSONDecoder().decode(MediaTime.self, from: missing))
    let tooWide = Data(#"{"value": 1, "timescale": 4294967296, "flags": 1}"#.utf8)
    XCTAssertThrowsError(try JSONDecoder().decode(MediaTime.self, from: tooWide))
  }

  func testDescription() {
    XCTAssertEqual(time(1, 2).description, "1/2 = 0.500s")
    XCTAssertEqual(time(-3, 2).description, "-3/2 = -1.500s")
    XCTAssertEqual(time(1, 3).description, "1/3 = 0.333s")
    XCTAssertEqual(time(2, 3).description, "2/3 = 0.667s")
    XCTAssertEqual(time(-1, 3_000).description, "-1/3000 = 0.000s")
    XCTAssertEqual(time(-2, 3_000).description, "-2/3000 = -0.001s")
    XCTAssertEqual(time(.max, 1).description, "9223372036854775807/1 = 9223372036854775807.000s")
    XCTAssertEqual(time(1, 3).convertScale(10).description, "3/10 = 0.300s (rounded)")
    XCTAssertEqual(MediaTime.positiveInfinity.description, "+infinity")
    XCTAssertEqual(MediaTime.negativeInfinity.description, "-infinity")
    XCTAssertEqual(MediaTime.indefinite.description, "indefinite")
    XCTAssertEqual(MediaTime.invalid.description, "invalid")
  }

  func testDebugDescription() {
    XCTAssertEqual(
      time(1, 2).debugDescription, "MediaTime(value: 1, timescale: 2, flags: [valid])")
    XCTAssertEqual(
      MediaTime.negativeInfinity.debugDescription,
      "MediaTime(value: 0, timescale: 0, flags: [valid, negativeInfinity])")
    var odd = MediaTime.invalid
    odd.flags = MediaTime.Flags(rawValue: 0x102)
    XCTAssertEqual(
      odd.debugDescription, "MediaTime(value: 0, timescale: 0, flags: [hasBeenRounded, 0x100])")
  }
}
