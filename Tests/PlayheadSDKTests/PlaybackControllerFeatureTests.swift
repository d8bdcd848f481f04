import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Rate, bit-rate cap, cue points, bumpers, consumers and provider chains.
final class PlaybackControllerFeatureTests: XCTestCase {
  func testPlaybackRateRules() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    XCTAssertEqual(controller.playbackRate, 1)
    controller.playbackRate = 0
    XCTAssertEqual(controller.playbackRate, 1, "0 becomes 1.0")
    controller.playbackRate = -1
    XCTAssertEqual(controller.playbackRate, 1, "-1 becomes 1.0")
    controller.playbackRate = .nan
    XCTAssertEqual(controller.playbackRate, 1)
    controller.playbackRate = 2
    XCTAssertEqual(controller.playbackRate, 2)
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"))])
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(controller.effectivePlaybackRate, 2)
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.playerItem?.audioTimePitchAlgorithm, .timeDomain)
    // Ten seconds of media at rate 2 take five seconds of clock time.
    let events = recorder.entries.filter { $0.kind == "lifecycle" }
    XCTAssertEqual(events.last?.time.seconds ?? 0, 10, accuracy: 0.05)
    let clockSeconds = controller.clock.now.seconds
    XCTAssertLessThan(clockSeconds, 7, "rate 2 played 10 s in \(clockSeconds) s of clock")
  }

  func testVarispeedOnRequest() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.playbackRate = 1.5
    controller.audioTimePitchAlgorithm = .varispeed
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-audio.mp3"))])
    recorder.waitFor(lifecycle: "ready")
    _ = controller.currentSession
    XCTAssertEqual(controller.currentSession?.playerItem?.audioTimePitchAlgorithm, .varispeed)
    XCTAssertEqual(controller.effectivePlaybackRate, 1.5)
  }

  func testPreferredPeakBitRateCapsTheCurrentAndTheNextSession() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast(videoSink: DiscardVideoSink())
    configuration.hls.defaultBandwidthEstimate = 50_000_000
    let (controller, recorder) = SDKTesting.makeController(configuration: configuration)
    defer { controller.close() }
    let master = try PlayheadHLSMaster.bandwidths(try Fixtures.url("hls/master.m3u8"))
    let cap = Double(master.sorted()[0]) * 1.1
    controller.setPreferredPeakBitRate(cap)
    controller.autoAdvance = true
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "one", url: server.url("/hls/master.m3u8")),
      SDKTesting.video(id: "two", url: server.url("/hls/master.m3u8")),
    ])
    recorder.waitFor(kind: "complete")
    XCTAssertEqual(controller.preferredPeakBitRate, cap)
    for session in recorder.sessions {
      let item = try XCTUnwrap(session.playerItem)
      XCTAssertEqual(item.preferredPeakBitRate, cap)
      XCTAssertLessThanOrEqual(Double(item.currentVariant?.bandwidth ?? .max), cap)
      XCTAssertLessThanOrEqual(session.qoe.timeWeightedBitrate ?? .infinity, cap)
    }
    let segments = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
    XCTAssertFalse(segments.isEmpty)
    XCTAssertTrue(segments.allSatisfy { $0.hasPrefix("/hls/144p/") }, "\(segments)")
  }

  func testCuePointsFireOnceEachAtTheirTimes() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let cuePoints = [
      CuePoint(type: "ad", position: .before, properties: ["name": "pre"]),
      CuePoint(type: "code", position: .time(SDKTesting.seconds(2)), properties: ["name": "two"]),
      CuePoint(type: "ad", position: .time(SDKTesting.seconds(5.1)), properties: ["name": "mid"]),
      CuePoint(type: "code", position: .time(SDKTesting.seconds(8)), properties: ["name": "eight"]),
      CuePoint(type: "ad", position: .after, properties: ["name": "post"]),
    ]
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"), cuePoints: cuePoints)
    ])
    recorder.waitFor(lifecycle: "end")
    let fired = recorder.entries.filter { $0.kind == "cuePoints" }
    XCTAssertEqual(fired.map(\.detail), ["pre", "two", "mid", "eight", "post"])
    for entry in fired where !entry.cueTimes.isEmpty {
      let cueTime = try XCTUnwrap(entry.cueTimes.first).seconds
      XCTAssertEqual(entry.time.seconds, cueTime, accuracy: 0.25, "\(entry.detail)")
    }
    let entries = recorder.entries
    let before = try XCTUnwrap(entries.firstIndex { $0.detail == "pre" })
    let play = try XCTUnwrap(entries.firstIndex { $0.detail == "play" })
    XCTAssertLessThan(before, play, "before cue points fire before playing")
    let after = try XCTUnwrap(entries.firstIndex { $0.detail == "post" })
    let end = try XCTUnwrap(entries.firstIndex { $0.detail == "end" })
    XCTAssertLessThan(after, end, "after cue points fire before end")
  }

  func testASeekForwardFiresTheLatestPassedCuePointOfEachType() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let cuePoints = [
      CuePoint(type: "ad", position: .time(SDKTesting.seconds(2)), properties: ["name": "ad2"]),
      CuePoint(type: "ad", position: .time(SDKTesting.seconds(4)), properties: ["name": "ad4"]),
      CuePoint(
        type: "chapter", position: .time(SDKTesting.seconds(3)), properties: ["name": "ch3"]),
      CuePoint(type: "ad", position: .time(SDKTesting.seconds(8)), properties: ["name": "ad8"]),
    ]
    controller.setVideos([
      SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4"), cuePoints: cuePoints)
    ])
    recorder.waitFor(lifecycle: "ready")
    let done = expectation(description: "seek")
    controller.seek(to: SDKTesting.seconds(6)) { _ in done.fulfill() }
    wait(for: [done], timeout: 60)
    let afterSeek = recorder.entries.filter { $0.kind == "cuePoints" }.map(\.detail)
    XCTAssertEqual(afterSeek, ["ch3,ad4"])
    let seekless = expectation(description: "seek back")
    controller.seekWithoutAds(to: SDKTesting.seconds(1)) { _ in seekless.fulfill() }
    wait(for: [seekless], timeout: 60)
    controller.play()
    recorder.waitFor(lifecycle: "end")
    // Playing from 1 s crosses ad2 (never fired) and ad8; ad4 and ch3 already fired.
    let all = recorder.entries.filter { $0.kind == "cuePoints" }.map(\.detail)
    XCTAssertEqual(all, ["ch3,ad4", "ad2", "ad8"])
  }

  func testBumperPlaysFirstAndRefusesSeeks() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.bumperVideo = SDKTesting.video(id: "bumper", url: try Fixtures.url("alpha-left.mp4"))
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("sample-audio.mp3"))])
    recorder.waitFor(lifecycle: "ready")
    // The bumper has not played yet, so the session is still in its bumper: seeks are refused.
    let refused = expectation(description: "refused seek")
    let result = Flag()
    controller.seek(to: SDKTesting.seconds(1)) { finished in
      if !finished { result.set() }
      refused.fulfill()
    }
    wait(for: [refused], timeout: 60)
    XCTAssertTrue(result.isSet, "a seek before the bumper has played is refused")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle()
    let enter = try XCTUnwrap(names.firstIndex(of: "bumperEnter"), "\(names)")
    let exit = try XCTUnwrap(names.firstIndex(of: "bumperExit"), "\(names)")
    let play = try XCTUnwrap(names.firstIndex(of: "play"), "\(names)")
    XCTAssertLessThan(enter, exit)
    XCTAssertLessThan(exit, play, "the content plays after the bumper: \(names)")
    XCTAssertTrue(names.contains("bumperProgress"))
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.video.id, "a", "the bumper is not a session of its own")
    XCTAssertEqual(recorder.sessions.count, 1)
    // After the bumper, seeks work again.
    let seeked = expectation(description: "seek after the bumper")
    let finishedAfter = Flag()
    controller.seek(to: SDKTesting.seconds(2)) { finished in
      if finished { finishedAfter.set() }
      seeked.fulfill()
    }
    wait(for: [seeked], timeout: 60)
    XCTAssertTrue(finishedAfter.isSet)
  }

  func testBumperIDCustomFieldWinsOverTheConfiguredBumper() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let configured = SDKTesting.video(
      id: "configured", url: URL(fileURLWithPath: "/nonexistent/b.mp4"))
    let lookedUp = SDKTesting.video(id: "b42", url: try Fixtures.url("alpha-left.mp4"))
    controller.bumperVideo = configured
    controller.bumperLookup = { id in id == "b42" ? lookedUp : nil }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(
        id: "a", url: try Fixtures.url("sample-audio.mp3"), customFields: ["bumper_id": "b42"])
    ])
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle()
    XCTAssertTrue(names.contains("bumperEnter"))
    XCTAssertFalse(
      names.contains("bumperFailedToPlayToEndTime"), "the looked-up bumper played: \(names)")
  }

  func testABumperThatFailsLetsTheContentPlay() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.bumperVideo = SDKTesting.video(id: "bad", url: try Fixtures.url("not-a-video.mp4"))
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("alpha-left.mp4"))])
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle()
    XCTAssertTrue(names.contains("bumperFailedToPlayToEndTime"), "\(names)")
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "bumperExit")), try XCTUnwrap(names.firstIndex(of: "play"))
    )
  }

  func testConsumersAndTheDelegateReceiveTheSameEvents() throws {
    let (controller, delegate) = SDKTesting.makeController()
    defer { controller.close() }
    let first = SDKRecorder()
    let second = SDKRecorder()
    controller.addSessionConsumer(first)
    controller.addSessionConsumer(second)
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("alpha-left.mp4"))])
    delegate.waitFor(lifecycle: "end")
    first.waitFor(lifecycle: "end")
    second.waitFor(lifecycle: "end")
    XCTAssertEqual(first.entries.map(\.description), delegate.entries.map(\.description))
    XCTAssertEqual(second.entries.map(\.description), delegate.entries.map(\.description))
    // A consumer added now receives the current session at once.
    let late = SDKRecorder()
    controller.addSessionConsumer(late)
    late.waitFor(kind: "advanced")
    XCTAssertEqual(late.sessions.first, delegate.sessions.first)
    // A removed consumer receives nothing more.
    controller.removeSessionConsumer(first)
    let count = first.entries.count
    controller.seek(to: .zero)
    delegate.waitFor(kind: "progress")
    _ = controller.currentSession
    XCTAssertEqual(first.entries.count, count)
  }

  func testAProviderChainAddsBehaviourToSessions() throws {
    let plugin = SDKRecorder()
    let provider = CuePointAddingProvider(plugin: plugin)
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("alpha-left.mp4"))])
    recorder.waitFor(lifecycle: "end")
    plugin.waitFor(lifecycle: "end")
    XCTAssertEqual(recorder.entries.filter { $0.kind == "cuePoints" }.map(\.detail), ["added"])
    XCTAssertTrue(plugin.lifecycle().contains("ready"), "the attached plug-in gets session events")
    XCTAssertEqual(recorder.sessions.first?.video.cuePoints.count, 1)
  }

  func testManagerSessionIDIsStableAndControllerSettingsHaveSeedDefaults() {
    let id = PlayerSDKManager.shared.sessionID
    XCTAssertEqual(id, PlayerSDKManager.shared.sessionID)
    XCTAssertEqual(UUID(uuidString: id) != nil, true, id)
    let (controller, _) = SDKTesting.makeController()
    defer { controller.close() }
    XCTAssertFalse(controller.autoAdvance)
    XCTAssertFalse(controller.autoPlay)
    XCTAssertTrue(controller.thumbnailSeekingEnabled)
    XCTAssertFalse(controller.allowsBackgroundAudioPlayback)
    XCTAssertFalse(controller.isPictureInPictureActive)
    XCTAssertFalse(controller.adsDisabled)
    XCTAssertFalse(controller.streamConcurrencyEnabled)
    XCTAssertEqual(controller.shutterFadeTime, 0)
    XCTAssertEqual(controller.viewProjection, ViewProjection(pan: 0, tilt: 0, zoom: 1, roll: 0))
    XCTAssertEqual(controller.options.bufferOptimizerMethod, .default)
    var projection = controller.viewProjection
    projection.pan = 90
    controller.viewProjection = projection
    XCTAssertEqual(controller.viewProjection.pan, 90)
    XCTAssertEqual(controller.analytics.sdkSessionID, id)
    controller.addFairPlayApplicationCertificate(Data([1, 2, 3]), identifier: "test-cert")
    XCTAssertEqual(
      ApplicationCertificateRegistry.shared.certificate(for: "test-cert"), Data([1, 2, 3]))
    controller.addFairPlayApplicationCertificate(nil, identifier: "test-cert")
    XCTAssertNil(ApplicationCertificateRegistry.shared.certificate(for: "test-cert"))
  }

  func testShutterHidesFramesAndTheViewStrategyComposesOutputs() throws {
    let recorderSink = DiscardVideoSink()
    let controller = PlayerSDKManager.shared.createPlaybackController(
      sessionProvider: nil,
      viewStrategy: { videoView, _ in
        let container = PlaybackView(outputs: [recorderSink])
        videoView.addOutput(container)
        return container
      }, playerConfiguration: .fast(), callbackQueue: DispatchQueue(label: "test.shutter"))
    defer { controller.close() }
    let recorder = SDKRecorder()
    controller.delegate = recorder
    XCTAssertFalse(controller.view === controller.videoView)
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "a", url: try Fixtures.url("alpha-left.mp4"))])
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(recorderSink.presentedFrameCount, controller.videoView.presentedFrameCount)
    XCTAssertGreaterThan(recorderSink.presentedFrameCount, 0)
    // With the shutter closed, frames stop reaching the outputs.
    controller.shutter = true
    let shown = recorderSink.presentedFrameCount
    controller.setVideos([SDKTesting.video(id: "b", url: try Fixtures.url("alpha-left.mp4"))])
    recorder.waitFor(lifecycle: "end", count: 2)
    XCTAssertEqual(recorderSink.presentedFrameCount, shown)
    XCTAssertGreaterThan(controller.videoView.presentedFrameCount, shown)
  }
}

/// A plug-in provider: adds a cue point to every video and attaches a plug-in consumer.
final class CuePointAddingProvider: PlaybackSessionProvider, @unchecked Sendable {
  let upstream: (any PlaybackSessionProvider)? = nil
  private let plugin: SDKRecorder

  init(plugin: SDKRecorder) {
    self.plugin = plugin
  }

  func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession {
    let changed = video.update { mutable in
      mutable.cuePoints = CuePointCollection([
        CuePoint(
          type: "code", position: .time(MediaTime(value: 1, timescale: 1)),
          properties: ["name": "added"])
      ])
    }
    let session = makeUpstreamSession(for: changed, context: context)
    session.attach(plugin)
    return session
  }
}

/// Reads the variant bandwidths of a master playlist fixture.
enum PlayheadHLSMaster {
  static func bandwidths(_ url: URL) throws -> [Int] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> Int? in
      guard line.hasPrefix("#EXT-X-STREAM-INF:"), let range = line.range(of: "BANDWIDTH=") else {
        return nil
      }
      return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
  }
}
