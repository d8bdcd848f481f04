import Foundation
import PlayheadDASH
import XCTest

/// Segment templates and timelines: identifiers, widths, repeats, open repeats, and a huge
/// timeline walked without memory.
final class MPDSegmentTests: XCTestCase {
  func testTemplateIdentifiersAndWidths() throws {
    let template = try MPDURLTemplate(
      "$RepresentationID$/seg-$Number%05d$-$Bandwidth$-$Time$$$.m4s")
    XCTAssertTrue(template.usesNumber)
    XCTAssertTrue(template.usesTime)
    XCTAssertEqual(
      template.expand(representationID: "v1", bandwidth: 500_000, number: 42, time: 90_000),
      "v1/seg-00042-500000-90000$.m4s")
    XCTAssertEqual(
      try MPDURLTemplate("a_$Number%03d$.m4s").expand(
        representationID: "x", bandwidth: 1, number: 12_345), "a_12345.m4s", "wider than the width")
    for bad in ["a$Number.m4s", "$Foo$.m4s", "$Number%5d$", "$RepresentationID%02d$", "$Time%0d$"] {
      XCTAssertThrowsError(try MPDURLTemplate(bad), bad)
    }
  }

  func testTimeline_repeatsOpenRepeatsAndNumbers() {
    let timeline = MPDSegmentTimeline(entries: [
      .init(time: 0, duration: 145_145), .init(duration: 270_270, repeatCount: 2),
      .init(duration: 91_091), .init(time: 1_000_000, duration: 100_000, repeatCount: -1),
      .init(time: 1_500_000, duration: 250_000, repeatCount: -1),
    ])
    let segments = Array(timeline.segments(startNumber: 1, until: 2_000_000))
    XCTAssertEqual(segments.prefix(5).map(\.time), [0, 145_145, 415_415, 685_685, 955_955])
    XCTAssertEqual(segments.prefix(5).map(\.number), [1, 2, 3, 4, 5])
    // The first open repeat fills up to the next t (5 of 100,000), the last up to the end.
    XCTAssertEqual(
      segments.dropFirst(5).map(\.time),
      [1_000_000, 1_100_000, 1_200_000, 1_300_000, 1_400_000, 1_500_000, 1_750_000])
    XCTAssertEqual(segments.last?.number, 12)
  }

  func testAHugeTimeline_isWalkedLazily() {
    let timeline = MPDSegmentTimeline(entries: [
      .init(time: 0, duration: 2, repeatCount: 5_000_000 - 1)
    ])
    var count = 0
    var last: MPDSegmentTimeline.Segment?
    for segment in timeline.segments(startNumber: 1) {
      count += 1
      last = segment
    }
    XCTAssertEqual(count, 5_000_000)
    XCTAssertEqual(last?.time, 9_999_998)
    XCTAssertEqual(last?.number, 5_000_000)
  }

  func testCounting_agreesWithTheWalk_andCostsNothingForHugeRepeats() {
    let timeline = MPDSegmentTimeline(entries: [
      .init(time: 0, duration: 145_145), .init(duration: 270_270, repeatCount: 2),
      .init(time: 1_000_000, duration: 100_000, repeatCount: -1),
      .init(time: 1_500_000, duration: 250_000, repeatCount: -1),
    ])
    for end in [nil, 2_000_000, 1_250_000, 500_000, 0] as [Int64?] {
      XCTAssertEqual(
        timeline.count(until: end, limit: 1_000),
        Int64(Array(timeline.segments(startNumber: 1, until: end)).count),
        "\(String(describing: end))")
    }
    let huge = MPDSegmentTimeline(entries: [
      .init(time: 0, duration: 1, repeatCount: 999_999_999_999)
    ])
    XCTAssertNil(huge.count(limit: 10_000_000), "past the limit")
    XCTAssertEqual(huge.count(until: 5_000_000_000, limit: 10_000_000_000), 5_000_000_000)
  }
}
