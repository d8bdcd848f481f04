import Foundation
import PlayheadCore
import XCTest

/// A range in whole seconds, `[start, end)`.
private func range(_ start: Int64, _ end: Int64) -> MediaTimeRange {
  MediaTimeRange(start: time(start, 1), end: time(end, 1))
}

final class MediaTimeRangeTests: XCTestCase {
  func testInitStartEnd_computesDuration() {
    let r = MediaTimeRange(start: time(1, 2), end: time(4, 3))
    assertFields(r.duration, value: 5, timescale: 6)
    XCTAssertEqual(r.end, time(4, 3))
    XCTAssertEqual(r.start, time(1, 2))
  }

  func testInitStartDuration_computesEnd() {
    let r = MediaTimeRange(start: time(1, 2), duration: time(1, 3))
    assertFields(r.end, value: 5, timescale: 6)
  }

  func testValidity() {
    XCTAssertTrue(range(0, 10).isValid)
    XCTAssertTrue(range(3, 3).isValid)
    XCTAssertFalse(range(5, 3).isValid)
    XCTAssertFalse(MediaTimeRange.invalid.isValid)
    XCTAssertFalse(MediaTimeRange(start: .invalid, duration: time(1, 1)).isValid)
    XCTAssertFalse(MediaTimeRange(start: .positiveInfinity, duration: time(1, 1)).isValid)
    XCTAssertFalse(MediaTimeRange(start: .zero, duration: .indefinite).isValid)
    XCTAssertFalse(MediaTimeRange(start: .zero, duration: .negativeInfinity).isValid)
    XCTAssertFalse(MediaTimeRange(start: .zero, duration: .invalid).isValid)
    let open = MediaTimeRange(start: time(5, 1), duration: .positiveInfinity)
    XCTAssertTrue(open.isValid)
    XCTAssertTrue(open.end.isPositiveInfinity)
    XCTAssertTrue(MediaTimeRange(start: time(5, 1), end: .positiveInfinity).isValid)
    XCTAssertFalse(MediaTimeRange.invalid.end.isValid)
    XCTAssertFalse(range(5, 3).end.isValid)
  }

  func testIsEmpty() {
    XCTAssertTrue(MediaTimeRange.zero.isEmpty)
    XCTAssertTrue(range(4, 4).isEmpty)
    XCTAssertTrue(MediaTimeRange(start: time(1, 2), end: time(2, 4)).isEmpty)
    XCTAssertFalse(range(4, 5).isEmpty)
    XCTAssertFalse(MediaTimeRange.invalid.isEmpty)
  }

  func testContainsTime_isHalfOpen() {
    let r = range(2, 10)
    XCTAssertTrue(r.contains(time(2, 1)))
    XCTAssertTrue(r.contains(time(9_999, 1_000)))
    XCTAssertTrue(r.contains(time(5, 1)))
    XCTAssertFalse(r.contains(time(10, 1)))
    XCTAssertFalse(r.contains(time(1_999, 1_000)))
    XCTAssertFalse(r.contains(time(-5, 1)))
    XCTAssertFalse(r.contains(.positiveInfinity))
    XCTAssertFalse(r.contains(.negativeInfinity))
    XCTAssertFalse(r.contains(.indefinite))
    XCTAssertFalse(r.contains(MediaTime.invalid))
  }

  func testContainsTime_emptyInvalidAndOpenRanges() {
    XCTAssertFalse(range(3, 3).contains(time(3, 1)))
    XCTAssertFalse(MediaTimeRange.invalid.contains(MediaTime.zero))
    XCTAssertFalse(range(5, 3).contains(time(4, 1)))
    let open = MediaTimeRange(start: time(5, 1), duration: .positiveInfinity)
    XCTAssertTrue(open.contains(time(.max, 1)))
    XCTAssertTrue(open.contains(time(5, 1)))
    XCTAssertFalse(open.contains(time(4, 1)))
    XCTAssertFalse(open.contains(.positiveInfinity))
  }

  func testContainsRange() {
    let r = range(2, 10)
    XCTAssertTrue(r.contains(range(3, 5)))
    XCTAssertTrue(r.contains(range(2, 10)))
    XCTAssertTrue(r.contains(range(2, 2)))
    XCTAssertTrue(r.contains(range(10, 10)))
    XCTAssertFalse(r.contains(range(1, 5)))
    XCTAssertFalse(r.contains(range(5, 11)))
    XCTAssertFalse(r.contains(range(11, 12)))
    XCTAssertFalse(r.contains(MediaTimeRange.invalid))
    XCTAssertFalse(MediaTimeRange.invalid.contains(range(3, 5)))
    XCTAssertTrue(MediaTimeRange(start: .zero, duration: .positiveInfinity).contains(r))
    XCTAssertFalse(r.contains(MediaTimeRange(start: time(3, 1), duration: .positiveInfinity)))
  }

