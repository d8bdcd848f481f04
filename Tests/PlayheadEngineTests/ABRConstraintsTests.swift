import PlayheadCore
import PlayheadEngine
import XCTest

final class ABRConstraintsTests: XCTestCase {
  let ladder = ABRTestLadder.levels

  func testEligibleLevels_withNoCaps_areAllLevelsAscending() {
    let shuffled = [ladder[3], ladder[0], ladder[4], ladder[1], ladder[2]]
    XCTAssertEqual(ABRConstraints.none.eligibleLevels(shuffled).map(\.index), [0, 1, 2, 3, 4])
  }

  func testPeakBitRateCap_removesLevelsAboveIt() {
    let caps = ABRConstraints(preferredPeakBitRate: 1_200_000)
    XCTAssertEqual(caps.eligibleLevels(ladder).map(\.index), [0, 1, 2])
  }

  func testPeakBitRate_zeroOrNegative_meansNoCap() {
    XCTAssertEqual(ABRConstraints(preferredPeakBitRate: 0).eligibleLevels(ladder).count, 5)
    XCTAssertEqual(ABRConstraints(preferredPeakBitRate: -5).eligibleLevels(ladder).count, 5)
  }

  func testMaxPixelCount_removesLargerPictures() {
    let caps = ABRConstraints(maxPixelCount: 1280 * 720)
    XCTAssertEqual(caps.eligibleLevels(ladder).map(\.index), [0, 1, 2, 3])
  }

  func testMaxPixelCount_letsLevelsOfUnknownSizePass() {
    let unknown = BitrateLevel(index: 9, bandwidth: 5_000_000)
    let caps = ABRConstraints(maxPixelCount: 100)
    XCTAssertEqual(caps.eligibleLevels([unknown]).map(\.index), [9])
    XCTAssertTrue(caps.allows(unknown))
  }

  func testPreferredMaximumResolution_capsWidthAndHeightSeparately() {
    let caps = ABRConstraints(
      preferredMaximumResolution: VideoResolution(width: 1000, height: 2000))
    XCTAssertEqual(caps.eligibleLevels(ladder).map(\.index), [0, 1])
    let portrait = BitrateLevel(index: 7, bandwidth: 1, width: 720, height: 1280)
    XCTAssertTrue(caps.allows(portrait))
    XCTAssertFalse(
      ABRConstraints(preferredMaximumResolution: VideoResolution(width: 1280, height: 720))
        .allows(portrait))
  }

  func testCaps_neverRemoveTheLowestLevel() {
    let caps = ABRConstraints(
      preferredPeakBitRate: 1, maxPixelCount: 1,
      preferredMaximumResolution: VideoResolution(width: 1, height: 1))
    XCTAssertEqual(caps.eligibleLevels(ladder).map(\.index), [0])
    XCTAssertEqual(caps.eligibleLevels([ladder[4], ladder[2]]).map(\.index), [2])
    XCTAssertEqual(caps.eligibleLevels([]).count, 0)
  }

  func testManualSelection_namesALevelOrIsIgnored() {
    XCTAssertEqual(ABRConstraints(manualLevel: 3).manualSelection(in: ladder)?.index, 3)
    XCTAssertNil(ABRConstraints(manualLevel: 42).manualSelection(in: ladder))
    XCTAssertNil(ABRConstraints.none.manualSelection(in: ladder))
  }

  func testPlannedBitrate_prefersAPositiveAverageBandwidth() {
    XCTAssertEqual(
      BitrateLevel(index: 0, bandwidth: 2_000_000, averageBandwidth: 1_500_000).plannedBitrate,
      1_500_000)
    XCTAssertEqual(
      BitrateLevel(index: 0, bandwidth: 2_000_000, averageBandwidth: 0).plannedBitrate, 2_000_000)
    XCTAssertEqual(BitrateLevel(index: 0, bandwidth: -3).plannedBitrate, 0)
  }

  func testPixelCount_isNilForMissingOrNonPositiveSizes_andSaturates() {
    XCTAssertNil(BitrateLevel(index: 0, bandwidth: 1, width: 640).pixelCount)
    XCTAssertNil(BitrateLevel(index: 0, bandwidth: 1, width: 0, height: 480).pixelCount)
    XCTAssertEqual(
      BitrateLevel(index: 0, bandwidth: 1, width: Int.max, height: 2).pixelCount, Int.max)
    XCTAssertEqual(VideoResolution(width: 1920, height: 1080).pixelCount, 2_073_600)
    XCTAssertEqual(VideoResolution(width: -1, height: 1080).pixelCount, 0)
  }

  func testEligibleLevels_orderTiesByPeakThenInputOrder() {
    let a = BitrateLevel(index: 5, bandwidth: 900, averageBandwidth: 500)
    let b = BitrateLevel(index: 6, bandwidth: 700, averageBandwidth: 500)
    let c = BitrateLevel(index: 7, bandwidth: 700, averageBandwidth: 500)
    XCTAssertEqual(ABRConstraints.none.eligibleLevels([a, b, c]).map(\.index), [6, 7, 5])
  }
}
