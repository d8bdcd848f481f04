import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

@testable import PlayheadEngine

/// The live timeline: segment times survive reloads, windows slide, gaps are bridged.
final class HLSLiveTimelineTests: XCTestCase {
  private func playlist(first: Int, durations: [Double], event: Bool = false) throws
    -> MediaPlaylist
  {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n"
    if event { text += "#EXT-X-PLAYLIST-TYPE:EVENT\n" }
    text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n"
    for (offset, duration) in durations.enumerated() {
      text += "#EXTINF:\(duration),\nseg\(first + offset).ts\n"
    }
    let parsed = try PlaylistParser.parse(
      Data(text.utf8), url: URL(string: "http://example.test/live.m3u8")!)
    guard case .media(let media) = parsed else {
      XCTFail("not a media playlist")
      throw CocoaError(.fileReadCorruptFile)
    }
    return media
  }

  private func t(_ seconds: Double) -> MediaTime {
    MediaTime(seconds: seconds, preferredTimescale: 1000)
  }

  func testFirstPlaylistStartsAtZero() throws {
    let timeline = HLSLiveTimeline(try playlist(first: 10, durations: [4, 4, 3]))
    XCTAssertEqual(timeline.range, MediaTimeRange(start: .zero, end: t(11)))
    XCTAssertEqual(timeline.start(ofSequence: 12), t(8))
    XCTAssertEqual(timeline.start(ofSequence: 13), t(11), "the end")
    XCTAssertNil(timeline.start(ofSequence: 9))
    XCTAssertEqual(timeline.sequence(containing: t(-1)), 10)
    XCTAssertEqual(timeline.sequence(containing: t(4)), 11)
    XCTAssertEqual(timeline.sequence(containing: t(7.9)), 11)
    XCTAssertEqual(timeline.sequence(containing: t(50)), 12, "past the end: the last segment")
  }

  func testSlidingReloadKeepsSegmentTimes() throws {
    var timeline = HLSLiveTimeline(try playlist(first: 10, durations: [4, 4, 3]))
    timeline.update(with: try playlist(first: 11, durations: [4, 3, 4]))
    XCTAssertEqual(timeline.range, MediaTimeRange(start: t(4), end: t(15)))
    XCTAssertEqual(timeline.start(ofSequence: 12), t(8))
  }

  func testEventReloadOnlyGrows() throws {
    var timeline = HLSLiveTimeline(try playlist(first: 0, durations: [4, 4], event: true))
    timeline.update(with: try playlist(first: 0, durations: [4, 4, 4, 2], event: true))
    XCTAssertEqual(timeline.range, MediaTimeRange(start: .zero, end: t(14)))
  }

  func testWindowThatMovedPastEverythingContinuesAtTheEnd() throws {
    var timeline = HLSLiveTimeline(try playlist(first: 10, durations: [4, 4]))
    // Segments 12 and 13 were never seen: one target duration (4 s) each.
    timeline.update(with: try playlist(first: 14, durations: [2, 2]))
    XCTAssertEqual(timeline.range, MediaTimeRange(start: t(16), end: t(20)))
  }

  func testAnchoredTimelinePlacesTheGivenSegment() throws {
    let timeline = HLSLiveTimeline(
      try playlist(first: 3, durations: [2, 2, 2]), sequence: 5, startsAt: t(30))
    XCTAssertEqual(timeline.range, MediaTimeRange(start: t(26), end: t(32)))
  }
}
