import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// `X-RESTRICT` (SKIP, JUMP) and `CUE=ONCE`: what the viewer may do around interstitials.
final class InterstitialRestrictionTests: XCTestCase {
  typealias Server = InterstitialTestServer

  /// Starts a pre-roll interstitial with `attributes` on a clock the test moves, calls
  /// `skipAd` while it plays, and plays to the end.
  func skipDuringPreroll(_ attributes: String) throws -> [String] {
    let server = try Server()
    let url = server.primary(
      "skip", [Server.dateRange("pre", at: 0, "CUE=\"PRE\",X-ASSET-URI=\"ad-b.m3u8\"\(attributes)")]
    )
    let clock = ManualClock()
    let (controller, recorder) = InterstitialTesting.makeController(
      player: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "primary", url: url)])
    // The asset starts without the clock moving (its first frames are buffered); only then
    // is the clock moved, so that its start timeout is never what the clock jumps to.
    recorder.waitFor(lifecycle: "adProgress")
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adProgress" && $0.time >= SDKTesting.seconds(1) }
    }
    controller.skipAd()
    // A synchronous read on the controller's queue: the skip has been handled after it.
    _ = controller.isPlayingAd
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "end" }
    }
    return InterstitialTesting.events(recorder)
  }

  func testRestrictSkip_refusesSkipAd() throws {
    XCTAssertEqual(
      try skipDuringPreroll(",X-RESTRICT=\"SKIP\""),
      ["adSequenceEnter:pre@0.0", "adEnter:pre", "adExit:pre:played", "adSequenceExit", "end"])
  }

  func testWithoutRestrictions_skipAdSkips() throws {
    XCTAssertEqual(
      try skipDuringPreroll(""),
      [
        "adSequenceEnter:pre@0.0", "adEnter:pre", "adSkipped", "adExit:pre:skipped",
        "adSequenceExit", "end",
      ])
  }

  func testASeekPastAJumpRestrictedInterstitial_playsItFirst_butNotAnUnrestrictedOne() throws {
    let server = try Server()
    let url = server.primary(
      "jump",
      [
        Server.dateRange("jump", at: 4, "X-ASSET-URI=\"ad-a.m3u8\",X-RESTRICT=\"SKIP,JUMP\""),
        Server.dateRange("free", at: 6, "X-ASSET-URI=\"ad-a.m3u8\""),
      ])
    let (controller, recorder) = InterstitialTesting.makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "primary", url: url)])
    recorder.waitFor(lifecycle: "ready")
    controller.seek(to: SDKTesting.seconds(10))
    recorder.waitFor("the seek to land") { $0.contains { $0.kind == "progress" } }
    controller.play()
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      ["adSequenceEnter:jump@4.0", "adEnter:jump", "adExit:jump:played", "adSequenceExit", "end"])
    // After the break the content is at the seek's target, not at the interstitial.
    let after = InterstitialTesting.progress(recorder)
    XCTAssertFalse(after.contains { $0 < SDKTesting.seconds(10) }, "\(after)")
    XCTAssertEqual(server.requests("/hls/144p/ad-a.m3u8").count, 1)
    let states: [[AdState]] = controller.adTimeline?.slots.map { $0.adStates } ?? []
    XCTAssertEqual(states, [[.played], [.available]], "the unrestricted one stays unplayed")
  }

  func testASeekBack_replaysAnInterstitialWithoutOnce_butNotOneWithOnce() throws {
    let server = try Server()
    let url = server.primary(
      "once",
      [
        Server.dateRange("again", at: 2, "X-ASSET-URI=\"ad-a.m3u8\",X-RESUME-OFFSET=0"),
        Server.dateRange("once", at: 4, "CUE=\"ONCE\",X-ASSET-URI=\"ad-a.m3u8\",X-RESUME-OFFSET=0"),
      ])
    let clock = ManualClock()
    let (controller, recorder) = InterstitialTesting.makeController(
      player: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "primary", url: url)])
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.filter { $0.detail == "adSequenceExit" }.count == 2
        && entries.last { $0.kind == "progress" }.map { $0.time >= SDKTesting.seconds(5) }
          ?? false
    }
    controller.seek(to: SDKTesting.seconds(1))
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "end" }
    }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:again@2.0", "adEnter:again", "adExit:again:played", "adSequenceExit",
        "adSequenceEnter:once@4.0", "adEnter:once", "adExit:once:played", "adSequenceExit",
        "adSequenceEnter:again@2.0", "adEnter:again", "adExit:again:played", "adSequenceExit",
        "end",
      ])
  }
}
