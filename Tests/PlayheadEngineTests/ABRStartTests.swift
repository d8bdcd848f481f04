import PlayheadCore
import PlayheadEngine
import XCTest

final class ABRStartTests: XCTestCase {
  let ladder = ABRTestLadder.levels

  private func start(
    _ preference: ABRStartPreference, throughput: Double? = nil,
    constraints: ABRConstraints = .none, levels: [BitrateLevel]? = nil,
    defaultEstimate: Int = 1_000_000
  ) -> Int {
    let controller = DefaultABRController(
      configuration: .init(startPreference: preference, defaultBandwidthEstimate: defaultEstimate))
    return controller.selectInitialLevel(
      levels: levels ?? ladder,
      context: ABRTestLadder.context(throughput: throughput, buffer: 0, constraints: constraints))
  }

  func testAutomaticStart_usesTheDefaultBandwidthEstimateWithTheSafetyFactor() {
    // 1 Mbit/s × 0.9 affords 600 kbit/s.
    XCTAssertEqual(start(.automatic), 1)
    // 3 Mbit/s × 0.9 = 2.7 Mbit/s affords 2.5 Mbit/s.
    XCTAssertEqual(start(.automatic, defaultEstimate: 3_000_000), 3)
    // Below every level: the lowest.
    XCTAssertEqual(start(.automatic, defaultEstimate: 10), 0)
  }

  func testAutomaticStart_prefersAMeasuredEstimate() {
    XCTAssertEqual(start(.automatic, throughput: 6_000_000), 4)
    XCTAssertEqual(start(.automatic, throughput: 1_500_000), 2)
    XCTAssertEqual(start(.automatic, throughput: .nan), 1)
  }

  func testBandwidthStart_takesTheHighestLevelAtOrBelowIt() {
    XCTAssertEqual(start(.bandwidth(400_000)), 0)
    XCTAssertEqual(start(.bandwidth(1_200_000)), 2)
    XCTAssertEqual(start(.bandwidth(2_499_999)), 2)
    XCTAssertEqual(start(.bandwidth(100_000_000)), 4)
    XCTAssertEqual(start(.bandwidth(1)), 0)
  }

  func testResolutionStart_takesTheHighestBitrateWithAtMostThatManyPixels() {
    XCTAssertEqual(start(.resolution(pixelCount: 1280 * 720)), 3)
    XCTAssertEqual(start(.resolution(pixelCount: 640 * 480)), 0)
    XCTAssertEqual(start(.resolution(pixelCount: 1920 * 1080)), 4)
    // Smaller than every picture: the smallest picture.
    XCTAssertEqual(start(.resolution(pixelCount: 10)), 0)
  }

  func testResolutionStart_withoutSizes_fallsBackToAutomatic() {
    let unsized = ladder.map { BitrateLevel(index: $0.index, bandwidth: $0.bandwidth) }
    XCTAssertEqual(start(.resolution(pixelCount: 1920 * 1080), levels: unsized), 1)
  }

  func testQualityStart_matchesTheLevelsOwnLabelFirst() {
    XCTAssertEqual(start(.quality("SD")), 2)
    XCTAssertEqual(start(.quality(" hd ")), 4)
    XCTAssertEqual(start(.quality("fd")), 0)
  }

  func testQualityStart_understandsTheStandardLabels() {
    let unlabelled = ladder.map {
      BitrateLevel(index: $0.index, bandwidth: $0.bandwidth, width: $0.width, height: $0.height)
    }
    XCTAssertEqual(start(.quality("FD"), levels: unlabelled), 0)
    XCTAssertEqual(start(.quality("LD"), levels: unlabelled), 1)
    XCTAssertEqual(start(.quality("SD"), levels: unlabelled), 3)
    XCTAssertEqual(start(.quality("HD"), levels: unlabelled), 4)
    XCTAssertEqual(start(.quality("720p"), levels: unlabelled), 3)
    XCTAssertEqual(start(.quality("240p"), levels: unlabelled), 0)
    XCTAssertEqual(start(.quality("OD"), levels: unlabelled), 4)
    XCTAssertEqual(start(.quality("4K"), levels: unlabelled), 4)
  }

  func testQualityStart_autoOrUnknown_fallsBackToAutomatic() {
    XCTAssertEqual(start(.quality("AUTO")), 1)
    XCTAssertEqual(start(.quality("")), 1)
    XCTAssertEqual(start(.quality("ultra")), 1)
    XCTAssertEqual(start(.quality("p")), 1)
    XCTAssertEqual(start(.quality("99999999p")), 1)
  }

  func testQualityLabelTargets() {
    XCTAssertEqual(ABRQualityLabel.target(for: "fd"), .height(360))
    XCTAssertEqual(ABRQualityLabel.target(for: "2K"), .height(1440))
    XCTAssertEqual(ABRQualityLabel.target(for: "1080P"), .height(1080))
    XCTAssertEqual(ABRQualityLabel.target(for: "od"), .highest)
    XCTAssertEqual(ABRQualityLabel.target(for: " Auto "), .automatic)
    XCTAssertNil(ABRQualityLabel.target(for: "-5p"))
    XCTAssertNil(ABRQualityLabel.target(for: "best"))
  }

  func testStart_isLimitedByCaps() {
    let capped = ABRConstraints(preferredPeakBitRate: 1_200_000)
    XCTAssertEqual(start(.quality("OD"), constraints: capped), 2)
    XCTAssertEqual(start(.bandwidth(10_000_000), constraints: capped), 2)
    XCTAssertEqual(start(.automatic, throughput: 50_000_000, constraints: capped), 2)
    XCTAssertEqual(
      start(.resolution(pixelCount: 1920 * 1080), constraints: .init(maxPixelCount: 854 * 480)),
      1)
  }

  func testStart_manualSelectionWins() {
    let manual = ABRConstraints(preferredPeakBitRate: 300_000, manualLevel: 3)
    XCTAssertEqual(start(.quality("FD"), constraints: manual), 3)
    XCTAssertEqual(start(.automatic, throughput: 100, constraints: manual), 3)
  }

  func testStart_withNoLevels_isMinusOne() {
    XCTAssertEqual(start(.automatic, levels: []), -1)
    let decision = DefaultABRController().selectLevel(
      levels: [], context: ABRTestLadder.context(throughput: 1e6, buffer: 10))
    XCTAssertEqual(decision, ABRDecision(level: -1, reason: .noLevels))
  }

  func testStart_returnsLevelIndicesNotPositions() {
    let renumbered = ladder.map {
      BitrateLevel(index: 100 + $0.index, bandwidth: $0.bandwidth, height: $0.height)
    }.reversed()
    XCTAssertEqual(start(.bandwidth(1_300_000), levels: Array(renumbered)), 102)
  }
}
