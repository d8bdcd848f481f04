import PlayheadCore
import PlayheadEngine
import XCTest

/// With little buffered (`lowBufferSegments`, 3 segments by default), or when the last
/// transfer came in slower than the level it loaded, the controller plans with the lower
/// of its estimate and the last transfer's speed: a link that has just fallen is believed
/// at once, before the smoothed estimate follows it down.
final class ABRLowBufferTests: XCTestCase {
  private let ladder = ABRTestLadder.levels

  /// 2 s segments; a 5 Mbit/s estimate whose last transfer ran at 0.7 Mbit/s, loading
  /// `current` (600 kbit/s by default: the transfer carried its level).
  private func level(
    buffer: Double, current: Int = 1, controller: DefaultABRController = DefaultABRController()
  ) -> Int {
    var context = ABRTestLadder.context(throughput: 5_000_000, buffer: buffer, current: current)
    context.lastTransferBitsPerSecond = 700_000
    return controller.selectLevel(levels: ladder, context: context).level
  }

  func testBelowThreeSegments_theLastTransferDecides() {
    // 0.9 × 0.7 Mbit/s carries the 600 kbit/s level's 1.2 Mbit in 1.9 s of a 2 s segment.
    XCTAssertEqual(level(buffer: 4), 1)
  }

  func testFromThreeSegments_theEstimateDecides() {
    XCTAssertEqual(level(buffer: 6), 4)
  }

  func testTurnedOff_theEstimateDecides() {
    let controller = DefaultABRController(configuration: .init(lowBufferSegments: 0))
    XCTAssertEqual(level(buffer: 4, controller: controller), 4)
  }

  func testALastTransferFarBelowItsLevel_decidesAtAnyBuffer() {
    // The 4 Mbit/s level's last segment came in at 0.7 Mbit/s, under 70 % of the level:
    // not carried, however much is buffered and whatever the smoothed estimate says.
    for buffer in [4.0, 12, 28] {
      XCTAssertEqual(level(buffer: buffer, current: 4), 1, "at \(buffer) s of buffer")
    }
    let controller = DefaultABRController(configuration: .init(lowBufferSegments: 0))
    XCTAssertEqual(level(buffer: 12, current: 4, controller: controller), 1)
  }

  func testALastTransferSlightlyBelowItsLevel_isAbsorbedByADeepBuffer() {
    // 3.2 Mbit/s for the 4 Mbit/s level: 2.5 s for 2 s of media.
    func decide(buffer: Double, controller: DefaultABRController) -> Int {
      var context = ABRTestLadder.context(throughput: 5_000_000, buffer: buffer, current: 4)
      context.lastTransferBitsPerSecond = 3_200_000
      return controller.selectLevel(levels: ladder, context: context).level
    }
    // With 28 s buffered one such segment leaves 27.5 s: the estimate decides.
    XCTAssertEqual(decide(buffer: 28, controller: DefaultABRController()), 4)
    // Below three segments the last transfer decides.
    XCTAssertEqual(decide(buffer: 4, controller: DefaultABRController()), 3)
    // A run of slow downloads, when asked for, is evidence at any buffer.
    let counting = DefaultABRController(configuration: .init(slowTransferRun: 2))
    XCTAssertEqual(decide(buffer: 28, controller: counting), 4)
    for _ in 0..<2 {
      counting.didCompleteDownload(
        CompletedDownload(
          level: 4, bytes: 1_000_000, duration: MediaTime(value: 3, timescale: 1),
          timeToFirstByte: nil, segmentDuration: MediaTime(value: 2, timescale: 1)))
    }
    XCTAssertEqual(decide(buffer: 28, controller: counting), 3)
  }

  func testAFasterLastTransfer_liftsTheLevelByRiseStepLevelsAtMost() {
    var context = ABRTestLadder.context(throughput: 700_000, buffer: 5, current: 1)
    context.lastTransferBitsPerSecond = 50_000_000
    let oneStep = DefaultABRController(configuration: .init(riseStepLevels: 1))
    XCTAssertEqual(oneStep.selectLevel(levels: ladder, context: context).level, 2)
    let estimateOnly = DefaultABRController(configuration: .init(riseStepLevels: 0))
    XCTAssertEqual(estimateOnly.selectLevel(levels: ladder, context: context).level, 1)
    // The default lifts up to three levels; the insufficient-buffer guard, which plans
    // with the estimate, still bounds it (4 Mbit/s would take 11 s of a 12 s buffer).
    var deeper = ABRTestLadder.context(throughput: 700_000, buffer: 12, current: 1)
    deeper.lastTransferBitsPerSecond = 50_000_000
    XCTAssertEqual(oneStep.selectLevel(levels: ladder, context: deeper).level, 2)
    XCTAssertEqual(DefaultABRController().selectLevel(levels: ladder, context: deeper).level, 3)
  }

  func testANegativeSetting_isClampedToOff() {
    let controller = DefaultABRController(configuration: .init(lowBufferSegments: -2))
    XCTAssertEqual(controller.configuration.lowBufferSegments, 0)
  }
}
