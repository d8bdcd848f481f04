import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// `X-TIMESTAMP-MAP` conversion to the media timeline, including the 33-bit wrap.
final class TimestampMapTests: XCTestCase {
  let wrap = WebVTTTimestampMap.mpegtsWrapTicks

  func testOffset_isMPEGTSSecondsMinusLocal() {
    let map = WebVTTTimestampMap(mpegts: 900_000, local: ms(1_000))
    XCTAssertEqual(map.offset(), MediaTime(value: 9, timescale: 1))
    XCTAssertEqual(map.offset().timescale, 90_000)
    XCTAssertEqual(map.mediaTime(forCueTime: ms(1_500)), ms(10_500))
  }

  func testUnwrappedMPEGTS_withoutReference_isAsWritten() {
    let map = WebVTTTimestampMap(mpegts: wrap - 90_000, local: ms(0))
    XCTAssertEqual(map.unwrappedMPEGTS(near: nil), wrap - 90_000)
    XCTAssertEqual(map.offset(near: nil), MediaTime(value: wrap - 90_000, timescale: 90_000))
  }

  func testUnwrappedMPEGTS_choosesTheWrapNearestTheReference() {
    // Written just before the wrap, while the video has already wrapped (its unwrapped
    // timeline is past 2^33): the segment belongs to the previous lap.
    let late = WebVTTTimestampMap(mpegts: wrap - 90_000, local: ms(0))
    XCTAssertEqual(late.unwrappedMPEGTS(near: wrap + 10), wrap - 90_000)
    // Written just after the wrap, with video just before it on the unwrapped timeline:
    // the segment is on the next lap.
    let early = WebVTTTimestampMap(mpegts: 90_000, local: ms(0))
    XCTAssertEqual(early.unwrappedMPEGTS(near: wrap - 45_000), wrap + 90_000)
    // Several laps later.
    XCTAssertEqual(early.unwrappedMPEGTS(near: 5 * wrap + 1_000), 5 * wrap + 90_000)
    // Before zero.
    XCTAssertEqual(late.unwrappedMPEGTS(near: 0), -90_000)
  }

  func testUnwrappedMPEGTS_valuesAbove33Bits_areReducedFirst() {
    let map = WebVTTTimestampMap(mpegts: wrap + 5, local: ms(0))
    XCTAssertEqual(map.unwrappedMPEGTS(near: 0), 5)
  }

  func testUnwrappedMPEGTS_nearInt64Limits_neverTraps() {
    let map = WebVTTTimestampMap(mpegts: wrap - 1, local: ms(0))
    XCTAssertEqual(map.unwrappedMPEGTS(near: Int64.max), Int64.max)
    XCTAssertEqual(map.unwrappedMPEGTS(near: Int64.min), Int64.min + wrap - 1)
    let zero = WebVTTTimestampMap(mpegts: 0, local: ms(0))
    XCTAssertEqual(zero.unwrappedMPEGTS(near: Int64.max), Int64.max - (wrap - 1))
    let huge = WebVTTTimestampMap(mpegts: Int64.max, local: ms(Int64.max))
    XCTAssertTrue(huge.offset(near: MediaTime(value: Int64.max, timescale: 1)).isValid)
    XCTAssertTrue(huge.offset(near: .positiveInfinity).isValid)
  }

  func testMediaTime_withReferenceInAnyTimescale() {
    let map = WebVTTTimestampMap(mpegts: 90_000, local: ms(0))
    // The video is at 26.5 h + 0.5 s, past one wrap.
    let reference = MediaTime(value: (wrap + 45_000) / 90, timescale: 1000)
    let start = map.mediaTime(forCueTime: ms(2_000), near: reference)
    XCTAssertEqual(start, MediaTime(value: wrap + 90_000 + 180_000, timescale: 90_000))
  }

  func testCuesOnMediaTimeline_shiftsEveryCue() throws {
    let document = try WebVTTParser.parse(
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:181800,LOCAL:00:00:01.000\n\n"
        + "00:01.000 --> 00:02.000 align:start\nA\n\n00:03.000 --> 00:04.500\nB\n")
    let moved = document.cuesOnMediaTimeline()
    XCTAssertEqual(moved.map(\.start), [ms(2_020), ms(4_020)])
    XCTAssertEqual(moved.map(\.end), [ms(3_020), ms(5_520)])
    XCTAssertEqual(moved.first?.settings.align, .start)
    XCTAssertEqual(moved.map(\.text), ["A", "B"])
  }

  func testCuesOnMediaTimeline_withoutMap_areUnchanged() throws {
    let document = try WebVTTParser.parse("WEBVTT\n\n00:01.000 --> 00:02.000\nA\n")
    XCTAssertEqual(
      document.cuesOnMediaTimeline(near: MediaTime(value: 3, timescale: 1)), document.cues)
  }
}
