import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Expiring URLs during playback (SPEC L5): a "CDN" checks type-A signatures against a wall
/// time that follows the player's `ManualClock`, and signs the URIs of the playlists it
/// serves with a short validity; the player refreshes what expires through
/// `urlSourceExpiredHandler` and plays on.
///
/// The HLS cases run over `SimulatedSignedCDN` (a network in front of a `SimulatedNetwork` whose
/// time is on the same clock), driven by `PlaybackClockDriver`: deterministic and fast. The
/// progressive cases run end to end over HTTP against `SignedCDN` on `HTTPTestServer`.
final class SourceExpiryPlaybackTests: XCTestCase {
  private let epoch: Int64 = 1_800_000_000
  private let signer = CDNTypeASigner(key: "playhead-cdn-key")
  private let base = URL(string: "http://cdn.test/")!

  private struct Setup {
    var server: HTTPTestServer
    var cdn: SignedCDN
    var wall: @Sendable () -> Int64
  }

  /// A signed CDN over HTTP (for the progressive cases).
  private func startCDN(
    clock: ManualClock, status: Int = 403, playlistValiditySeconds: Int64 = 3
  ) throws -> Setup {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let wall = SourceRefreshOptions.wallClock(following: clock, epochSeconds: epoch)
    let signer = self.signer
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url }, nowSeconds: wall,
      rejectionStatus: status, signsPlaylists: true,
      playlistValiditySeconds: playlistValiditySeconds)
    return Setup(server: server, cdn: cdn, wall: wall)
  }

  /// A signed CDN over a simulated network (20 Mbit/s, 20 ms) on `clock`, serving the
  /// fixture folders `folders` under `base`. `graceSeconds` 1 lets a URL the player found
  /// valid pass even when the clock moved on to the next second while it was on its way
  /// (so that clock-detected expiries are never also refused).
  private func simulatedCDN(
    clock: ManualClock, folders: [String] = ["hls"], status: Int = 403,
    graceSeconds: Int64 = 0, playlistValiditySeconds: Int64 = 3
  ) throws -> (cdn: SimulatedSignedCDN, wall: @Sendable () -> Int64) {
    let network = SimulatedNetwork(
      resources: try SimulatedSignedCDN.resources(
        folders, in: try Fixtures.directory(), base: base),
      trace: .constant(bandwidthKbps: 20_000, latencyMs: 20), clock: clock)
    let wall = SourceRefreshOptions.wallClock(following: clock, epochSeconds: epoch)
    let cdn = SimulatedSignedCDN(
      upstream: network, signer: signer, nowSeconds: wall, rejectionStatus: status,
      graceSeconds: graceSeconds, playlistValiditySeconds: playlistValiditySeconds)
    return (cdn, wall)
  }

  /// A configuration that re-signs expired URLs for `validitySeconds`; with `detectsByClock`
  /// the signer's expiry is checked before sending. Every load goes through
  /// `network` (files and HTTP when nil).
  private func configuration(
    clock: any Clock, wall: @escaping @Sendable () -> Int64, detectsByClock: Bool,
    validitySeconds: Int64 = 3, sink: RecordingVideoSink? = nil,
    network: (any DataSourceFactory)? = nil
  ) -> PlayerConfiguration {
    var configuration = PlayerConfiguration(clock: clock, videoSink: sink)
    configuration.network = network
    configuration.hls.manualVariantIndex = 1
    configuration.hls.forwardBufferDuration = MediaTime(value: 4, timescale: 1)
    configuration.urlSourceExpiredHandler = SourceRefresh.resigning(
      with: signer, validitySeconds: validitySeconds, wallClockSeconds: wall)
    configuration.sourceRefresh = SourceRefreshOptions(
      signer: detectsByClock ? signer : nil, wallClockSeconds: wall)
    return configuration
  }

  /// Plays `player` on `driver` from a buffered start to its end, checks that it ended
  /// without a stall, and returns the recorder of its events.
  private func playToEndWithoutAStall(
    _ player: Player, on driver: PlaybackClockDriver, file: StaticString = #filePath,
    line: UInt = #line
  ) -> EventRecorder {
    let recorder = EventRecorder(player)
    driver.playWhenBuffered(player)
    driver.drive(player, recorder: recorder, file: file, line: line)
    XCTAssertEqual(
      recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)", file: file, line: line)
    XCTAssertFalse(
      recorder.names.contains("playbackStalled"), timeline(recorder), file: file, line: line)
    return recorder
  }

  /// The events with their clock and item times, for failure messages.
  private func timeline(_ recorder: EventRecorder) -> String {
    recorder.events.map { "\($0.name)@\($0.clockTime.seconds)/\($0.itemTime.seconds)" }
      .joined(separator: " ")
  }

  private func refreshes(_ recorder: EventRecorder) -> [SourceRefreshRecord] {
    recorder.events.compactMap { event in
      if case .sourceRefreshed(_, let record) = event.kind { return record }
      return nil
    }
  }

  private func failures(_ recorder: EventRecorder) -> [SourceRefreshFailure] {
    recorder.events.compactMap { event in
      if case .sourceRefreshFailed(_, let failure) = event.kind { return failure }
      return nil
    }
  }

  /// Every refreshed URL went to the server with a new `auth_key`.
  private func assertFetchedWithNewKeys(
    _ records: [SourceRefreshRecord], _ server: HTTPTestServer, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let sent = Set(server.requests.map { "\($0.path)?\($0.query ?? "")" })
    assertFetchedWithNewKeys(records, sent: sent, file: file, line: line)
  }

  /// Every refreshed URL went to the simulated CDN with a new `auth_key`.
  private func assertFetchedWithNewKeys(
    _ records: [SourceRefreshRecord], _ cdn: SimulatedSignedCDN, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let sent = Set(cdn.requests.map { "\($0.path)?\($0.query ?? "")" })
    assertFetchedWithNewKeys(records, sent: sent, file: file, line: line)
  }

  private func assertFetchedWithNewKeys(
    _ records: [SourceRefreshRecord], sent: Set<String>, file: StaticString, line: UInt
  ) {
    for record in records {
      let fresh = record.newURL.query ?? ""
      XCTAssertNotEqual(fresh, record.expired.url.query ?? "", file: file, line: line)
      XCTAssertTrue(
        sent.contains("\(record.newURL.path)?\(fresh)"),
        "\(record.newURL) was not fetched", file: file, line: line)
    }
  }

  /// Presented frames follow one another with no gap (above `maximumGapSeconds`) and no
  /// jump back.
  private func assertContinuous(
    _ times: [MediaTime], maximumGapSeconds: Double = 0.05, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertFalse(times.isEmpty, "no frame was presented", file: file, line: line)
    for (previous, next) in zip(times, times.dropFirst()) {
      let gap = (next - previous).seconds
      XCTAssertTrue(
        gap > 0 && gap < maximumGapSeconds, "gap \(gap) s at \(previous.seconds)", file: file,
        line: line)
    }
  }

  func testHLSVOD_playsAcrossSeveralExpiries_withoutAStall() throws {
    let driver = PlaybackClockDriver()
    let (cdn, wall) = try simulatedCDN(
      clock: driver.manual, graceSeconds: 1, playlistValiditySeconds: 1)
    let sink = RecordingVideoSink()
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch + 3)
    let player = Player(
      url: master,
      configuration: configuration(
        clock: driver.clock, wall: wall, detectsByClock: true, validitySeconds: 1, sink: sink,
        network: cdn))
    defer { player.close() }
    let recorder = playToEndWithoutAStall(player, on: driver)
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded ?? sink.presentedTimes.count, 300)
    XCTAssertEqual(sink.presentedTimes.count, 300)
    assertContinuous(sink.presentedTimes)
    let records = refreshes(recorder)
    let segments = records.filter { $0.expired.purpose == .segment }
    XCTAssertGreaterThanOrEqual(segments.count, 3, "segments expired more than once: \(records)")
    XCTAssertTrue(
      records.allSatisfy { if case .signatureExpired = $0.expired.reason { true } else { false } },
      "\(records)")
    XCTAssertEqual(cdn.refusals, [], "expired URLs were detected before they were sent")
    assertFetchedWithNewKeys(records, cdn)
    XCTAssertEqual(failures(recorder), [])
    // The refreshes were spread over the clock: several expiries, not one.
    XCTAssertGreaterThanOrEqual(Set(records.map { signer.expiry(of: $0.newURL) }).count, 3)
  }

  func testHLSWithKeys_refreshesKeysAndSegments() throws {
    let driver = PlaybackClockDriver()
    let (cdn, wall) = try simulatedCDN(
      clock: driver.manual, folders: ["hls-aes"], graceSeconds: 1, playlistValiditySeconds: 1)
    let sink = RecordingVideoSink()
    let url = try signer.sign(base.appendingPathComponent("hls-aes/index.m3u8"), expiry: epoch + 3)
    let player = Player(
      url: url,
      configuration: configuration(
        clock: driver.clock, wall: wall, detectsByClock: true, validitySeconds: 1, sink: sink,
        network: cdn))
    defer { player.close() }
    let recorder = playToEndWithoutAStall(player, on: driver)
    assertContinuous(sink.presentedTimes)
    let records = refreshes(recorder)
    XCTAssertTrue(records.contains { $0.expired.purpose == .key }, "\(records)")
    XCTAssertTrue(records.contains { $0.expired.purpose == .segment }, "\(records)")
    assertFetchedWithNewKeys(records, cdn)
    XCTAssertEqual(cdn.refusals, [], "expired URLs were detected before they were sent")
    let keyLoads = cdn.requests.filter { $0.path == "/hls-aes/key2.bin" }
    XCTAssertEqual(keyLoads.count, 1, "the second key was only fetched on the fresh URL")
  }

  func testHLSLive_refreshesThePlaylistAcrossReloads_withoutAStall() throws {
    let driver = PlaybackClockDriver()
    let (cdn, wall) = try simulatedCDN(clock: driver.manual, graceSeconds: 1)
    let segments = try Fixtures.hlsSegments()
    let network = cdn.upstream
    let base = self.base
    let publisher = LiveHLSPublisher(
      baseURL: base,
      publish: { data, path in
        network.setResource(data, for: URL(string: path, relativeTo: base)!.absoluteURL)
      },
      path: "/live/index.m3u8", segments: segments, segmentDuration: 2, windowSize: 4,
      initialSegments: 4)
    let url = try signer.sign(publisher.url, expiry: epoch + 3)
    let sink = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: url,
      configuration: configuration(
        clock: driver.clock, wall: wall, detectsByClock: true, sink: sink, network: cdn))
    defer { player.close() }
    // One segment every 2 s of clock time, 8 more in all, then the end: published by a
    // worker of the clock, so at exactly those clock times.
    let clock = driver.manual
    let start = clock.now
    clock.startThread(named: "test.publisher") {
      for step in 1...9 {
        clock.sleep(until: start + MediaTime(value: Int64(2 * step), timescale: 1))
        if step <= 8 { publisher.publishNext() } else { publisher.end() }
      }
    }
    driver.playWhenBuffered(player)
    driver.drive(player, recorder: recorder)

    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertFalse(recorder.names.contains("playbackStalled"), timeline(recorder))
    assertContinuous(sink.presentedTimes)
    let records = refreshes(recorder)
    let playlists = records.filter { $0.expired.purpose == .playlist }
    XCTAssertGreaterThanOrEqual(playlists.count, 2, "the live playlist expired again and again")
    assertFetchedWithNewKeys(records, cdn)
    let reloads = cdn.requests.filter { $0.path == "/live/index.m3u8" }
    XCTAssertGreaterThanOrEqual(Set(reloads.compactMap(\.query)).count, 3)
    XCTAssertTrue(cdn.requests.contains { $0.path == "/live/live11.ts" })
  }

  func testStatus410_isRefreshedAfterTheServerRejectsTheURL() throws {
    let driver = PlaybackClockDriver()
    let (cdn, wall) = try simulatedCDN(clock: driver.manual, status: 410)
    let sink = RecordingVideoSink()
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch + 3)
    let player = Player(
      url: master,
      configuration: configuration(
        clock: driver.clock, wall: wall, detectsByClock: false, sink: sink, network: cdn))
    defer { player.close() }
    let recorder = playToEndWithoutAStall(player, on: driver)
    XCTAssertEqual(sink.presentedTimes.count, 300)
    assertContinuous(sink.presentedTimes)
    let records = refreshes(recorder)
    XCTAssertFalse(records.isEmpty)
    XCTAssertTrue(records.allSatisfy { $0.expired.reason == .httpStatus(410) }, "\(records)")
    XCTAssertEqual(cdn.refusals.count, records.count, "one refusal per refresh")
    XCTAssertTrue(cdn.refusals.allSatisfy { $0.status == 410 })
    assertFetchedWithNewKeys(records, cdn)
  }

  func testProgressiveMP4_continuesOnTheFreshURLFromTheSameOffset() throws {
    let driver = PlaybackClockDriver()
    let setup = try startCDN(clock: driver.manual)
    // Valid for the requests of the start (clock time below 2 s).
    let url = try signer.sign(setup.server.url("/sample-h264-aac.mp4"), expiry: epoch + 1)
    var configuration = configuration(
      clock: driver.clock, wall: setup.wall, detectsByClock: false, validitySeconds: 1)
    // A small read-ahead (16 KiB): the file is fetched in many requests over the 10 s,
    // each continuing where the bytes held ran out as playback reads them, so requests go
    // out after the URL expired however fast the server sends.
    configuration.request.readAheadBytes = 16 * 1024
    let (player, recorder) = EventRecorder.recordingPlayer(
      PlayerItem(asset: Asset(url: url)), configuration: configuration)
    defer { player.close() }
    player.play()
    driver.drive(player, recorder: recorder)

    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    let records = refreshes(recorder)
    XCTAssertFalse(records.isEmpty, "the URL expired: \(setup.server.requests.map(\.range))")
    XCTAssertTrue(records.allSatisfy { $0.expired.purpose == .media })
    assertFetchedWithNewKeys(records, setup.server)
    let fresh = Set(records.compactMap { $0.newURL.query })
    let continued = setup.server.requests.filter { request in
      fresh.contains(request.query ?? "") && request.range != nil && request.range != "bytes=0-"
    }
    XCTAssertFalse(
      continued.isEmpty, "a fresh URL continues at an offset: \(setup.server.requests.map(\.range))"
    )
  }

  func testProgressiveThroughTheDiskCache_refreshesBelowTheCache_oncePerExpiredURL() throws {
    let clock = ManualClock(advancesOnWait: true)
    let setup = try startCDN(clock: clock)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-expiry-cache-\(UUID().uuidString)")
    let cache = try MediaCache.open(
      directory: folder, configuration: .init(progressiveChunkBytes: 16 * 1024))
    addTeardownBlock {
      cache.close()
      try? FileManager.default.removeItem(at: folder)
    }
    let calls = LockedCalls()
    let signer = self.signer
    let wall = setup.wall
    var configuration = PlayerConfiguration(clock: clock)
    configuration.cache = cache
    // A small read-ahead (16 KiB): the cache's upstream transfer stops and continues with
    // a new request as playback reads, so requests go out after the URL expired.
    configuration.request.readAheadBytes = 16 * 1024
    configuration.urlSourceExpiredHandler = { expired, callback in
      calls.add(expired.url)
      callback.onSuccess((try? signer.sign(expired.url, expiry: wall() + 1)) ?? expired.url)
    }
    let url = try signer.sign(setup.server.url("/sample-h264-aac.mp4"), expiry: epoch + 1)
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    defer { player.close() }
    player.play()

    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    // Every request of the cache's upstream goes through one refresher: never two
    // callbacks for one expired URL. (SourceRefresherTests forces the concurrent case.)
    XCTAssertFalse(calls.urls.isEmpty, "the URL expired during playback")
    XCTAssertEqual(Set(calls.urls).count, calls.urls.count, "one callback per expired URL")
    XCTAssertEqual(refreshes(recorder).count, calls.urls.count)
  }

  func testOnError_failsTheItemWithSourceExpired_andTheEvent() throws {
    let clock = ManualClock(advancesOnWait: true)
    let (cdn, _) = try simulatedCDN(clock: clock)
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch - 60)
    var configuration = PlayerConfiguration(clock: clock)
    configuration.network = cdn
    configuration.urlSourceExpiredHandler = { _, callback in
      DispatchQueue.global().async { callback.onError("REFRESH_ERROR:key fail") }
    }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: master, configuration: configuration)
    defer { player.close() }
    player.play()

    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failed")
    XCTAssertEqual(end?.error?.code, .sourceExpired)
    XCTAssertEqual(end?.error?.httpStatusCode, 403)
    XCTAssertTrue(end?.error?.message.hasSuffix("REFRESH_ERROR:key fail") ?? false)
    let names = recorder.names
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "sourceRefreshFailed")),
      try XCTUnwrap(names.firstIndex(of: "failed")))
    XCTAssertEqual(failures(recorder).first?.reason, .handlerError("REFRESH_ERROR:key fail"))
  }

  func testOnErrorWhilePlaying_endsInFailedToPlayToEnd() throws {
    let driver = PlaybackClockDriver()
    let (cdn, wall) = try simulatedCDN(clock: driver.manual, graceSeconds: 1)
    let sink = RecordingVideoSink()
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch + 3)
    var configuration = configuration(
      clock: driver.clock, wall: wall, detectsByClock: true, sink: sink, network: cdn)
    configuration.urlSourceExpiredHandler = { _, callback in callback.onError("subscription ended")
    }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: master, configuration: configuration)
    defer { player.close() }
    driver.playWhenBuffered(player)
    driver.drive(player, recorder: recorder)

    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failedToPlayToEnd", "\(recorder.names)")
    XCTAssertEqual(end?.error?.code, .sourceExpired)
    XCTAssertTrue(end?.error?.message.hasSuffix("subscription ended") ?? false)
    let names = recorder.names
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "sourceRefreshFailed")),
      try XCTUnwrap(names.firstIndex(of: "failedToPlayToEnd")))
    // The media buffered before the failure played out, without a gap.
    XCTAssertFalse(sink.presentedTimes.isEmpty, "nothing played before the failure")
    assertContinuous(sink.presentedTimes)
  }

  func testHandlerThatNeverAnswers_failsAfterTheTimeoutOnThePlayersClock() throws {
    let clock = ManualClock()
    let (cdn, _) = try simulatedCDN(clock: clock)
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch - 60)
    let calls = LockedCounter()
    let called = expectation(description: "the handler is called")
    var configuration = PlayerConfiguration(clock: clock)
    configuration.urlSourceExpiredHandler = { _, _ in
      calls.increment()
      called.fulfill()
    }
    configuration.sourceRefresh.timeoutMs = 8_000
    configuration.network = cdn
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: master, configuration: configuration)
    defer { player.close() }
    player.play()

    wait(for: [called], timeout: 30)
    clock.advance(by: MediaTime(value: 7, timescale: 1))
    XCTAssertFalse(recorder.names.contains("failed"))
    clock.advance(by: MediaTime(value: 1, timescale: 1))
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failed")
    XCTAssertEqual(end?.error?.code, .sourceExpired)
    XCTAssertEqual(failures(recorder).first?.reason, .timedOut(MediaTime(value: 8, timescale: 1)))
    XCTAssertEqual(calls.value, 1)
  }

  func testHandlerReturningExpiredURLs_endsInATypedError_afterBoundedAttempts() throws {
    let clock = ManualClock(advancesOnWait: true)
    let (cdn, _) = try simulatedCDN(clock: clock)
    let master = try signer.sign(base.appendingPathComponent("hls/master.m3u8"), expiry: epoch - 60)
    let calls = LockedCounter()
    let signer = self.signer
    let epoch = self.epoch
    var configuration = PlayerConfiguration(clock: clock)
    configuration.sourceRefresh.maximumAttempts = 4
    configuration.network = cdn
    configuration.urlSourceExpiredHandler = { expired, callback in
      calls.increment()
      // Signed, but already expired.
      callback.onSuccess(try! signer.sign(expired.url, expiry: epoch - Int64(calls.value)))
    }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: master, configuration: configuration)
    defer { player.close() }
    player.play()

    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failed")
    XCTAssertEqual(end?.error?.code, .sourceExpired)
    XCTAssertEqual(calls.value, 4)
    XCTAssertEqual(failures(recorder).last?.reason, .tooManyAttempts(4))
    XCTAssertEqual(cdn.refusals.count, 5, "the original and each of the 4 answers")
  }
}

/// The expired URLs a handler was called with.
private final class LockedCalls: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [URL] = []

  func add(_ url: URL) {
    lock.lock()
    list.append(url)
    lock.unlock()
  }

  var urls: [URL] {
    lock.lock()
    defer { lock.unlock() }
    return list
  }
}

/// A counter shared with handler closures.
private final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}
