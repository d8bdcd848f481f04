import PlayheadCore
import XCTest

final class MediaTimeComparisonTests: XCTestCase {
  /// Times in strictly increasing order, per CMTimeCompare.
  private let ordered: [MediaTime] = [
    .negativeInfinity,
    time(.min, 1),
    time(-1, 2),
    time(-1, 3),
    .zero,
    time(1, Int32.max),
    time(1, 3),
    time(1, 2),
    time(.max - 1, Int32.max),
    time(.max, Int32.max),
    time(.max, 1),
    .positiveInfinity,
    .indefinite,
    .invalid,
  ]

  func testOrder_ofAllKinds() {
    for (i, a) in ordered.enumerated() {
      for (j, b) in ordered.enumerated() {
        XCTAssertEqual(a < b, i < j, "\(a) < \(b)")
        XCTAssertEqual(a == b, i == j, "\(a) == \(b)")
        XCTAssertEqual(a > b, i > j, "\(a) > \(b)")
        XCTAssertEqual(a <= b, i <= j, "\(a) <= \(b)")
      }
    }
  }

  func testSorting_restoresOrder() {
    let shuffled =
      ordered.reversed() + ordered.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let sorted = shuffled.sorted()
    XCTAssertEqual(sorted.count, shuffled.count)
    for pair in zip(sorted, sorted.dropFirst()) {
      XCTAssertLessThanOrEqual(pair.0, pair.1)
    }
    XCTAssertEqual(sorted.first.map(kindName), "-inf")
    XCTAssertEqual(sorted.last.map(kindName), "invalid")
  }

  func testEquality_isRational() {
    XCTAssertEqual(time(1, 2), time(2, 4))
    XCTAssertEqual(time(1, 2), time(500, 1_000))
    XCTAssertEqual(time(-3, 6), time(-1, 2))
    XCTAssertEqual(time(0, 1), time(0, 90_000))
    XCTAssertNotEqual(time(1, 2), time(-1, 2))
    XCTAssertNotEqual(time(.max, Int32.max), time(.max - 1, Int32.max))
  }

  func testEquality_ignoresRoundedFlag() {
    let rounded = time(1, 3).convertScale(1)
    XCTAssertTrue(rounded.hasBeenRounded)
    XCTAssertEqual(rounded, .zero)
  }

  func testEquality_ofSpecialTimesIgnoresOtherFields() {
    var infinity = time(7, 3)
    infinity.flags = [.valid, .positiveInfinity]
    XCTAssertEqual(infinity, .positiveInfinity)
    XCTAssertEqual(time(5, 0), .invalid)
    XCTAssertEqual(time(5, -1), time(9, 0))
    XCTAssertEqual(MediaTime.invalid, MediaTime.invalid)
    var indefinite = MediaTime.indefinite
    indefinite.value = 42
    indefinite.flags.insert(.hasBeenRounded)
    XCTAssertEqual(indefinite, .indefinite)
    XCTAssertNotEqual(MediaTime.indefinite, .invalid)
    XCTAssertNotEqual(MediaTime.positiveInfinity, .negativeInfinity)
    XCTAssertNotEqual(MediaTime.zero, .invalid)
  }

  func testHash_isConsistentWithEquality() {
    let groups: [[MediaTime]] = [
      [time(1, 2), time(2, 4), time(500, 1_000), time(1, 3).convertScale(6) + time(1, 6)],
      [time(0, 1), time(0, 7), .zero, time(0, Int32.max)],
      [time(-1, 2), time(-3, 6)],
      [time(.min, 1), time(.min, 1).convertScale(1)],
      [time(.max, Int32.max)],
      [
        .positiveInfinity,
        {
          var t = time(9, 9)
          t.flags = [.valid, .positiveInfinity]
          return t
        }(),
      ],
      [.negativeInfinity],
      [
        .indefinite,
        {
          var t = MediaTime.indefinite
          t.value = 3
          return t
        }(),
      ],
      [.invalid, time(5, 0), time(1, -1)],
    ]
    for group in groups {
      for member in group {
        XCTAssertEqual(member.hashValue, group[0].hashValue, "\(member.debugDescription)")
        XCTAssertEqual(member, group[0])
      }
    }
    let set = Set(groups.flatMap { $0 })
    XCTAssertEqual(set.count, groups.count)
    for (i, a) in groups.enumerated() {
      for (j, b) in groups.enumerated() where i != j {
        XCTAssertNotEqual(a[0], b[0])
      }
    }
  }

  func testMinimumAndMaximum() {
    XCTAssertEqual(MediaTime.minimum(time(1, 2), time(1, 3)), time(1, 3))
    XCTAssertEqual(MediaTime.maximum(time(1, 2), time(1, 3)), time(1, 2))
    XCTAssertEqual(MediaTime.minimum(.negativeInfinity, time(3, 1)), .negativeInfinity)
    XCTAssertEqual(MediaTime.maximum(.positiveInfinity, time(3, 1)), .positiveInfinity)
    XCTAssertEqual(MediaTime.maximum(.indefinite, .positiveInfinity), .indefinite)
    XCTAssertFalse(MediaTime.minimum(.invalid, time(3, 1)).isValid)
    XCTAssertFalse(MediaTime.minimum(time(3, 1), .invalid).isValid)
    XCTAssertFalse(MediaTime.maximum(.invalid, .negativeInfinity).isValid)
    XCTAssertEqual(Swift.min(time(1, 2), time(1, 3)), time(1, 3))
  }
}
