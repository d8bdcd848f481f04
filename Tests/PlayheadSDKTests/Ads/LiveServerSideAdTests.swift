import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Server-side ad markers in a live stream: a break that appears on a later reload gives
/// the ad events when playback reaches it, once.
final class LiveServerSideAdTests: XCTestCase {
  func testABreakThatAppearsOnAReload_playsWithTheAdEvents() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let segments = try Fixtures.hlsSegments()
    let publisher = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: segments, segmentDuration: 2,
      windowSize: 6, initialSegments: 4)
    // Live segments 6 and 7 (item time 12-16 s) are an ad; neither is out yet.
    publisher.setTags(["#EXT-X-CUE-OUT:4.000"], beforeSegment: 6)
    publisher.setTags(["#EXT-X-CUE-IN"], beforeSegment: 8)
    // A clock the test moves (fast mode would let the publisher race the first load).
    let clock = ManualClock()
    let (controller, recorder) = SDKTesting.makeController(
      provider: AdsSessionProvider(configuration: AdsConfiguration(schedule: .breaks([]))),
      configuration: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    // One segment every 2 s of clock time, 8 more in all, then the end: published by a
    // thread of the clock, so at exactly those clock times.
    let start = clock.now
    clock.startThread(named: "test.publisher") {
      for step in 1...9 {
        clock.sleep(until: start + MediaTime(value: Int64(2 * step), timescale: 1))
        if step <= 8 { publisher.publishNext() } else { publisher.end() }
      }
    }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "live", url: publisher.url)])
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "end" }
    }
    let events = recorder.entries.filter {
      $0.kind == "lifecycle" && $0.detail.hasPrefix("ad") && $0.detail != "adProgress"
    }
    XCTAssertEqual(
      events.map(\.detail), ["adSequenceEnter", "adEnter", "adExit", "adSequenceExit"],
      "\(events.map(\.description))")
    let enter = try XCTUnwrap(events.first)
    XCTAssertEqual(enter.properties["breakId"], .string("cue-6"))
    XCTAssertEqual(enter.properties["serverSide"], .bool(true))
    XCTAssertEqual(enter.properties["duration"], .number(4))
    XCTAssertEqual(enter.time, SDKTesting.seconds(12), "where live segment 6 lies")
    XCTAssertEqual(events.last?.time, SDKTesting.seconds(16))
    XCTAssertEqual(controller.adSummary?.breaks, 1)
  }
}
