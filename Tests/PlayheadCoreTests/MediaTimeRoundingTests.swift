import PlayheadCore
import XCTest

final class MediaTimeRoundingTests: XCTestCase {
  /// The reference result of rounding `numerator / denominator`, from small exact doubles.
  private func reference(_ numerator: Int64, _ denominator: Int64, _ mode: MediaTime.RoundingMode)
    -> Int64
  {
    let exact = Double(numerator) / Double(denominator)
    switch mode {
    case .roundHalfAwayFromZero: return Int64(exact.rounded(.toNearestOrAwayFromZero))
    case .roundTowardZero: return Int64(exact.rounded(.towardZero))
    case .roundAwayFromZero: return Int64(exact.rounded(.awayFromZero))
    case .roundTowardPositiveInfinity: return Int64(exact.rounded(.up))
    case .roundTowardNegativeInfinity: return Int64(exact.rounded(.down))
    }
  }

  func testConvertScale_everyModeMatchesReference_forSmallFractionsOfBothSigns() {
    for mode in MediaTime.RoundingMode.allCases {
      for value in Int64(-25)...25 {
        for timescale in Int32(1)...8 {
          for target in Int32(1)...8 {
            let converted = time(value, timescale).convertScale(target, rounding: mode)
            let numerator = value * Int64(target)
            let expected = reference(numerator, Int64(timescale), mode)
            let exact = numerator % Int64(timescale) == 0
            assertFields(
              converted, value: expected, timescale: target, rounded: !exact && target != timescale)
          }
        }
      }
    }
  }

  func testConvertScale_exactHalves() {
    let cases: [(MediaTime, [Int64])] = [
      // half-away, toward-zero, away-from-zero, toward +inf, toward -inf
      (time(1, 2), [1, 0, 1, 1, 0]),
      (time(-1, 2), [-1, 0, -1, 0, -1]),
      (time(3, 2), [2, 1, 2, 2, 1]),
      (time(-3, 2), [-2, -1, -2, -1, -2]),
      (time(5, 2), [3, 2, 3, 3, 2]),
      (time(-5, 2), [-3, -2, -3, -2, -3]),
    ]
    for (input, expected) in cases {
      for (mode, value) in zip(MediaTime.RoundingMode.allCases, expected) {
        assertFields(
          input.convertScale(1, rounding: mode), value: value, timescale: 1, rounded: true)
      }
    }
  }

  func testConvertScale_thirds() {
    let modes = MediaTime.RoundingMode.allCases
    let positive: [Int64] = [333, 333, 334, 334, 333]
    let negative: [Int64] = [-333, -333, -334, -333, -334]
    for (index, mode) in modes.enumerated() {
      assertFields(
        time(1, 3).convertScale(1_000, rounding: mode), value: positive[index], timescale: 1_000,
        rounded: true)
      assertFields(
        time(-1, 3).convertScale(1_000, rounding: mode), value: negative[index], timescale: 1_000,
        rounded: true)
    }
  }

  func testConvertScale_defaultRoundingIsHalfAwayFromZero() {
    assertFields(time(2, 3).convertScale(1), value: 1, timescale: 1, rounded: true)
    assertFields(time(-1, 2).convertScale(1), value: -1, timescale: 1, rounded: true)
  }

  func testConvertScale_exactConversionIsNotMarkedRounded() {
    assertFields(time(1, 2).convertScale(10), value: 5, timescale: 10)
    assertFields(time(-600, 600).convertScale(90_000), value: -90_000, timescale: 90_000)
    assertFields(time(7, 7).convertScale(7), value: 7, timescale: 7)
  }

  func testConvertScale_largeValuesAreExact() {
    assertFields(
      time(.max, 1_000_000_000).convertScale(1, rounding: .roundTowardNegativeInfinity),
      value: 9_223_372_036, timescale: 1, rounded: true)
    assertFields(
      time(.min, 1_000_000_000).convertScale(1, rounding: .roundTowardNegativeInfinity),
      value: -9_223_372_037, timescale: 1, rounded: true)
    assertFields(
      time(.max, Int32.max).convertScale(Int32.max), value: .max, timescale: Int32.max)
    assertFields(
      time(.max - 1, Int32.max).convertScale(Int32.max - 1, rounding: .roundTowardZero),
      value: 9_223_372_032_559_808_508, timescale: Int32.max - 1)
    assertFields(
      time(.max, Int32.max).convertScale(Int32.max - 1, rounding: .roundTowardZero),
      value: 9_223_372_032_559_808_508, timescale: Int32.max - 1, rounded: true)
    assertFields(
      time(.max, Int32.max).convertScale(Int32.max - 1, rounding: .roundAwayFromZero),
      value: 9_223_372_032_559_808_509, timescale: Int32.max - 1, rounded: true)
  }

  func testConvertScale_overflowSaturates() {
    XCTAssertTrue(time(.max, 1).convertScale(1_000).isPositiveInfinity)
    XCTAssertTrue(time(.min, 1).convertScale(1_000).isNegativeInfinity)
    XCTAssertTrue(time(.max / 2 + 1, 1).convertScale(2).isPositiveInfinity)
    assertFields(time(.max / 2, 1).convertScale(2), value: .max - 1, timescale: 2)
  }

  func testConvertScale_invalidTimescaleOrNonNumeric() {
    XCTAssertFalse(time(1, 2).convertScale(0).isValid)
    XCTAssertFalse(time(1, 2).convertScale(-10).isValid)
    XCTAssertFalse(MediaTime.positiveInfinity.convertScale(0).isValid)
    XCTAssertTrue(MediaTime.positiveInfinity.convertScale(10).isPositiveInfinity)
    XCTAssertTrue(MediaTime.negativeInfinity.convertScale(10).isNegativeInfinity)
    XCTAssertTrue(MediaTime.indefinite.convertScale(10).isIndefinite)
    XCTAssertFalse(MediaTime.invalid.convertScale(10).isValid)
  }

  func testConvertScale_keepsEarlierRoundedFlag() {
    let rounded = time(1, 3).convertScale(10)
    assertFields(rounded.convertScale(20), value: 6, timescale: 20, rounded: true)
  }

  func testMultipliedByRatio_everyModeMatchesReference() {
    for mode in MediaTime.RoundingMode.allCases {
      for value in Int64(-12)...12 {
        for numerator in Int64(-3)...3 {
          for denominator in Int64(-4)...4 where denominator != 0 {
            let result = time(value, 9).multiplied(
              byRatio: numerator, denominator: denominator, rounding: mode)
            let product = value * numerator
            let expected = reference(product, denominator, mode)
            assertFields(
              result, value: expected, timescale: 9, rounded: product % denominator != 0)
          }
        }
      }
    }
  }
}
