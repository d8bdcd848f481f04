import PlayheadCore
import PlayheadEngine
import XCTest

/// With little buffered (`lowBufferSegments`, 3 segments by default), the controller
/// plans with the lower of its estimate and the last transfer's speed: a link that has
/// just fallen is believed at once, before the smoothed estimate follows it down.
final class ABRLowBufferTests: XCTestCase {
  private let ladder = ABRTestLadder.levels

  /// 2 s segments; a 5 Mbit/s estimate whose last transfer ran at 0.7 Mbit/s.
  private func level(
    buffer: Double, controller: DefaultABRController = DefaultABRController()
  ) -> Int {
    var context = ABRTestLadder.context(throughput: 5_000_000, buffer: buffer, current: 4)
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

  func testTurnedOff_theEstimateAlwaysDecides() {
    let controller = DefaultABRController(configuration: .init(lowBufferSegments: 0))
    XCTAssertEqual(level(buffer: 4, controller: controller), 4)
  }

  func testAFasterLastTransfer_isNotBelieved() {
    var context = ABRTestLadder.context(throughput: 700_000, buffer: 5, current: 1)
    context.lastTransferBitsPerSecond = 50_000_000
    XCTAssertEqual(DefaultABRController().selectLevel(levels: ladder, context: context).level, 1)
  }

  func testANegativeSetting_isClampedToOff() {
    let controller = DefaultABRController(configuration: .init(lowBufferSegments: -2))
    XCTAssertEqual(controller.configuration.lowBufferSegments, 0)
  }
}