  func testUnion() {
    XCTAssertEqual(range(0, 2).union(range(5, 8)), range(0, 8))
    XCTAssertEqual(range(5, 8).union(range(0, 2)), range(0, 8))
    XCTAssertEqual(range(0, 6).union(range(5, 8)), range(0, 8))
    XCTAssertEqual(range(0, 10).union(range(2, 3)), range(0, 10))
    XCTAssertEqual(range(0, 2).union(range(2, 4)), range(0, 4))
    let mixed = MediaTimeRange(start: time(1, 2), end: time(1, 1)).union(
      MediaTimeRange(start: time(2, 3), end: time(5, 3)))
    XCTAssertEqual(mixed, MediaTimeRange(start: time(1, 2), end: time(5, 3)))
    XCTAssertFalse(range(0, 2).union(.invalid).isValid)
    XCTAssertFalse(MediaTimeRange.invalid.union(range(0, 2)).isValid)
    let open = range(3, 4).union(MediaTimeRange(start: time(6, 1), duration: .positiveInfinity))
    XCTAssertEqual(open.start, time(3, 1))
    XCTAssertTrue(open.end.isPositiveInfinity)
  }

  func testIntersection() {
    XCTAssertEqual(range(0, 6).intersection(range(4, 10)), range(4, 6))
    XCTAssertEqual(range(4, 10).intersection(range(0, 6)), range(4, 6))
    XCTAssertEqual(range(0, 10).intersection(range(2, 3)), range(2, 3))
    XCTAssertEqual(
      range(0, 10).intersection(MediaTimeRange(start: time(5, 1), duration: .positiveInfinity)),
      range(5, 10))
    XCTAssertFalse(range(0, 2).intersection(.invalid).isValid)
  }

  func testIntersection_disjointIsEmptyAtLaterStart() {
    let disjoint = range(0, 2).intersection(range(5, 8))
    XCTAssertTrue(disjoint.isEmpty)
    XCTAssertEqual(disjoint.start, time(5, 1))
    let reversed = range(5, 8).intersection(range(0, 2))
    XCTAssertTrue(reversed.isEmpty)
    XCTAssertEqual(reversed.start, time(5, 1))
  }

  func testIntersection_touchingIsEmptyAtTouchPoint() {
    let touching = range(0, 2).intersection(range(2, 4))
    XCTAssertTrue(touching.isEmpty)
    XCTAssertEqual(touching.start, time(2, 1))
  }

  func testMerged_sortsAndMergesOverlappingAndTouching() {
    let input = [range(10, 12), range(0, 2), range(1, 4), range(4, 5), range(7, 8), range(11, 11)]
    XCTAssertEqual(MediaTimeRange.merged(input), [range(0, 5), range(7, 8), range(10, 12)])
  }

  func testMerged_dropsEmptyAndInvalidRanges() {
    let input = [
      range(3, 3), MediaTimeRange.invalid, range(6, 2), range(1, 2), MediaTimeRange.zero,
    ]
    XCTAssertEqual(MediaTimeRange.merged(input), [range(1, 2)])
    XCTAssertEqual(MediaTimeRange.merged([]), [])
    XCTAssertEqual(MediaTimeRange.merged([range(4, 4)]), [])
  }

  func testMerged_containedRangesAndMixedTimescales() {
    let input = [
      MediaTimeRange(start: time(0, 1), end: time(1, 2)),
      MediaTimeRange(start: time(500, 1_000), end: time(1, 1)),
      MediaTimeRange(start: time(1, 4), end: time(3, 4)),
      MediaTimeRange(start: time(90_001, 90_000), end: time(2, 1)),
    ]
    let merged = MediaTimeRange.merged(input)
    XCTAssertEqual(merged.count, 2)
    XCTAssertEqual(merged.first, range(0, 1))
    XCTAssertEqual(merged.last, MediaTimeRange(start: time(90_001, 90_000), end: time(2, 1)))
  }

  func testMerged_openRangeAbsorbsLaterOnes() {
    let open = MediaTimeRange(start: time(5, 1), duration: .positiveInfinity)
    let merged = MediaTimeRange.merged([range(20, 30), open, range(0, 1), range(4, 6)])
    XCTAssertEqual(merged.count, 2)
    XCTAssertEqual(merged.first, range(0, 1))
    XCTAssertEqual(merged.last?.start, time(4, 1))
    XCTAssertEqual(merged.last?.end.isPositiveInfinity, true)
  }

  func testHashableAndEquality_useRationalTimes() {
    let a = MediaTimeRange(start: time(1, 2), duration: time(1, 1))
    let b = MediaTimeRange(start: time(2, 4), duration: time(1_000, 1_000))
    XCTAssertEqual(a, b)
    XCTAssertEqual(Set([a, b]).count, 1)
    XCTAssertNotEqual(a, MediaTimeRange(start: time(1, 2), duration: time(2, 1)))
  }

  func testCodable_roundTrip() throws {
    for original in [range(1, 5), MediaTimeRange.zero, MediaTimeRange.invalid] {
      let data = try JSONEncoder().encode(original)
      XCTAssertEqual(try JSONDecoder().decode(MediaTimeRange.self, from: data), original)
    }
  }

  func testDescription() {
    XCTAssertEqual(MediaTimeRange(start: .zero, end: time(3, 2)).description, "[0.000s, 1.500s)")
    XCTAssertEqual(
      MediaTimeRange(start: .zero, duration: .positiveInfinity).description, "[0.000s, +infinity)")
    XCTAssertEqual(MediaTimeRange.invalid.description, "invalid range")
  }
}
