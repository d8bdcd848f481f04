import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Rates an item cannot play, the bit-rate cap on a running session, and bumper pause/resume.
final class PlaybackControllerRateAndBumperTests: XCTestCase {
  func testARateALiveStreamCannotPlayFallsBackToOne() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let segments = try Fixtures.hlsSegments()
    let publisher = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: segments, segmentDuration: 2,
      windowSize: 4, initialSegments: 4)
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.playbackRate = 2
    controller.setVideos([SDKTesting.video(id: "live", url: publisher.url)])
    recorder.waitFor(lifecycle: "ready")
    XCTAssertEqual(controller.currentSession?.playerItem?.streamKind, .live)
    XCTAssertEqual(controller.effectivePlaybackRate, 1, "a live stream cannot play faster than 1")
    XCTAssertEqual(controller.playbackRate, 2, "the requested rate stays for later sessions")
  }

  func testThePeakBitRateCapReachesTheRunningSession() throws {
    let (controller, recorder) = SDKTesting.makeController(
      configuration: PlayerConfiguration(clock: ManualClock()))
    defer { controller.close() }
    controller.setVideos([
      SDKTesting.video(id: "hls", url: try Fixtures.url("hls/master.m3u8"))
    ])
    recorder.waitFor(lifecycle: "ready")
    controller.setPreferredPeakBitRate(300_000)
    _ = controller.currentSession
    XCTAssertEqual(controller.currentSession?.playerItem?.preferredPeakBitRate, 300_000)
    controller.setPreferredPeakBitRate(-5)
    _ = controller.currentSession
    XCTAssertEqual(controller.preferredPeakBitRate, 0, "negative caps mean no cap")
    XCTAssertEqual(controller.currentSession?.playerItem?.preferredPeakBitRate, 0)
  }

  func testBumperPauseAndResume() throws {
    // A clock nobody moves: the bumper starts and stays at its first frame.
    let (controller, recorder) = SDKTesting.makeController(
      configuration: PlayerConfiguration(clock: ManualClock(), videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.bumperVideo = SDKTesting.video(id: "bumper", url: try Fixtures.url("alpha-left.mp4"))
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-audio.mp3"))])
    recorder.waitFor(kind: "advanced")
    controller.play()
    recorder.waitFor(lifecycle: "bumperEnter")
    controller.pause()
    recorder.waitFor(lifecycle: "bumperPause")
    controller.play()
    recorder.waitFor(lifecycle: "bumperResume")
    // Progress reports are periodic: whether one falls between two requests depends on
    // thread timing, so only the requests and the bumper's state changes are compared.
    let names = recorder.lifecycle().filter {
      ($0.hasPrefix("bumper") && $0 != "bumperProgress") || $0.hasSuffix("Request")
    }
    XCTAssertEqual(
      names,
      ["playRequest", "bumperEnter", "pauseRequest", "bumperPause", "playRequest", "bumperResume"])
    XCTAssertFalse(recorder.lifecycle().contains("play"), "the content has not started")
  }
}
