import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class HLSPlaybackTests: XCTestCase {
  private func startServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func play(_ url: URL, configuration: PlayerConfiguration = .fast()) -> (
    Player, EventRecorder
  ) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    player.play()
    return (player, recorder)
  }

  func testTSLadderPlaysToEndOverHTTP() throws {
    let server = try startServer()
    let (player, recorder) = play(server.url("/hls/master.m3u8"))
    XCTAssertEqual(
      recorder.waitForEnd()?.name, "didPlayToEnd",
      "\(String(describing: recorder.events.last?.error))")
    let stats = try XCTUnwrap(player.currentItem?.statistics)
    XCTAssertEqual(stats.framesDecoded, 300)
    XCTAssertEqual(stats.framesRendered + stats.framesDropped, 300)
    XCTAssertEqual(player.currentItem?.duration.seconds ?? 0, 12, accuracy: 0.01)
    XCTAssertTrue(server.requests.contains { $0.path.hasSuffix("segment005.ts") })
  }

  func testLocalMediaPlaylistPlays() throws {
    let (player, recorder) = play(try Fixtures.url("hls/360p/index.m3u8"))
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 300)
  }

  func testSeekFetchesNoSegmentBeforeTheTarget() async throws {
    let server = try startServer()
    var configuration = PlayerConfiguration.fast()
    configuration.hls.forwardBufferDuration = MediaTime(value: 2, timescale: 1)
    configuration.hls.manualVariantIndex = 0
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls/master.m3u8"), configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let finished = await player.seek(to: MediaTime(value: 9, timescale: 1))
    XCTAssertTrue(finished)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let segments = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
    for skipped in ["segment001.ts", "segment002.ts", "segment003.ts"] {
      XCTAssertFalse(
        segments.contains { $0.hasSuffix(skipped) },
        "\(skipped) lies before the target: \(segments)")
    }
    XCTAssertTrue(segments.contains { $0.hasSuffix("segment004.ts") })
    XCTAssertEqual(player.currentTime().seconds, 12, accuracy: 0.1)
  }

  func testSegmentThatFailsTwiceIsRetried() throws {
    let server = try startServer(faults: ["/hls/144p/segment002.ts": .failTimes(2, status: 503)])
    var configuration = PlayerConfiguration.fast()
    configuration.hls.manualVariantIndex = 0
    configuration.request.retryCount = 3
    let (player, recorder) = play(server.url("/hls/master.m3u8"), configuration: configuration)
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 300)
    XCTAssertEqual(server.requests.filter { $0.path == "/hls/144p/segment002.ts" }.count, 3)
  }

  func testDeadSegmentEndsInFailedToPlayToEnd() throws {
    let server = try startServer(faults: ["/hls/144p/segment003.ts": .status(503)])
    var configuration = PlayerConfiguration.fast()
    configuration.hls.manualVariantIndex = 0
    configuration.request.retryCount = 2
    let (player, recorder) = play(server.url("/hls/master.m3u8"), configuration: configuration)
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failedToPlayToEnd")
    XCTAssertEqual(end?.error?.httpStatusCode, 503, "\(String(describing: end?.error))")
    XCTAssertEqual(server.requests.filter { $0.path == "/hls/144p/segment003.ts" }.count, 3)
    // Everything before the dead segment played.
    XCTAssertGreaterThanOrEqual(player.currentItem?.statistics.framesRendered ?? 0, 150)
  }

  func testResumeRebuildsTheSourceAfterANetworkFailure() throws {
    let server = try startServer(faults: ["/hls/144p/segment003.ts": .status(503)])
    var configuration = PlayerConfiguration.fast()
    configuration.hls.manualVariantIndex = 0
    configuration.request.retryCount = 0
    let (player, recorder) = play(server.url("/hls/master.m3u8"), configuration: configuration)
    XCTAssertEqual(recorder.waitForEnd()?.name, "failedToPlayToEnd")
    server.setFault(nil, for: "/hls/144p/segment003.ts")
    server.clearRequests()
    player.resume(at: MediaTime(value: 7, timescale: 1))
    recorder.waitFor(event: "resumeComplete")
    XCTAssertEqual(player.currentTime().seconds, 7, accuracy: 1e-6)
    player.play()
    recorder.waitFor(event: "didPlayToEnd")
    let fetched = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
    XCTAssertEqual(
      fetched.first, "/hls/144p/segment003.ts", "the rebuilt source starts at 7 s: \(fetched)")
    let names = recorder.names
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "resumeBegin")),
      try XCTUnwrap(names.firstIndex(of: "resumeComplete")))
  }

  func testPlaybackTooFarBehindTheLiveEdgeCatchesUp() throws {
    let server = try startServer()
    let segments = try Fixtures.hlsSegments()
    let publisher = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: segments, segmentDuration: 2,
      windowSize: 6, initialSegments: 6)
    var configuration = PlayerConfiguration.fast()
    configuration.hls.maximumLiveLatency = MediaTime(value: 4, timescale: 1)
    let (player, recorder) = play(publisher.url, configuration: configuration)
    // Playback starts three segments (6 s) behind the edge: more than the 4 s allowed.
    let jump = try XCTUnwrap(recorder.waitFor(event: "liveCatchUp"))
    guard case .liveCatchUp(_, let from, let to) = jump.kind else {
      return XCTFail("not a catch-up")
    }
    XCTAssertEqual(
      to.seconds - from.seconds, 4, accuracy: 0.1, "to 2 s (half the limit) from the edge")
    publisher.end()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertGreaterThanOrEqual(player.currentTime().seconds, 5.9)
  }

  func testLivePlaylistThatStopsChangingIsAnError() throws {
    let server = try startServer()
    let segment = try Data(contentsOf: try Fixtures.url("hls/144p/segment000.ts"))
    // One-second target duration: the playlist is stale after 3.5 s without change.
    let publisher = LiveHLSPublisher(
      server: server, path: "/stale/index.m3u8", segments: [segment], segmentDuration: 1,
      windowSize: 3, initialSegments: 3)
    let (_, recorder) = play(publisher.url)
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "failedToPlayToEnd")
    XCTAssertEqual(end?.error?.code, .timedOut, "\(String(describing: end?.error))")
    XCTAssertTrue(end?.error?.message.contains("has not changed") ?? false)
  }

  func testResumeOfAMissingStreamFails() throws {
    let server = try startServer()
    let (player, recorder) = play(server.url("/hls/master.m3u8"))
    recorder.waitFor(event: "readyToPlay")
    server.setFault(.status(404), for: "/hls/master.m3u8")
    player.resume(at: MediaTime(value: 1, timescale: 1))
    let failed = recorder.waitFor(event: "resumeFail")
    XCTAssertEqual(failed?.error?.httpStatusCode, 404)
  }

  func testLiveStreamPlaysAcrossReloads() throws {
    let server = try startServer()
    let segments = try Fixtures.hlsSegments()
    let publisher = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: segments, segmentDuration: 2,
      windowSize: 4, initialSegments: 4)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: publisher.url, configuration: .fast())
    defer { player.close() }
    player.play()
    recorder.waitFor(event: "firstFrame")
    XCTAssertTrue(
      player.currentItem?.duration.isIndefinite ?? false, "a live stream has no duration")
    // Publish three more segments, then end the stream; the player follows the reloads.
    for _ in 0..<3 { publisher.publishNext() }
    publisher.end()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertGreaterThanOrEqual(
      recorder.names.filter { $0 == "seekableTimeRangesChanged" }.count, 2,
      "the live window moved as segments were published")
    let playlistLoads = server.requests.filter { $0.path == "/live/index.m3u8" }.count
    XCTAssertGreaterThanOrEqual(playlistLoads, 2)
    XCTAssertTrue(
      server.requests.contains { $0.path == "/live/live6.ts" }, "the last published segment played")
  }
}

