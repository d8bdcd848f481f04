import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Lifecycle events of a session: order, pause/play, seeks, stalls, failures and resume.
final class PlaybackControllerLifecycleTests: XCTestCase {
  func testPlayThroughSendsReadyPlayProgressEnd() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"))])
    recorder.waitFor(lifecycle: "ready")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    let all = recorder.lifecycle()
    let names = all.filter { !$0.hasPrefix("playbackBuffer") && $0 != "playbackLikelyToKeepUp" }
    XCTAssertEqual(names, ["ready", "playRequest", "play", "end"], "\(all)")
    // The buffer is reported once, at the start (not on every engine buffer change).
    XCTAssertEqual(all.filter { $0 == "playbackBufferEmpty" }.count, 1, "\(all)")
    XCTAssertEqual(all.filter { $0 == "playbackLikelyToKeepUp" }.count, 1, "\(all)")
    XCTAssertLessThan(
      try XCTUnwrap(all.firstIndex(of: "playbackBufferEmpty")),
      try XCTUnwrap(all.firstIndex(of: "playbackLikelyToKeepUp")))
    let entries = recorder.entries
    let playIndex = try XCTUnwrap(entries.firstIndex { $0.detail == "play" })
    let endIndex = try XCTUnwrap(entries.firstIndex { $0.detail == "end" })
    let progress = entries[playIndex..<endIndex].filter { $0.kind == "progress" }
    // One progress every 0.25 s of a 10 s video.
    XCTAssertGreaterThanOrEqual(progress.count, 38)
    XCTAssertEqual(progress.last?.time.seconds ?? 0, 10, accuracy: 0.05)
    XCTAssertEqual(entries[endIndex].time.seconds, 10, accuracy: 0.05)
    XCTAssertEqual(entries.first { $0.kind == "mediaType" }?.detail, "audioVideo")
    XCTAssertEqual(entries.first { $0.kind == "duration" }?.time.seconds ?? 0, 10, accuracy: 0.05)
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.mediaType, .audioVideo)
    let qoe = session.qoe
    XCTAssertTrue(qoe.timeToFirstFrame.isNumeric)
    XCTAssertEqual(qoe.renderedFrames + qoe.droppedFrames, 250)
    XCTAssertGreaterThan(qoe.bytesTransferred, 100_000)
    XCTAssertEqual(qoe.stallCount, 0)
  }

  func testPauseAndPlaySendRequestsAndEvents() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let paused = PauseOnce(controller: controller, atSeconds: 2)
    controller.addSessionConsumer(paused)
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"))])
    recorder.waitFor(lifecycle: "pause")
    let pauseEvent = try XCTUnwrap(recorder.entries.first { $0.detail == "pause" })
    XCTAssertLessThan(pauseEvent.time.seconds, 9, "paused well before the end")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle().filter {
      !$0.hasPrefix("playbackBuffer") && $0 != "playbackLikelyToKeepUp"
    }
    XCTAssertEqual(
      names, ["ready", "play", "pauseRequest", "pause", "playRequest", "play", "end"], "\(names)")
  }

  func testSeekBeforeReadyNeverCompletes() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), faults: ["/sample-h264-aac.mp4": .hang])
    try server.start()
    defer { server.stop() }
    let (controller, recorder) = SDKTesting.makeController()
    controller.setVideos([SDKTesting.video(id: "a", url: server.url("/sample-h264-aac.mp4"))])
    recorder.waitFor(kind: "advanced")
    let completed = Flag()
    controller.seek(to: SDKTesting.seconds(3)) { _ in completed.set() }
    // Closing the controller discards the session: the completion still never runs.
    controller.close()
    _ = controller.currentSession
    XCTAssertFalse(completed.isSet)
    XCTAssertFalse(recorder.lifecycle().contains("ready"))
  }

  func testSeekAfterReadyCompletesWithinTolerance() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"))])
    recorder.waitFor(lifecycle: "ready")
    let done = expectation(description: "seek")
    let result = Flag()
    controller.seek(to: SDKTesting.seconds(4)) { finished in
      if finished { result.set() }
      done.fulfill()
    }
    wait(for: [done], timeout: 60)
    XCTAssertTrue(result.isSet)
    let time = try XCTUnwrap(controller.currentSession?.player?.currentTime())
    XCTAssertEqual(time.seconds, 4, accuracy: 0.1)
  }

  func testStallThenRecoveryOnABandwidthCollapse() throws {
    // Real-time rules (stalls exist) on a manual clock the test moves.
    let clock = ManualClock()
    let base = URL(string: "http://sim.test/hls/")!
    var resources: [URL: Data] = [:]
    for name in ["master.m3u8", "144p/index.m3u8"]
      + (0..<6).map({ String(format: "144p/segment%03d.ts", $0) })
    {
      resources[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/" + name))
    }
    // Fast for 0.3 s (the playlists and the first segments: at most 4 s of media, the
    // maximum buffer), then almost nothing for 20 s, then fast again: playback must stall.
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 300, bandwidthKbps: 20_000),
      .init(durationMs: 20_000, bandwidthKbps: 8),
      .init(durationMs: 600_000, bandwidthKbps: 20_000),
    ])
    var configuration = PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink())
    configuration.network = SimulatedNetwork(resources: resources, trace: trace, clock: clock)
    configuration.hls.manualVariantIndex = 0
    configuration.hls.bufferSettings = BufferSettings(
      maximumBuffer: MediaTime(value: 4, timescale: 1))
    let (controller, recorder) = SDKTesting.makeController(configuration: configuration)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "hls", url: base.appendingPathComponent("master.m3u8"))
    ])
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "end" || $0.detail == "failedToPlayToEndTime" }
    }
    let names = recorder.lifecycle()
    let stalled = try XCTUnwrap(names.firstIndex(of: "playbackStalled"), "\(names)")
    let recovered = try XCTUnwrap(names.firstIndex(of: "playbackRecovered"), "\(names)")
    XCTAssertLessThan(stalled, recovered)
    XCTAssertLessThan(recovered, try XCTUnwrap(names.firstIndex(of: "end")))
    XCTAssertTrue(names.contains("playbackBufferEmpty"))
    XCTAssertTrue(names.contains("playbackLikelyToKeepUp"))
    let qoe = try XCTUnwrap(recorder.sessions.first?.qoe)
    XCTAssertGreaterThanOrEqual(qoe.stallCount, 1)
    XCTAssertGreaterThan(qoe.totalStallTime.seconds, 10)
    let statistics = try XCTUnwrap(recorder.sessions.first?.playerItem?.statistics)
    XCTAssertEqual(qoe.totalStallTime, statistics.totalStallTime)
    XCTAssertEqual(qoe.stallCount, statistics.stallCount)
  }

  func testNetworkLossEndsInFailedToPlayToEndAndResumeRecovers() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), faults: ["/hls/144p/segment003.ts": .status(503)])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast(videoSink: DiscardVideoSink())
    configuration.hls.manualVariantIndex = 0
    configuration.request.retryCount = 1
    let (controller, recorder) = SDKTesting.makeController(configuration: configuration)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "hls", url: server.url("/hls/master.m3u8"))])
    recorder.waitFor(lifecycle: "failedToPlayToEndTime")
    let failure = try XCTUnwrap(recorder.entries.first { $0.detail == "failedToPlayToEndTime" })
    XCTAssertEqual(failure.error?.httpStatusCode, 503)
    XCTAssertEqual(server.requestCount(for: "/hls/144p/segment003.ts"), 2, "one try and one retry")
    XCTAssertFalse(recorder.lifecycle().contains("pause"), "a failure is not a pause")
    server.setFault(nil, for: "/hls/144p/segment003.ts")
    controller.resumeVideo(at: SDKTesting.seconds(7), autoPlay: true)
    controller.resumeVideo(at: SDKTesting.seconds(1), autoPlay: true)  // refused: one at a time
    recorder.waitFor(lifecycle: "resumeComplete")
    let complete = try XCTUnwrap(recorder.entries.first { $0.detail == "resumeComplete" })
    XCTAssertEqual(complete.time.seconds, 7, accuracy: 1e-6)
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle()
    XCTAssertEqual(names.filter { $0 == "resumeBegin" }.count, 1, "\(names)")
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "resumeBegin")),
      try XCTUnwrap(names.firstIndex(of: "resumeComplete")))
  }

  func testResumeWithoutASessionDoesNothing() {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.resumeVideo(at: .zero, autoPlay: true)
    _ = controller.currentSession
    XCTAssertTrue(recorder.entries.isEmpty)
  }
}

/// Pauses the controller once, when progress first reaches `atSeconds`.
final class PauseOnce: PlaybackSessionConsumer, @unchecked Sendable {
  private let controller: PlaybackController
  private let seconds: Double
  private let lock = NSLock()
  private var done = false

  init(controller: PlaybackController, atSeconds: Double) {
    self.controller = controller
    self.seconds = atSeconds
  }

  func playbackSession(_ session: PlaybackSession, didProgressTo progress: MediaTime) {
    lock.lock()
    let fire = !done && progress.seconds >= seconds
    if fire { done = true }
    lock.unlock()
    if fire { controller.pause() }
  }
}

/// A thread-safe one-way flag.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
