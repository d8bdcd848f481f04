import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// `adPlaybackStatus` and `upcomingAdBreakTimes`: what a player UI reads to draw the ad
/// badge, the skip control, "Learn more" and the slider's break markers.
final class AdStatusTests: XCTestCase {
  func testTheStatusFollowsThePodAndTheMarkersTheBreaksLeft() throws {
    let media = [
      VASTMediaFile(url: try Fixtures.url("alpha-left.mp4").absoluteString, type: "video/mp4")
    ]
    let first = LinearAd(
      id: "first", duration: SDKTesting.seconds(2), skipOffset: .time(SDKTesting.seconds(1)),
      mediaFiles: media, clickThroughURL: " https://advertiser.example/first ")
    let second = LinearAd(id: "second", duration: SDKTesting.seconds(2), mediaFiles: media)
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([
          AdBreak(id: "pre", offset: .start, source: .ads([first, second])),
          AdBreak(
            id: "mid", offset: .time(SDKTesting.seconds(3)), source: .ads([second])),
        ])))
    let clock = ManualClock()
    let (controller, recorder) = SDKTesting.makeController(
      provider: provider,
      configuration: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    XCTAssertNil(controller.adPlaybackStatus, "nothing plays yet")
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "adEnter")
    let status = try XCTUnwrap(controller.adPlaybackStatus)
    XCTAssertEqual(status.breakPosition, .preroll)
    XCTAssertEqual(status.adNumber, 1)
    XCTAssertEqual(status.adCount, 2)
    XCTAssertEqual(status.adID, "first")
    XCTAssertEqual(status.skippableFrom, SDKTesting.seconds(1))
    XCTAssertEqual(status.clickThroughURL, URL(string: "https://advertiser.example/first"))
    XCTAssertFalse(status.isServerSide)
    XCTAssertFalse(status.canSkip, "not before its offset")
    XCTAssertEqual(status.untilSkippable.map { ($0.seconds * 10).rounded() / 10 }, 1)
    XCTAssertEqual(controller.upcomingAdBreakTimes, [SDKTesting.seconds(3)])

    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adProgress" && $0.time >= SDKTesting.seconds(1) }
    }
    XCTAssertEqual(controller.adPlaybackStatus?.canSkip, true)
    controller.pauseAd()
    recorder.waitFor(lifecycle: "adPaused")
    XCTAssertEqual(controller.adPlaybackStatus?.isPaused, true)
    controller.resumeAd()
    recorder.waitFor(lifecycle: "adResumed")
    controller.skipAd()
    recorder.waitFor(lifecycle: "adEnter", count: 2)
    let next = try XCTUnwrap(controller.adPlaybackStatus)
    XCTAssertEqual(next.adNumber, 2)
    XCTAssertEqual(next.adID, "second")
    XCTAssertNil(next.skippableFrom, "not skippable")
    XCTAssertNil(next.clickThroughURL)
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adSequenceExit" }
    }
    // The content plays: no status; the mid-roll is still marked.
    recorder.waitFor(lifecycle: "adSequenceExit")
    XCTAssertNil(controller.adPlaybackStatus)
    XCTAssertEqual(controller.upcomingAdBreakTimes, [SDKTesting.seconds(3)])
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.filter { $0.detail == "adSequenceExit" }.count >= 2
    }
    XCTAssertEqual(controller.upcomingAdBreakTimes, [], "the mid-roll played")
  }
}