final class HLSFormatTests: XCTestCase {
  private func playToEnd(
    _ path: String, configuration: PlayerConfiguration = .fast(), server: HTTPTestServer? = nil
  )
    throws -> (Player, PlayerEvent?)
  {
    let url: URL
    if let server { url = server.url("/" + path) } else { url = try Fixtures.url(path) }
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    player.play()
    return (player, recorder.waitForEnd())
  }

  func testFragmentedMP4LadderPlaysToEnd() throws {
    let (player, end) = try playToEnd("hls-fmp4/master.m3u8")
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
  }

  func testSingleFileByteRangeStreamPlays() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let (player, end) = try playToEnd("hls-byterange/master.m3u8", server: server)
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    let ranges = server.requests.filter { $0.path.hasSuffix("media.ts") }.compactMap(\.range)
    XCTAssertEqual(ranges.count, 5, "one ranged request per segment: \(ranges)")
  }

  func testAES128StreamPlaysAcrossTwoKeys() throws {
    let (player, end) = try playToEnd("hls-aes/index.m3u8")
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
  }

  func testWrongKeyFailsCleanly() throws {
    let (_, end) = try playToEnd("hls-aes/index-wrongkey.m3u8")
    XCTAssertTrue(
      ["failed", "failedToPlayToEnd"].contains(end?.name ?? ""), "\(String(describing: end?.name))")
    XCTAssertEqual(end?.error?.category, .media)
  }

  func testRedundantVariantSurvivesThePrimaryFailing() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(),
      faults: ["/hls-redundant/primary/index.m3u8": .status(404)])
    try server.start()
    defer { server.stop() }
    let (player, end) = try playToEnd("hls-redundant/master.m3u8", server: server)
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    XCTAssertTrue(server.requests.contains { $0.path == "/hls-redundant/backup/index.m3u8" })
    XCTAssertTrue(player.currentItem?.currentVariant?.uri.contains("backup") ?? false)
  }

  func testAlternateRenditionsAndIFrameVariantsAreListed() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("hls-alt/master.m3u8"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let audio = item.renditions.filter { $0.type == "audio" }
    XCTAssertEqual(Set(audio.compactMap(\.language)), ["en", "fr"])
    XCTAssertTrue(audio.contains { $0.name == "Français" })
    XCTAssertEqual(item.renditions.filter { $0.type == "subtitles" }.count, 1)
    XCTAssertEqual(item.iFrameVariants.count, 1)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.statistics.framesDecoded, 250)
  }

  func testManualSelectionAndBackToAutomaticWhilePlaying() throws {
    var configuration = PlayerConfiguration.fast()
    configuration.hls.defaultBandwidthEstimate = 50_000_000
    configuration.hls.forwardBufferDuration = MediaTime(value: 2, timescale: 1)
    let item = PlayerItem(url: try Fixtures.url("hls/master.m3u8"))
    item.preferredVariantIndex = 0
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "trackChanged")
    XCTAssertEqual(
      item.currentVariant?.index, 0, "the manual choice applies from the first segment")
    // A peak cap set on the item applies too; then back to automatic.
    item.preferredVariantIndex = nil
    item.preferredPeakBitRate = 600_000
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    var heights: [Int?] = []
    for event in recorder.events {
      if case .variantChanged(_, let variant, _) = event.kind { heights.append(variant.height) }
    }
    XCTAssertEqual(heights.first, 144)
    XCTAssertTrue(heights.contains(360), "automatic again, capped at 600 kbit/s: \(heights)")
    XCTAssertFalse(heights.contains(720), "the cap holds: \(heights)")
  }

  func testVariantsAndStreamKindAreReported() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("hls/master.m3u8"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.streamKind, .vod)
    recorder.waitFor(event: "seekableTimeRangesChanged")
    XCTAssertEqual(item.seekableTimeRanges.first?.end.seconds ?? 0, 12, accuracy: 0.01)
    XCTAssertEqual(item.variants.map(\.height), [144, 360, 720])
    player.play()
    recorder.waitForEnd()
    XCTAssertTrue(recorder.names.contains("trackChanged"))
    XCTAssertNotNil(item.bandwidthEstimate)
  }
}
