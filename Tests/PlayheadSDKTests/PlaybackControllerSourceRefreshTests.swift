import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Makes players whose progressive items read ahead only a little, so that a file is
/// fetched in many range requests over its duration (the point where an expired URL shows).
private final class SmallReadAheadProvider: PlaybackSessionProvider {
  var upstream: (any PlaybackSessionProvider)? { nil }

  func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession {
    guard let source = video.sources.first else {
      return PlaybackSession(
        video: video, failure: PlayheadSDKError(.noPlayableSource, "no source"))
    }
    // 16 KiB (or the least `RequestConfiguration` allows, if that is more).
    var configuration = context.playerConfiguration
    configuration.request.readAheadBytes = 16 * 1024
    let player = Player(
      playerItem: PlayerItem(asset: Asset(url: source.url)), configuration: configuration)
    return PlaybackSession(video: video, source: source, player: player)
  }
}

/// A token issued by the test catalog; the media server accepts only the latest one.
private final class TokenIssuer: @unchecked Sendable {
  private let lock = NSLock()
  private var issued = 0

  func issue() -> Int {
    lock.lock()
    defer { lock.unlock() }
    issued += 1
    return issued
  }

  var latest: Int {
    lock.lock()
    defer { lock.unlock() }
    return issued
  }
}

/// The controller's refresh of expired session URLs: the application's hook and the
/// catalog's manifest time to live, over the in-process Playback API server.
final class PlaybackControllerSourceRefreshTests: XCTestCase {
  private let epoch: Int64 = 1_900_000_000

  private func fastConfiguration() -> PlayerConfiguration {
    var configuration = PlayerConfiguration.fast(videoSink: DiscardVideoSink())
    configuration.sourceRefresh.wallClockSeconds = SourceRefreshOptions.wallClock(
      following: configuration.clock, epochSeconds: epoch)
    return configuration
  }

  private func lifecycleEvents(_ recorder: SDKRecorder) -> [String] {
    recorder.entries.filter { $0.kind == "lifecycle" }.map(\.detail)
  }

