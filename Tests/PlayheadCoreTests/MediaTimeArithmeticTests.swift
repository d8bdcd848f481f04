import PlayheadCore
import XCTest

final class MediaTimeArithmeticTests: XCTestCase {
  func testAdd_sameTimescale_keepsTimescale() {
    assertFields(time(1, 10) + time(2, 10), value: 3, timescale: 10)
    assertFields(time(-7, 3) + time(2, 3), value: -5, timescale: 3)
  }

  func testAdd_differentTimescales_usesLeastCommonMultiple() {
    assertFields(time(1, 2) + time(1, 3), value: 5, timescale: 6)
    assertFields(time(1, 4) + time(1, 6), value: 5, timescale: 12)
    assertFields(time(3, 600) + time(1, 90_000), value: 451, timescale: 90_000)
    assertFields(
      time(1, 1_000) + time(1, 1_000_000_000), value: 1_000_001, timescale: 1_000_000_000)
  }

  func testSubtract_differentTimescales_isExact() {
    assertFields(time(1, 2) - time(1, 3), value: 1, timescale: 6)
    assertFields(time(1, 3) - time(1, 2), value: -1, timescale: 6)
    assertFields(time(0, 7) - time(5, 14), value: -5, timescale: 14)
  }

  func testAdd_lcmOverflowingInt32_usesLargerTimescaleAndRounds() {
    let larger: Int32 = 1_000_000_007
    let smaller: Int32 = 999_999_937
    // 1/larger + 1/smaller = (larger + smaller) / (larger * smaller) ≈ 2.00000007 / larger.
    assertFields(time(1, larger) + time(1, smaller), value: 2, timescale: larger, rounded: true)
    assertFields(time(1, smaller) + time(1, larger), value: 2, timescale: larger, rounded: true)
    assertFields(time(-1, smaller) - time(1, larger), value: -2, timescale: larger, rounded: true)
  }

  func testAdd_lcmOverflowingInt32_exactResult_isNotMarkedRounded() {
    let larger: Int32 = 1_000_000_007
    let smaller: Int32 = 999_999_937
    assertFields(time(5, larger) + time(0, smaller), value: 5, timescale: larger)
    // 2 s in both scales: exact in the larger one.
    assertFields(
      time(2 * Int64(larger), larger) + time(0, smaller), value: 2 * Int64(larger),
      timescale: larger)
    assertFields(
      time(Int64(smaller), smaller) + time(Int64(larger), larger), value: 2 * Int64(larger),
      timescale: larger)
  }

  func testAdd_lcmOverflowingInt32_roundsExactHalfAwayFromZero() {
    let scaleA: Int32 = 1_162_261_467  // 3^19
    let scaleB: Int32 = 1_073_741_824  // 2^30
    // lcm = 3^19 * 2^30 overflows Int32; result scale is 3^19.
    // value 2^29 at 2^30 is exactly 1/2 s, which in 3^19 units is 3^19 / 2 = 581130733.5.
    let half = time(0, scaleA) + time(536_870_912, scaleB)
    assertFields(half, value: 581_130_734, timescale: scaleA, rounded: true)
    let negativeHalf = time(0, scaleA) - time(536_870_912, scaleB)
    assertFields(negativeHalf, value: -581_130_734, timescale: scaleA, rounded: true)
  }

  func testAdd_overflowingInt64_saturatesToInfinity() {
    XCTAssertTrue((time(.max, 1) + time(1, 1)).isPositiveInfinity)
    XCTAssertTrue((time(.min, 1) + time(-1, 1)).isNegativeInfinity)
    XCTAssertTrue((time(.min, 1) - time(1, 1)).isNegativeInfinity)
    XCTAssertTrue((time(.max, 1) - time(-1, 1)).isPositiveInfinity)
    XCTAssertTrue((time(.max, 1) + time(1, 2)).isPositiveInfinity)
    XCTAssertTrue((time(.min, 3) + time(-1, 2)).isNegativeInfinity)
    XCTAssertTrue((time(.max, 1_000_000_007) + time(.max, 999_999_937)).isPositiveInfinity)
  }

  func testAdd_nearInt64Limits_staysExact() {
    assertFields(time(.max, 1) + time(-1, 1), value: .max - 1, timescale: 1)
    assertFields(time(.max, 1) + time(.min, 1), value: -1, timescale: 1)
    assertFields(time(.min, 1) - time(.min, 1), value: 0, timescale: 1)
    assertFields(time(0, 1) - time(.max, 1), value: -.max, timescale: 1)
  }

  func testAdd_carriesRoundedFlagFromOperands() {
    let rounded = time(1, 3).convertScale(10)
    XCTAssertTrue(rounded.hasBeenRounded)
    assertFields(rounded + time(1, 10), value: 4, timescale: 10, rounded: true)
    assertFields(time(1, 10) - rounded, value: -2, timescale: 10, rounded: true)
  }

