import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// The first ad of the next break is opened ahead, on a clock the test moves.
final class AdPrefetchTests: XCTestCase {
  func testTheMidrollsAd_isRequestedBeforeItsBreak_andPlaysWhenTheBreakComes() throws {
    let server = HTTPTestServer()
    try server.start()
    defer { server.stop() }
    server.setFile(try Data(contentsOf: Fixtures.url("alpha-left.mp4")), at: "/ad.mp4")
    let ad = LinearAd(
      id: "m1", duration: SDKTesting.seconds(2),
      mediaFiles: [
        VASTMediaFile(url: server.url("/ad.mp4").absoluteString, type: "video/mp4")
      ])
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([
          AdBreak(id: "mid", offset: .time(SDKTesting.seconds(3)), source: .ads([ad]))
        ])))
    let clock = ManualClock()
    let (controller, recorder) = SDKTesting.makeController(
      provider: provider,
      configuration: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    // Within the 5 s lead from the first progress report on: the ad's media is asked for
    // while the content plays, long before the break at 3 s.
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.kind == "progress" && $0.time >= SDKTesting.seconds(0.5) }
    }
    XCTAssertTrue(server.waitForRequests(count: 1, timeoutMs: 30_000))
    XCTAssertGreaterThan(server.requestCount(for: "/ad.mp4"), 0)
    XCTAssertFalse(recorder.lifecycle().contains("adSequenceEnter"))
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adSequenceExit" }
    }
    let exits = recorder.entries.filter { $0.detail == "adExit" }
    XCTAssertEqual(exits.map { $0.properties["outcome"] }, [.string("played")])
    XCTAssertEqual(exits.first?.properties["started"], .bool(true))
  }
}
