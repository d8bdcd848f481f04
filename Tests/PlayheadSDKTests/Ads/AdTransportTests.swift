import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Pausing, resuming, skipping and clicking an ad on a clock the test moves.
final class AdTransportTests: XCTestCase {
  func testPauseResumeClickThroughAndSkip_actAtTheAdsOwnTime_withTheirBeacons() throws {
    // The ad is given in code (a tag fetched over HTTP would race the clock the test moves);
    // its tracking goes to the local server.
    let ads = try AdTestServer()
    func track(_ event: String) -> [String] {
      [ads.beacon("s1", event).replacingOccurrences(of: "BASE", with: ads.base)]
    }
    let ad = LinearAd(
      id: "s1", duration: SDKTesting.seconds(2), skipOffset: .time(SDKTesting.seconds(1)),
      mediaFiles: [
        VASTMediaFile(url: try Fixtures.url("alpha-left.mp4").absoluteString, type: "video/mp4")
      ],
      trackingURLs: [
        .start: track("start"), .pause: track("pause"), .resume: track("resume"),
        .skip: track("skip"), .complete: track("complete"), .mute: track("mute"),
        .unmute: track("unmute"),
      ],
      clickThroughURL: "https://advertiser.example/s1", clickTrackingURLs: track("click"))
    let opened = Locked<[URL]>([])
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([AdBreak(id: "pre", offset: .start, source: .ads([ad]))]),
        clickThroughHandler: { url in opened.withLock { $0.append(url) } }))
    let clock = ManualClock()
    let (controller, recorder) = SDKTesting.makeController(
      provider: provider,
      configuration: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    // The ad starts without the clock moving (its first frames are buffered); only then is
    // the clock moved, so that its start timeout is never what the clock jumps to.
    recorder.waitFor("the start beacon") { entries in
      entries.contains { $0.detail == "adBeacon" && $0.properties["event"] == .string("start") }
    }
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adProgress" }
    }
    // Too early to skip: nothing happens.
    controller.skipAd()
    controller.pauseAd()
    recorder.waitFor(lifecycle: "adPaused")
    controller.resumeAd()
    recorder.waitFor(lifecycle: "adResumed")
    controller.isMuted = true
    controller.isMuted = false
    controller.openAdClickThrough()
    recorder.waitFor(lifecycle: "adClickThrough")
    recorder.waitFor(lifecycle: "adPaused", count: 2)
    controller.play()
    recorder.waitFor(lifecycle: "adResumed", count: 2)
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adProgress" && $0.time >= SDKTesting.seconds(1) }
    }
    controller.skipAd()
    recorder.waitFor(lifecycle: "adSequenceExit")
    // Beacons: pause and resume twice, click and skip once, never complete.
    recorder.waitFor(lifecycle: "adBeacon", count: 9)
    let names = recorder.lifecycle().filter {
      $0.hasPrefix("ad") && $0 != "adBeacon" && $0 != "adProgress"
    }
    XCTAssertEqual(
      names,
      [
        "adSequenceEnter", "adEnter", "adPaused", "adResumed", "adClickThrough", "adPaused",
        "adResumed", "adSkipped", "adExit", "adSequenceExit",
      ])
    let counts = ads.beaconCounts
    XCTAssertEqual(counts["/t/s1/pause"], 2)
    XCTAssertEqual(counts["/t/s1/resume"], 2)
    XCTAssertEqual(counts["/t/s1/click"], 1)
    XCTAssertEqual(counts["/t/s1/skip"], 1)
    XCTAssertEqual(counts["/t/s1/complete"], 0)
    XCTAssertEqual(counts["/t/s1/mute"], 1)
    XCTAssertEqual(counts["/t/s1/unmute"], 1)
    XCTAssertEqual(controller.adSummary?.adsSkipped, 1)
    controller.pause()
    let handled = expectation(description: "handler")
    DispatchQueue(label: "test.wait").async {
      // The handler runs on the callback queue; the recorder's events arrive on it too.
      recorder.waitFor(lifecycle: "pauseRequest")
      handled.fulfill()
    }
    wait(for: [handled], timeout: 60)
    XCTAssertEqual(opened.value, [URL(string: "https://advertiser.example/s1")!])
  }
}