  func testAdd_nonNumericOperands_followCMTimeRules() {
    let samples: [String: MediaTime] = [
      "N": time(3, 2), "+inf": .positiveInfinity, "-inf": .negativeInfinity,
      "indef": .indefinite, "invalid": .invalid,
    ]
    let sums: [String: [String: String]] = [
      "N": ["N": "N", "+inf": "+inf", "-inf": "-inf", "indef": "indef", "invalid": "invalid"],
      "+inf": [
        "N": "+inf", "+inf": "+inf", "-inf": "invalid", "indef": "indef", "invalid": "invalid",
      ],
      "-inf": [
        "N": "-inf", "+inf": "invalid", "-inf": "-inf", "indef": "indef", "invalid": "invalid",
      ],
      "indef": [
        "N": "indef", "+inf": "indef", "-inf": "indef", "indef": "indef", "invalid": "invalid",
      ],
      "invalid": [
        "N": "invalid", "+inf": "invalid", "-inf": "invalid", "indef": "invalid",
        "invalid": "invalid",
      ],
    ]
    let differences: [String: [String: String]] = [
      "N": ["N": "N", "+inf": "-inf", "-inf": "+inf", "indef": "indef", "invalid": "invalid"],
      "+inf": [
        "N": "+inf", "+inf": "invalid", "-inf": "+inf", "indef": "indef", "invalid": "invalid",
      ],
      "-inf": [
        "N": "-inf", "+inf": "-inf", "-inf": "invalid", "indef": "indef", "invalid": "invalid",
      ],
      "indef": [
        "N": "indef", "+inf": "indef", "-inf": "indef", "indef": "indef", "invalid": "invalid",
      ],
      "invalid": [
        "N": "invalid", "+inf": "invalid", "-inf": "invalid", "indef": "invalid",
        "invalid": "invalid",
      ],
    ]
    for (leftName, left) in samples {
      for (rightName, right) in samples {
        XCTAssertEqual(
          kindName(left + right), sums[leftName]?[rightName], "\(leftName) + \(rightName)")
        XCTAssertEqual(
          kindName(left - right), differences[leftName]?[rightName], "\(leftName) - \(rightName)")
      }
    }
  }

  func testCompoundAssignment() {
    var t = time(1, 2)
    t += time(1, 3)
    assertFields(t, value: 5, timescale: 6)
    t -= time(5, 6)
    XCTAssertEqual(t, .zero)
  }

  func testNegate() {
    assertFields(-time(3, 2), value: -3, timescale: 2)
    assertFields(-time(-3, 2), value: 3, timescale: 2)
    assertFields(-time(.max, 7), value: -.max, timescale: 7)
    XCTAssertTrue((-time(.min, 1)).isPositiveInfinity)
    XCTAssertTrue((-MediaTime.positiveInfinity).isNegativeInfinity)
    XCTAssertTrue((-MediaTime.negativeInfinity).isPositiveInfinity)
    XCTAssertTrue((-MediaTime.indefinite).isIndefinite)
    XCTAssertFalse((-MediaTime.invalid).isValid)
  }

  func testMultipliedByInteger_keepsTimescale() {
    assertFields(time(3, 10).multiplied(by: 4), value: 12, timescale: 10)
    assertFields(time(3, 10) * -4, value: -12, timescale: 10)
    assertFields(4 * time(3, 10), value: 12, timescale: 10)
    assertFields(time(3, 10) * 0, value: 0, timescale: 10)
  }

  func testMultipliedByInteger_overflowSaturates() {
    XCTAssertTrue((time(.max, 1) * 2).isPositiveInfinity)
    XCTAssertTrue((time(.max, 1) * -2).isNegativeInfinity)
    XCTAssertTrue((time(.min, 1) * -1).isPositiveInfinity)
    XCTAssertTrue((time(2, 1) * .min).isNegativeInfinity)
    assertFields(time(-1, 1) * .max, value: -.max, timescale: 1)
  }

  func testMultipliedByInteger_nonNumeric() {
    XCTAssertTrue((MediaTime.positiveInfinity * 3).isPositiveInfinity)
    XCTAssertTrue((MediaTime.positiveInfinity * -3).isNegativeInfinity)
    XCTAssertTrue((MediaTime.negativeInfinity * -3).isPositiveInfinity)
    XCTAssertFalse((MediaTime.positiveInfinity * 0).isValid)
    XCTAssertTrue((MediaTime.indefinite * 5).isIndefinite)
    XCTAssertFalse((MediaTime.invalid * 5).isValid)
  }

