import PlayheadCore
import XCTest

final class MediaTimeSecondsTests: XCTestCase {
  func testInitSeconds_exactValues() {
    assertFields(MediaTime(seconds: 1.5, preferredTimescale: 2), value: 3, timescale: 2)
    assertFields(
      MediaTime(seconds: -0.25, preferredTimescale: 1_000), value: -250, timescale: 1_000)
    assertFields(MediaTime(seconds: 0, preferredTimescale: 600), value: 0, timescale: 600)
    assertFields(MediaTime(seconds: -0.0, preferredTimescale: 600), value: 0, timescale: 600)
    assertFields(
      MediaTime(seconds: 3_600, preferredTimescale: 90_000), value: 324_000_000, timescale: 90_000)
  }

  func testInitSeconds_roundsHalfAwayFromZero() {
    assertFields(
      MediaTime(seconds: 0.5, preferredTimescale: 1), value: 1, timescale: 1, rounded: true)
    assertFields(
      MediaTime(seconds: -0.5, preferredTimescale: 1), value: -1, timescale: 1, rounded: true)
    assertFields(
      MediaTime(seconds: 2.5, preferredTimescale: 1), value: 3, timescale: 1, rounded: true)
    assertFields(
      MediaTime(seconds: -2.5, preferredTimescale: 1), value: -3, timescale: 1, rounded: true)
    assertFields(
      MediaTime(seconds: 1.25, preferredTimescale: 2), value: 3, timescale: 2, rounded: true)
    assertFields(
      MediaTime(seconds: 0.49, preferredTimescale: 1), value: 0, timescale: 1, rounded: true)
    assertFields(
      MediaTime(seconds: -1.7, preferredTimescale: 1), value: -2, timescale: 1, rounded: true)
  }

  func testInitSeconds_usesExactBinaryValue() {
    // 0.1 is 0.1000000000000000055511151231257827 in binary: inexact at any timescale.
    assertFields(
      MediaTime(seconds: 0.1, preferredTimescale: 10), value: 1, timescale: 10, rounded: true)
    assertFields(
      MediaTime(seconds: 0.1, preferredTimescale: 600), value: 60, timescale: 600, rounded: true)
    // 2^-30 s at 2^30 units per second is exactly one unit.
    assertFields(
      MediaTime(seconds: 0x1p-30, preferredTimescale: 1 << 30), value: 1, timescale: 1 << 30)
  }

  func testInitSeconds_nanIsInvalid() {
    XCTAssertFalse(MediaTime(seconds: .nan, preferredTimescale: 600).isValid)
    XCTAssertFalse(MediaTime(seconds: -.nan, preferredTimescale: 600).isValid)
    XCTAssertFalse(MediaTime(seconds: .signalingNaN, preferredTimescale: 600).isValid)
  }

  func testInitSeconds_infinitiesMapToInfinities() {
    XCTAssertTrue(MediaTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: -.infinity, preferredTimescale: 600).isNegativeInfinity)
  }

  func testInitSeconds_outOfRangeSaturates() {
    XCTAssertTrue(MediaTime(seconds: 1e300, preferredTimescale: 1).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: -1e300, preferredTimescale: 1).isNegativeInfinity)
    XCTAssertTrue(
      MediaTime(seconds: .greatestFiniteMagnitude, preferredTimescale: 1).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: 9.3e18, preferredTimescale: 1).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: 0x1p63, preferredTimescale: 1).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: 0x1p62, preferredTimescale: 2).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: 1e10, preferredTimescale: 1_000_000_000).isPositiveInfinity)
    XCTAssertTrue(MediaTime(seconds: -1e10, preferredTimescale: 1_000_000_000).isNegativeInfinity)
  }

  func testInitSeconds_int64LimitsAreExact() {
    assertFields(MediaTime(seconds: 0x1p62, preferredTimescale: 1), value: 1 << 62, timescale: 1)
    assertFields(MediaTime(seconds: -0x1p63, preferredTimescale: 1), value: .min, timescale: 1)
    assertFields(
      MediaTime(seconds: 0x1p61, preferredTimescale: 3), value: 3 << 61, timescale: 3)
  }

  func testInitSeconds_tinyValuesRoundToZero() {
    assertFields(
      MediaTime(seconds: .leastNonzeroMagnitude, preferredTimescale: .max), value: 0,
      timescale: .max, rounded: true)
    assertFields(
      MediaTime(seconds: -.leastNormalMagnitude, preferredTimescale: .max), value: 0,
      timescale: .max, rounded: true)
    assertFields(
      MediaTime(seconds: 1e-10, preferredTimescale: 1_000_000_000), value: 0,
      timescale: 1_000_000_000, rounded: true)
  }

  func testInitSeconds_nonPositiveTimescaleIsInvalid() {
    XCTAssertFalse(MediaTime(seconds: 1, preferredTimescale: 0).isValid)
    XCTAssertFalse(MediaTime(seconds: 1, preferredTimescale: -600).isValid)
    XCTAssertFalse(MediaTime(seconds: .infinity, preferredTimescale: 0).isValid)
  }

  func testSeconds() {
    XCTAssertEqual(time(3, 2).seconds, 1.5)
    XCTAssertEqual(time(-1, 4).seconds, -0.25)
    XCTAssertEqual(time(1, 3).seconds, 1.0 / 3.0)
    XCTAssertEqual(MediaTime.zero.seconds, 0)
    XCTAssertEqual(MediaTime.positiveInfinity.seconds, .infinity)
    XCTAssertEqual(MediaTime.negativeInfinity.seconds, -.infinity)
    XCTAssertTrue(MediaTime.indefinite.seconds.isNaN)
    XCTAssertTrue(MediaTime.invalid.seconds.isNaN)
    XCTAssertTrue(time(1, 0).seconds.isNaN)
  }

  func testSecondsRoundTrip() {
    for seconds in [0.0, 1.0, -1.0, 0.5, 12.345, -98_765.4321, 1e6] {
      let converted = MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
      XCTAssertEqual(converted.seconds, seconds, accuracy: 1e-6, "\(seconds)")
    }
  }

  func testNanoseconds() {
    assertFields(MediaTime(nanoseconds: 1_500), value: 1_500, timescale: 1_000_000_000)
    XCTAssertEqual(MediaTime(nanoseconds: 500_000_000), time(1, 2))
    XCTAssertEqual(time(1, 3).nanoseconds, 333_333_333)
    XCTAssertEqual(time(-1, 3).nanoseconds, -333_333_334)
    XCTAssertEqual(time(3, 2).nanoseconds, 1_500_000_000)
    XCTAssertEqual(MediaTime(nanoseconds: .min).nanoseconds, .min)
    XCTAssertNil(time(.max, 1).nanoseconds)
    XCTAssertNil(MediaTime.positiveInfinity.nanoseconds)
    XCTAssertNil(MediaTime.negativeInfinity.nanoseconds)
    XCTAssertNil(MediaTime.indefinite.nanoseconds)
    XCTAssertNil(MediaTime.invalid.nanoseconds)
  }

  func testMilliseconds() {
    assertFields(MediaTime(milliseconds: -1_500), value: -1_500, timescale: 1_000)
    XCTAssertEqual(MediaTime(milliseconds: 1_500), time(3, 2))
  }
}
