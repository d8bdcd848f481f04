import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadTestSupport
import XCTest

/// Live MPDs written by FFmpeg's dash muxer and GStreamer's dashsink
/// (`scripts/make-dash-fixtures.sh`), read at a `now` relative to their own
/// availabilityStartTime.
final class MPDLiveFixtureTests: XCTestCase {
  private func load(_ name: String) throws -> MPD {
    let file = try Fixtures.url("dash/\(name)")
    // Read as if served: relative URLs resolve against an http URL.
    let url = URL(string: "https://origin.example/live/\(name)")!
    return try MPDParser.parse(Data(contentsOf: file), url: url)
  }

  private func first(_ mpd: MPD) -> (MPDPeriod, MPDRepresentation) {
    (mpd.periods[0], mpd.periods[0].adaptationSets[0].representations[0])
  }

  func testFFmpegTimeline() throws {
    let mpd = try load("ffmpeg-live-timeline.mpd")
    XCTAssertEqual(mpd.type, .dynamic)
    let start = try XCTUnwrap(mpd.availabilityStartTime)
    let (period, representation) = first(mpd)
    // The MPD written after the fourth 2 s segment lists the window of three: numbers 2-4.
    let available = representation.availableSegments(
      in: period, of: mpd, at: start.addingTimeInterval(8.2))
    XCTAssertEqual(available.segments.map(\.number), [2, 3, 4])
    XCTAssertEqual(available.segments.map { $0.start.seconds }, [2, 4, 6])
    XCTAssertEqual(available.edge?.seconds, 8)
    XCTAssertEqual(
      available.segments.last?.url.absoluteString,
      "https://origin.example/live/chunk-stream0-00004.m4s")
    XCTAssertNil(available.nextAvailabilityTime, "the next segment needs the next MPD")
    XCTAssertEqual(
      mpd.nextReloadTime(fetchedAt: start.addingTimeInterval(8.2)),
      start.addingTimeInterval(10.2), "minimumUpdatePeriod PT2S")
    // Long after, the 6 s time-shift buffer has let them all go.
    XCTAssertEqual(
      representation.availableSegments(in: period, of: mpd, at: start.addingTimeInterval(30))
        .segments.count, 0)
  }

  func testFFmpegNumbers() throws {
    let mpd = try load("ffmpeg-live-number.mpd")
    let start = try XCTUnwrap(mpd.availabilityStartTime)
    let (period, representation) = first(mpd)
    let available = representation.availableSegments(
      in: period, of: mpd, at: start.addingTimeInterval(8.2))
    XCTAssertEqual(available.segments.map(\.number), [1, 2, 3, 4])
    XCTAssertEqual(available.segments.last?.url.lastPathComponent, "chunk-stream0-00004.m4s")
    XCTAssertEqual(available.nextAvailabilityTime, start.addingTimeInterval(10))
    let window = mpd.availabilityWindow(at: start.addingTimeInterval(8.2))
    XCTAssertEqual(window.presentationDelay.seconds, 2, "suggestedPresentationDelay")
    XCTAssertEqual(window.liveEdge.seconds, 6.2, accuracy: 1e-6)
    XCTAssertEqual(window.earliest.seconds, 2.2, accuracy: 1e-6)
    // An hour on, the numbers still follow the clock; the window keeps 6 s + two segments.
    let later = representation.availableSegments(
      in: period, of: mpd, at: start.addingTimeInterval(3600.2))
    XCTAssertEqual(later.segments.map(\.number), [1797, 1798, 1799, 1800])
  }

  func testGStreamerDashsink() throws {
    let mpd = try load("gst-dashsink-live.mpd")
    XCTAssertEqual(mpd.type, .dynamic)
    let start = try XCTUnwrap(mpd.availabilityStartTime)
    let (period, representation) = first(mpd)
    let available = representation.availableSegments(
      in: period, of: mpd, at: start.addingTimeInterval(5))
    XCTAssertEqual(
      available.segments.map(\.url.lastPathComponent), ["video_0_1.mp4", "video_0_2.mp4"])
    XCTAssertEqual(available.nextAvailabilityTime, start.addingTimeInterval(6))
  }
}