  func testMultipliedByRatio_keepsTimescaleAndRounds() {
    assertFields(
      time(10, 30).multiplied(byRatio: 1, denominator: 3), value: 3, timescale: 30, rounded: true)
    assertFields(time(9, 30).multiplied(byRatio: 2, denominator: 3), value: 6, timescale: 30)
    assertFields(
      time(10, 1).multiplied(byRatio: 1, denominator: -4), value: -3, timescale: 1, rounded: true)
    assertFields(
      time(10, 1).multiplied(byRatio: 1, denominator: -4, rounding: .roundTowardZero), value: -2,
      timescale: 1, rounded: true)
    assertFields(time(10, 1).multiplied(byRatio: -3, denominator: -2), value: 15, timescale: 1)
  }

  func testMultipliedByRatio_usesWideIntermediates() {
    assertFields(time(.max, 1).multiplied(byRatio: 3, denominator: 3), value: .max, timescale: 1)
    assertFields(
      time(.min, 1).multiplied(byRatio: .max, denominator: .max), value: .min, timescale: 1)
    assertFields(
      time(.max, 1).multiplied(byRatio: .min, denominator: .min), value: .max, timescale: 1)
    XCTAssertTrue(time(.max, 1).multiplied(byRatio: 3, denominator: 2).isPositiveInfinity)
    XCTAssertTrue(time(.min, 1).multiplied(byRatio: -1, denominator: 1).isPositiveInfinity)
  }

  func testMultipliedByRatio_zeroDenominatorIsInvalid() {
    XCTAssertFalse(time(1, 1).multiplied(byRatio: 1, denominator: 0).isValid)
    XCTAssertFalse(MediaTime.positiveInfinity.multiplied(byRatio: 1, denominator: 0).isValid)
    XCTAssertFalse(MediaTime.indefinite.multiplied(byRatio: 1, denominator: 0).isValid)
  }

  func testMultipliedByRatio_nonNumeric() {
    XCTAssertTrue(
      MediaTime.positiveInfinity.multiplied(byRatio: 1, denominator: 2).isPositiveInfinity)
    XCTAssertTrue(
      MediaTime.positiveInfinity.multiplied(byRatio: 1, denominator: -2).isNegativeInfinity)
    XCTAssertTrue(
      MediaTime.negativeInfinity.multiplied(byRatio: -1, denominator: 2).isPositiveInfinity)
    XCTAssertFalse(MediaTime.negativeInfinity.multiplied(byRatio: 0, denominator: 2).isValid)
    XCTAssertTrue(MediaTime.indefinite.multiplied(byRatio: 3, denominator: 2).isIndefinite)
    XCTAssertFalse(MediaTime.invalid.multiplied(byRatio: 3, denominator: 2).isValid)
  }

  func testAbsoluteValue() {
    assertFields(time(-3, 2).absoluteValue, value: 3, timescale: 2)
    assertFields(MediaTime.abs(time(3, 2)), value: 3, timescale: 2)
    assertFields(MediaTime.abs(time(0, 5)), value: 0, timescale: 5)
    XCTAssertTrue(time(.min, 1).absoluteValue.isPositiveInfinity)
    XCTAssertTrue(MediaTime.negativeInfinity.absoluteValue.isPositiveInfinity)
    XCTAssertTrue(MediaTime.positiveInfinity.absoluteValue.isPositiveInfinity)
    XCTAssertTrue(MediaTime.indefinite.absoluteValue.isIndefinite)
    XCTAssertFalse(MediaTime.invalid.absoluteValue.isValid)
  }

  func testInitWithNonPositiveTimescale_isInvalid() {
    XCTAssertFalse(time(1, 0).isValid)
    XCTAssertFalse(time(1, -5).isValid)
    XCTAssertFalse(time(1, 0).isNumeric)
    XCTAssertFalse((time(1, 0) + time(1, 1)).isValid)
  }

  func testContradictoryFlags_readAsDocumented() {
    var both = time(1, 1)
    both.flags = [.valid, .positiveInfinity, .negativeInfinity]
    XCTAssertFalse(both.isValid)
    var indefiniteAndInfinite = time(1, 1)
    indefiniteAndInfinite.flags = [.valid, .positiveInfinity, .indefinite]
    XCTAssertTrue(indefiniteAndInfinite.isIndefinite)
    var validWithoutTimescale = MediaTime.zero
    validWithoutTimescale.timescale = 0
    XCTAssertFalse(validWithoutTimescale.isValid)
    var infinityWithoutValid = MediaTime.positiveInfinity
    infinityWithoutValid.flags.remove(.valid)
    XCTAssertFalse(infinityWithoutValid.isValid)
    XCTAssertFalse(infinityWithoutValid.isPositiveInfinity)
  }
}
