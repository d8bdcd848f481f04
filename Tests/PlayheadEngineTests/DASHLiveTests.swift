import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// A live (dynamic) MPD on the player's manual clock over a loopback server: playback starts
/// near the live edge the MPD's clock says, follows its reloads as segments become
/// available, and ends when the packager ends the presentation (the MPD turns static).
final class DASHLiveTests: XCTestCase {
  /// The presentation's availability start; the MPD's UTCTiming says it is 30 s later.
  private let start = "2026-01-01T00:00:00Z"

  private func mpd(dynamic: Bool) -> Data {
    let timing =
      dynamic
      ? """
      type="dynamic" availabilityStartTime="\(start)" minimumUpdatePeriod="PT2S"
      timeShiftBufferDepth="PT10S" suggestedPresentationDelay="PT6S"
      """
      : #"type="static" mediaPresentationDuration="PT34S""#
    return Data(
      """
      <?xml version="1.0"?>
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" \(timing) minBufferTime="PT2S"
        profiles="urn:mpeg:dash:profile:isoff-live:2011">
        <Period id="live" start="PT0S">
          <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
            <SegmentTemplate timescale="1" duration="2" startNumber="1"
              initialization="v-init.m4s" media="v-$Number$.m4s"/>
            <Representation id="v" bandwidth="100000" width="256" height="144"
              codecs="avc1.4d400c"/>
          </AdaptationSet>
        </Period>
        <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T00:00:30Z"/>
      </MPD>
      """.utf8)
  }

  /// Serves the init section and segments 1–17 under /live/: segments 13–17 (24–34 s, where
  /// playback starts and runs) are the fixture's five in order, so their timestamps run on
  /// as a packager's would; the others repeat them.
  private func serveSegments(on server: HTTPTestServer) throws {
    let fixture = try Fixtures.url("dash-vod")
    server.setFile(
      try Data(contentsOf: fixture.appendingPathComponent("init-stream0.m4s")),
      at: "/live/v-init.m4s")
    for number in 1...17 {
      let file = String(format: "chunk-stream0-%05d.m4s", (number + 2) % 5 + 1)
      server.setFile(
        try Data(contentsOf: fixture.appendingPathComponent(file)), at: "/live/v-\(number).m4s")
    }
  }

  func testLiveMPDStartsNearTheEdge_followsReloads_andEndsWhenTheMPDTurnsStatic() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    // The MPD is dynamic for its first three loads, then static (the stream ended at 34 s).
    try serveSegments(on: server)
    let loads = Locked(0)
    let dynamic = mpd(dynamic: true)
    let ended = mpd(dynamic: false)
    server.setResponder(for: "/live/manifest.mpd") { _ in
      let count = loads.withLock { count -> Int in
        count += 1
        return count
      }
      return HTTPTestServer.Response(body: count <= 3 ? dynamic : ended)
    }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/live/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertTrue(item.duration.isIndefinite, "a live presentation has no duration")
    player.play()
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    let numbers = server.requests.map(\.path).compactMap { path -> Int? in
      guard path.hasPrefix("/live/v-"), !path.contains("init") else { return nil }
      return Int(path.dropFirst("/live/v-".count).dropLast(".m4s".count))
    }
    // At 30 s the buffer holds segments 11–15 (20–30 s); 6 s behind the edge is in 13.
    let first = try XCTUnwrap(numbers.first)
    XCTAssertEqual(first, 13, "started at the segment 6 s behind the edge: \(numbers)")
    XCTAssertEqual(numbers, Array(13...17), "each segment once, in order, to the end")
    XCTAssertEqual(loads.withLock { $0 }, 4, "the MPD was reloaded as segments ran out")
    XCTAssertEqual(item.statistics.framesDecoded, 5 * 50, "every frame from the start point")
  }

  func testDVRSeekBackInsideTheTimeShiftBufferFetchesFromThere() async throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    try serveSegments(on: server)
    server.setFile(mpd(dynamic: true), at: "/live/manifest.mpd")
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/live/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "seekableTimeRangesChanged")
    let item = try XCTUnwrap(player.currentItem)
    // The window is the 10 s time-shift buffer: segments 11–15 at 30 s, on the item
    // timeline from 0.
    let window = try XCTUnwrap(item.seekableTimeRanges.first)
    XCTAssertEqual(window.duration.seconds, 10, accuracy: 2.1, "\(window)")
    server.clearRequests()
    let finished = await player.seek(to: window.start + MediaTime(value: 1, timescale: 1))
    XCTAssertTrue(finished)
    let fetched = server.requests.map(\.path).filter {
      $0.hasPrefix("/live/v-") && !$0.contains("init")
    }
    // (A download under way before the seek may finish first.)
    XCTAssertTrue(
      fetched.contains("/live/v-11.m4s"), "the oldest segment in the buffer: \(fetched)")
    let numbers = fetched.compactMap { Int($0.dropFirst("/live/v-".count).dropLast(".m4s".count)) }
    XCTAssertTrue(numbers.allSatisfy { $0 >= 11 }, "nothing older than the buffer: \(fetched)")
  }
}