  func testCatalogManifestTTL_refetchesTheVideo_andPlaysOnFromTheSamePosition() throws {
    let api = try CatalogTestAPI(testCase: self, withFixtures: true)
    let issuer = TokenIssuer()
    let videoPath = CatalogTestAPI.videoPath("v1")
    let media = api.server.url("/sample-h264-aac.mp4").absoluteString
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1", src: media + "?token=TOKEN"))
    // Each catalog answer carries a new token; the media accepts only the latest.
    api.server.setBodyRewriter { request, body in
      guard request.path == videoPath else { return body }
      let text = String(decoding: body, as: UTF8.self)
      return Data(text.replacingOccurrences(of: "TOKEN", with: "\(issuer.issue())").utf8)
    }
    api.server.setRequestGate { request in
      guard request.path == "/sample-h264-aac.mp4" else { return nil }
      return request.queryItems["token"] == "\(issuer.latest)" ? nil : 403
    }
    let service = api.service()
    let fetched = catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(identifier: "v1"))
    }
    let video = try fetched.get().video

    let (controller, recorder) = SDKTesting.makeController(
      provider: SmallReadAheadProvider(), configuration: fastConfiguration())
    defer { controller.close() }
    // 1 s (the shortest): the demuxer reads the fixture in 64 KiB pieces (at clock times 0,
    // 2 and 6 s), so a time to live of 2 s may end only after the last request went out.
    controller.catalogSourceRefresh = CatalogSourceRefresh(service: service, manifestTTLSeconds: 1)
    controller.autoPlay = true
    controller.setVideos([video])
    recorder.waitFor("the end or a failure") { entries in
      entries.contains {
        $0.kind == "lifecycle" && ["end", "fail", "failedToPlayToEndTime"].contains($0.detail)
      }
    }

    let events = lifecycleEvents(recorder)
    XCTAssertTrue(events.contains("end"), "\(events)")
    XCTAssertFalse(events.contains("failedToPlayToEndTime"), "\(events)")
    XCTAssertFalse(events.contains("playbackStalled"), "\(events)")
    let refreshes = events.filter { $0 == "sourceRefreshed" }.count
    XCTAssertGreaterThanOrEqual(refreshes, 1, "\(events)")
    XCTAssertEqual(
      api.requests(to: videoPath).count, 1 + refreshes, "one catalog fetch per refresh")
    let mediaRequests = api.server.requests.filter { $0.path == "/sample-h264-aac.mp4" }
    XCTAssertGreaterThanOrEqual(
      Set(mediaRequests.compactMap { $0.queryItems["token"] }).count, 2,
      "the media was fetched with a fresh token")
    let continued = mediaRequests.filter {
      $0.queryItems["token"] != "1" && $0.range != nil && $0.range != "bytes=0-"
    }
    XCTAssertFalse(
      continued.isEmpty, "the fresh URL continues at an offset: \(mediaRequests.map(\.range))")
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.player?.currentItem?.statistics.framesDecoded, 250)
  }

  func testCatalogManifestTTL_leavesAVideoWithoutAnID_playingOn() throws {
    let api = try CatalogTestAPI(testCase: self, withFixtures: true)
    let url = api.server.url("/sample-h264-aac.mp4")
    // Not from the catalog: no id, so nothing to fetch again and no time to live.
    let video = Video(url: url)
    XCTAssertNil(video.id)
    let (controller, recorder) = SDKTesting.makeController(
      provider: SmallReadAheadProvider(), configuration: fastConfiguration())
    defer { controller.close() }
    controller.catalogSourceRefresh = CatalogSourceRefresh(
      service: api.service(), manifestTTLSeconds: 2)
    controller.autoPlay = true
    controller.setVideos([video])
    recorder.waitFor("the end or a failure") { entries in
      entries.contains {
        $0.kind == "lifecycle" && ["end", "fail", "failedToPlayToEndTime"].contains($0.detail)
      }
    }
    let events = lifecycleEvents(recorder)
    XCTAssertTrue(events.contains("end"), "\(events)")
    XCTAssertFalse(events.contains("sourceRefreshFailed"), "\(events)")
  }

  func testControllerHook_doesNotKeepTheSessionAlive() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    server.setRequestGate { _ in 403 }
    weak var released: PlaybackSession?
    do {
      let video = SDKTesting.video(id: "leak", url: server.url("/sample-h264-aac.mp4"))
      let (controller, recorder) = SDKTesting.makeController(configuration: fastConfiguration())
      controller.urlSourceExpiredHandler = { _, _, callback in callback.onError("denied") }
      controller.autoPlay = true
      controller.setVideos([video])
      recorder.waitFor(lifecycle: "fail")
      released = recorder.sessions.first
      XCTAssertNotNil(released)
      controller.close()
    }
    // The callback queue may still hand out the last events; the session goes after them.
    let gone = XCTNSPredicateExpectation(
      predicate: NSPredicate { _, _ in released == nil }, object: nil)
    wait(for: [gone], timeout: 10)
    XCTAssertNil(released, "the session's refresh hook keeps it (and its player) alive")
  }

  func testCatalogManifestTTL_ofTheEndOfTime_doesNotTrap() throws {
    let api = try CatalogTestAPI(testCase: self, withFixtures: true)
    let video = SDKTesting.video(id: "v1", url: api.server.url("/sample-h264-aac.mp4"))
    let (controller, recorder) = SDKTesting.makeController(configuration: fastConfiguration())
    defer { controller.close() }
    controller.catalogSourceRefresh = CatalogSourceRefresh(
      service: api.service(), manifestTTLSeconds: .max)
    controller.autoPlay = true
    controller.setVideos([video])
    recorder.waitFor("the end or a failure") { entries in
      entries.contains { $0.kind == "lifecycle" && ["end", "fail"].contains($0.detail) }
    }
    XCTAssertTrue(lifecycleEvents(recorder).contains("end"), "\(lifecycleEvents(recorder))")
  }

  func testControllerHook_getsTheSession_andItsAnswerIsUsed() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    server.setRequestGate { request in request.queryItems["token"] == "fresh" ? nil : 410 }
    let url = server.url("/sample-h264-aac.mp4")
    let video = SDKTesting.video(id: "hooked", url: url)
    let (controller, recorder) = SDKTesting.makeController(configuration: fastConfiguration())
    defer { controller.close() }
    let seen = LockedSessions()
    controller.urlSourceExpiredHandler = { session, expired, callback in
      seen.add(session.video.id, expired)
      callback.onSuccess(URL(string: expired.url.absoluteString + "?token=fresh")!)
    }
    controller.autoPlay = true
    controller.setVideos([video])
    recorder.waitFor("the end or a failure") { entries in
      entries.contains { $0.kind == "lifecycle" && ["end", "fail"].contains($0.detail) }
    }
    let events = lifecycleEvents(recorder)
    XCTAssertTrue(events.contains("end"), "\(events)")
    XCTAssertTrue(events.contains("sourceRefreshed"), "\(events)")
    XCTAssertEqual(seen.ids, ["hooked"])
    XCTAssertEqual(seen.expired.first?.reason, .httpStatus(410))
    XCTAssertEqual(seen.expired.first?.purpose, .media)
  }

  func testControllerHook_onError_failsTheSession() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    server.setRequestGate { _ in 403 }
    let video = SDKTesting.video(id: "denied", url: server.url("/sample-h264-aac.mp4"))
    let (controller, recorder) = SDKTesting.makeController(configuration: fastConfiguration())
    defer { controller.close() }
    controller.urlSourceExpiredHandler = { _, _, callback in callback.onError("licence withdrawn") }
    controller.autoPlay = true
    controller.setVideos([video])
    recorder.waitFor(lifecycle: "fail")
    let events = lifecycleEvents(recorder)
    let failedIndex = try XCTUnwrap(events.firstIndex(of: "sourceRefreshFailed"), "\(events)")
    XCTAssertLessThan(failedIndex, try XCTUnwrap(events.firstIndex(of: "fail")))
    let fail = recorder.entries.first { $0.kind == "lifecycle" && $0.detail == "fail" }
    XCTAssertEqual(fail?.error?.code, .sourceExpired)
    XCTAssertTrue(fail?.error?.message.hasSuffix("licence withdrawn") ?? false)
  }
}

/// What the controller hook saw.
private final class LockedSessions: @unchecked Sendable {
  private let lock = NSLock()
  private var videoIDs: [String?] = []
  private var calls: [ExpiredURLSource] = []

  func add(_ id: String?, _ expired: ExpiredURLSource) {
    lock.lock()
    videoIDs.append(id)
    calls.append(expired)
    lock.unlock()
  }

  var ids: [String?] {
    lock.lock()
    defer { lock.unlock() }
    return videoIDs
  }

  var expired: [ExpiredURLSource] {
    lock.lock()
    defer { lock.unlock() }
    return calls
  }
}
