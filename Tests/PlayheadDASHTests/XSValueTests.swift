import Foundation
import PlayheadCore
import PlayheadDASH
import XCTest

/// `xs:duration` and `xs:dateTime` as MPDs write them.
final class XSValueTests: XCTestCase {
  private func seconds(_ text: String) -> Double? { XSDuration.parse(text)?.seconds }

  func testDurations() {
    XCTAssertEqual(seconds("PT1M5.063S"), 65.063)
    XCTAssertEqual(seconds("PT0S"), 0)
    XCTAssertEqual(seconds("PT2S"), 2)
    XCTAssertEqual(seconds("P1DT2H"), 93_600)
    XCTAssertEqual(seconds(" PT1H0M0.5S "), 3600.5)
    XCTAssertEqual(seconds("P1Y"), 365 * 86_400, "years are 365 days")
    XCTAssertEqual(XSDuration.parse("PT0.000000001S")?.value, 1, "exact to the nanosecond")
    XCTAssertEqual(seconds("PT604.0399780273438S") ?? 0, 604.039978027, accuracy: 1e-9)
    for bad in [
      "", "P", "PT", "1S", "PT1.S", "PT.5S", "PT1.5M", "PT5S1M", "P1H", "-PT1S", "PT1X",
      "P1DT",
    ] {
      XCTAssertNil(XSDuration.parse(bad), bad)
    }
  }

  func testDateTimes() throws {
    let utc = try XCTUnwrap(XSDateTime.parse("2024-03-01T10:00:00Z"))
    XCTAssertEqual(utc.timeIntervalSince1970, 1_709_287_200)
    XCTAssertEqual(
      XSDateTime.parse("2024-03-01T10:00:00")?.timeIntervalSince1970, 1_709_287_200,
      "no zone is UTC")
    XCTAssertEqual(
      XSDateTime.parse("2024-03-01T11:00:00+01:00")?.timeIntervalSince1970, 1_709_287_200)
    XCTAssertEqual(XSDateTime.parse("1970-01-01T00:00:00.25Z")?.timeIntervalSince1970, 0.25)
    XCTAssertEqual(XSDateTime.parse("2024-02-29T21:56Z")?.timeIntervalSince1970, 1_709_243_760)
    XCTAssertEqual(XSDateTime.parse("2023-12-31T24:00:00Z")?.timeIntervalSince1970, 1_704_067_200)
    for bad in [
      "1066-14-03T21:56", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-01",
      "2024-01-01T25:00:00Z", "2024-01-01T10:60:00Z", "24-01-01T10:00:00Z",
      "2024-01-01T10:00:00+15:00", "2024-01-01T10:00:00 Z", "2024-01-01T10:00:00.Z",
    ] {
      XCTAssertNil(XSDateTime.parse(bad), bad)
    }
  }
}
