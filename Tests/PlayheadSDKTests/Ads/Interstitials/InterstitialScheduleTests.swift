import Foundation
import PlayheadCore
import PlayheadEngine
import XCTest

/// `InterstitialSchedule.nearestSegmentBoundary`, which `X-SNAP` uses.
final class InterstitialScheduleTests: XCTestCase {
  func testNearestSegmentBoundary_takesTheCloserOne_theEarlierOnATie_andTheTimeWithoutAny() {
    let boundaries = [0, 2, 4, 6].map { SDKTesting.seconds($0) }
    let schedule = InterstitialSchedule(interstitials: [], segmentBoundaries: boundaries)
    func near(_ seconds: Double) -> Double {
      schedule.nearestSegmentBoundary(to: SDKTesting.seconds(seconds)).seconds
    }
    XCTAssertEqual(near(4.6), 4)
    XCTAssertEqual(near(5.1), 6)
    XCTAssertEqual(near(3), 2, "a tie goes to the earlier boundary")
    XCTAssertEqual(near(4), 4)
    XCTAssertEqual(near(-1), 0)
    XCTAssertEqual(near(9), 6)
    let none = InterstitialSchedule(interstitials: [])
    XCTAssertEqual(
      none.nearestSegmentBoundary(to: SDKTesting.seconds(3.3)), SDKTesting.seconds(3.3))
  }
}
