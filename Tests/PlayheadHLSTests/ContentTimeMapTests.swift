import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Content time with the ads taken out, against playlist time.
final class ContentTimeMapTests: XCTestCase {
  private func period(_ start: Int64, _ duration: Int64?) -> AdPeriod {
    AdPeriod(
      id: "p\(start)", source: .cueOut, start: time(start), duration: duration.map { time($0) },
      durationSource: duration == nil ? nil : .markerDuration, segments: 0..<0, isComplete: true)
  }

  /// 60 s with ads at 10–20 s and 30–35 s.
  private var timeline: ContentTimeMap {
    ContentTimeMap(periods: [period(30, 5), period(10, 10)], playlistDuration: time(60))
  }

  func testContentTime_standsStillDuringAds() {
    let expected: [(Int64, Int64)] = [
      (0, 0), (5, 5), (10, 10), (15, 10), (20, 10), (25, 15), (30, 20), (32, 20), (35, 20),
      (40, 25), (60, 45), (-3, -3),
    ]
    for (playlist, content) in expected {
      XCTAssertEqual(
        timeline.contentTime(forPlaylistTime: time(playlist)), time(content), "at \(playlist)")
    }
    XCTAssertEqual(timeline.contentDuration, time(45))
    XCTAssertEqual(timeline.totalAdDuration, time(15))
  }

  func testPlaylistTime_landsAfterABreakAtItsContentTime() {
    let expected: [(Int64, Int64)] = [
      (0, 0), (9, 9), (10, 20), (15, 25), (19, 29), (20, 35), (25, 40), (45, 60), (-1, -1),
    ]
    for (content, playlist) in expected {
      XCTAssertEqual(
        timeline.playlistTime(forContentTime: time(content)), time(playlist), "at \(content)")
    }
  }

  func testMapping_roundTripsForContentTimes() {
    for tenths in 0...450 {
      let content = MediaTime(value: Int64(tenths), timescale: 10)
      let back = timeline.contentTime(
        forPlaylistTime: timeline.playlistTime(forContentTime: content))
      XCTAssertEqual(back, content, "\(content)")
    }
  }

  func testAdRanges_areClippedMergedAndOpenOnesRunToTheEnd() {
    let merged = ContentTimeMap(
      periods: [period(10, 10), period(15, 10), period(-5, 8), period(50, nil)],
      playlistDuration: time(60))
    XCTAssertEqual(
      merged.adRanges,
      [
        MediaTimeRange(start: time(0), end: time(3)),
        MediaTimeRange(start: time(10), end: time(25)),
        MediaTimeRange(start: time(50), end: time(60)),
      ])
    XCTAssertEqual(merged.contentDuration, time(32))
    XCTAssertEqual(
      merged.adRange(containing: time(12)), MediaTimeRange(start: time(10), end: time(25)))
    XCTAssertNil(merged.adRange(containing: time(25)))
    XCTAssertNil(merged.adRange(containing: time(5)))
  }

  func testFromAPlaylist() throws {
    let playlist = try AdPlaylist.parse(
      AdPlaylist.text(count: 6, markers: [1: "#EXT-X-CUE-OUT:8", 3: "#EXT-X-CUE-IN"]))
    let timeline = ContentTimeMap(playlist: playlist)
    XCTAssertEqual(timeline.playlistDuration, time(24))
    XCTAssertEqual(timeline.contentDuration, time(16))
    XCTAssertEqual(timeline.contentTime(forPlaylistTime: time(14)), time(6))
    XCTAssertEqual(timeline.playlistTime(forContentTime: time(4)), time(12))
  }
}
