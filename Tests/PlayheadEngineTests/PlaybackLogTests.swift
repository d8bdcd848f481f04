import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// The item's access log (one entry per rendition played) and error log (every error met,
/// with `errorLogEntryAdded`), as AVPlayerItemAccessLog and AVPlayerItemErrorLog (SPEC P3).
final class PlaybackLogTests: XCTestCase {
  private func playToEnd(_ url: URL) -> (Player, EventRecorder) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: .fast())
    addTeardownBlock { player.close() }
    player.play()
    recorder.waitForEnd()
    return (player, recorder)
  }

  func testAccessLog_progressive_oneEntryWithBytesStartupAndDuration() throws {
    let url = try Fixtures.url("sample-h264-aac.mp4")
    let (player, recorder) = playToEnd(url)
    let item = try XCTUnwrap(player.currentItem)
    let log = item.accessLog()
    XCTAssertEqual(log.count, 1)
    XCTAssertEqual(recorder.names.filter { $0 == "accessLogEntry" }.count, 1)
    let entry = try XCTUnwrap(log.first)
    XCTAssertEqual(entry.uri, url.absoluteString)
    XCTAssertEqual(entry.durationWatched.seconds, 10, accuracy: 0.05)
    XCTAssertEqual(entry.bytesTransferred, item.statistics.bytesRead)
    XCTAssertGreaterThan(entry.bytesTransferred, 200_000)
    XCTAssertEqual(
      entry.observedBitrate, Double(entry.bytesTransferred) * 8 / entry.durationWatched.seconds,
      accuracy: 1)
    XCTAssertEqual(entry.stallCount, 0)
    XCTAssertEqual(entry.droppedVideoFrameCount, 0)
    XCTAssertEqual(entry.startupTime, item.statistics.timeToFirstFrame)
    XCTAssertTrue(entry.startupTime.isNumeric)
  }

  func testAccessLog_HLS_oneEntryPerRenditionPlayed() throws {
    let (player, recorder) = playToEnd(try Fixtures.url("hls/master.m3u8"))
    let item = try XCTUnwrap(player.currentItem)
    let switches = recorder.events.compactMap { event -> VariantInfo? in
      if case .variantChanged(_, let variant, _) = event.kind { return variant }
      return nil
    }
    XCTAssertGreaterThanOrEqual(switches.count, 2, "the ladder climbs in fast mode")
    let log = item.accessLog()
    XCTAssertEqual(log.count, switches.count, "\(log.map(\.uri))")
    XCTAssertEqual(log.map(\.uri), switches.map(\.uri))
    XCTAssertEqual(log.map(\.indicatedBitrate), switches.map { Double($0.bandwidth) })
    let watched = log.reduce(MediaTime.zero) { $0 + $1.durationWatched }
    XCTAssertEqual(watched.seconds, item.duration.seconds, accuracy: 0.1)
    XCTAssertEqual(log.reduce(0) { $0 + $1.bytesTransferred }, item.statistics.bytesRead)
    XCTAssertTrue(log[0].startupTime.isNumeric)
    XCTAssertTrue(log.dropFirst().allSatisfy { !$0.startupTime.isNumeric })
  }

  func testErrorLog_failedOpen_hasTheError_andTheEvent() throws {
    let missing = URL(fileURLWithPath: "/nonexistent/playhead/missing.mp4")
    let (player, recorder) = playToEnd(missing)
    let log = try XCTUnwrap(player.currentItem).errorLog()
    XCTAssertEqual(log.count, 1)
    XCTAssertEqual(log.first?.error.code, .fileNotFound)
    XCTAssertEqual(log.first?.uri, missing.absoluteString)
    let logged = recorder.events.filter { $0.name == "errorLogEntry" }
    XCTAssertEqual(logged.count, 1)
    XCTAssertEqual(logged.first?.error?.code, .fileNotFound)
  }

  func testErrorLog_aFailedRedundantURI_isLogged_andPlaybackGoesOn() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(),
      faults: ["/hls-redundant/primary/index.m3u8": .status(404)])
    try server.start()
    defer { server.stop() }
    let (player, recorder) = playToEnd(server.url("/hls-redundant/master.m3u8"))
    XCTAssertTrue(recorder.names.contains("didPlayToEnd"), "\(recorder.names)")
    let log = try XCTUnwrap(player.currentItem).errorLog()
    XCTAssertEqual(log.count, 1, "\(log.map(\.error.message))")
    XCTAssertEqual(log.first?.error.code, .httpStatus)
    XCTAssertEqual(log.first?.error.httpStatusCode, 404)
    XCTAssertEqual(recorder.names.filter { $0 == "errorLogEntry" }.count, 1)
  }

  func testErrorLog_aSegmentThatFailsMidPlay_endsWithFailedToPlayToEnd_andIsLogged() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), faults: ["/hls/144p/segment003.ts": .status(404)])
    try server.start()
    defer { server.stop() }
    let (player, recorder) = playToEnd(server.url("/hls/144p/index.m3u8"))
    let end = try XCTUnwrap(recorder.waitForEnd())
    XCTAssertEqual(end.name, "failedToPlayToEnd")
    let log = try XCTUnwrap(player.currentItem).errorLog()
    XCTAssertEqual(log.last?.error, end.error)
    XCTAssertEqual(log.last?.error.httpStatusCode, 404)
  }
}
