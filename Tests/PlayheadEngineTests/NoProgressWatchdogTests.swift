import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// The no-progress watchdog (`PlayerConfiguration.noProgressTimeoutMs`) on a playlist whose
/// `EXTINF` durations overstate its media tenfold (the six 2-second 144p segments, each
/// listed as 20 s), served by the local test server.
///
/// The downloader counts 20 s loaded after one segment, past the default load control's
/// 10 s target, and holds back; the media of that segment runs out at about 2 s; the run
/// waits for a second segment that never comes. Without the watchdog nothing ever happened
/// again.
final class NoProgressWatchdogTests: XCTestCase {
  private func serveOverstatedPlaylist() throws -> URL {
    let folder = try Fixtures.url("hls/144p")
    var files: [String: Data] = [:]
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:20\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<6 {
      let name = String(format: "segment%03d.ts", index)
      files["/overstated/\(name)"] = try Data(contentsOf: folder.appendingPathComponent(name))
      text += "#EXTINF:20.0,\n\(name)\n"
    }
    files["/overstated/index.m3u8"] = Data((text + "#EXT-X-ENDLIST\n").utf8)
    let server = HTTPTestServer(files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server.url("/overstated/index.m3u8")
  }

  /// Plays the playlist until the item ends; returns the end event and the item.
  private func play(
    _ configuration: PlayerConfiguration, drive: ((Player, EventRecorder) -> Void)? = nil
  ) throws -> (end: PlayerEvent, item: PlayerItem) {
    let item = PlayerItem(url: try serveOverstatedPlaylist())
    let player = Player(configuration: configuration)
    addTeardownBlock { player.close() }
    let recorder = EventRecorder(player)
    player.replaceCurrentItem(with: item)
    player.play()
    drive?(player, recorder)
    let end = try XCTUnwrap(recorder.waitForEnd())
    XCTAssertFalse(recorder.names.contains("didPlayToEnd"), "\(recorder.names)")
    return (end, item)
  }

  /// Checks the failure: `.noProgress`, saying what stalled, near 2 s of item time, and at
  /// least the bound after the media ran out on the player's clock (`slackSeconds` more
  /// at most: how long the clock took to get the first frames out); with a nil slack (the
  /// host clock) the clock is not checked.
  private func assertNoProgressFailure(
    _ end: PlayerEvent, item: PlayerItem, boundSeconds: Double, slackSeconds: Double? = 2,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    guard case .failedToPlayToEnd(let failed, let error) = end.kind else {
      return XCTFail("ended with \(end.name), not failedToPlayToEnd", file: file, line: line)
    }
    XCTAssertTrue(failed === item, file: file, line: line)
    XCTAssertEqual(error.code, .noProgress, error.message, file: file, line: line)
    XCTAssertEqual(error.category, .media, file: file, line: line)
    // It says what stalled: where, for how long, and why the source does not go on.
    XCTAssertTrue(
      error.message.contains(String(format: "no progress for %.3f s", boundSeconds)),
      error.message, file: file, line: line)
    XCTAssertTrue(
      error.message.contains("waits for its next segment"), error.message, file: file, line: line)
    XCTAssertTrue(
      error.message.contains("noProgressTimeoutMs"), error.message, file: file, line: line)
    // Stuck where the downloaded segment's media ran out, the bound later on the clock.
    XCTAssertEqual(end.itemTime.seconds, 2, accuracy: 0.4, file: file, line: line)
    if let slackSeconds {
      XCTAssertGreaterThanOrEqual(
        end.clockTime.seconds, boundSeconds + 1.5, file: file, line: line)
      XCTAssertLessThan(
        end.clockTime.seconds, boundSeconds + 2 + slackSeconds, file: file, line: line)
    }
    XCTAssertEqual(item.errorLog().last?.error.code, .noProgress, file: file, line: line)
  }

  func testFastMode_aStuckStream_failsAfterTheDefaultBound_onThePlayersClock() throws {
    let configuration = PlayerConfiguration.fast()
    XCTAssertEqual(configuration.noProgressTimeoutMs, 10_000)
    let (end, item) = try play(configuration)
    try assertNoProgressFailure(end, item: item, boundSeconds: 10)
  }

  func testFastMode_theBoundIsConfigurable() throws {
    var configuration = PlayerConfiguration.fast()
    configuration.noProgressTimeoutMs = 2_500
    let (end, item) = try play(configuration)
    try assertNoProgressFailure(end, item: item, boundSeconds: 2.5)
  }

  /// Where a stuck stream stops does not depend on how many frames are decoded ahead: the
  /// video packets demuxed along with the audio are decoded before the read that waits
  /// for the missing segment. (Held back behind that read, they made fewer frames ahead
  /// stop earlier: 1.58 s with 3, 1.70 s with 6.)
  func testFastMode_aStuckStream_stopsAtTheSameFrame_howeverFewFramesAreDecodedAhead() throws {
    var few = PlayerConfiguration.fast()
    few.noProgressTimeoutMs = 2_500
    few.videoFramesAhead = 2
    var many = few
    many.videoFramesAhead = 8
    let fewEnd = try play(few)
    let manyEnd = try play(many)
    try assertNoProgressFailure(fewEnd.end, item: fewEnd.item, boundSeconds: 2.5)
    // (With eight frames ahead the fast clock's start-up takes longer than the slack.)
    try assertNoProgressFailure(
      manyEnd.end, item: manyEnd.item, boundSeconds: 2.5, slackSeconds: nil)
    XCTAssertEqual(
      fewEnd.end.itemTime.seconds, manyEnd.end.itemTime.seconds, accuracy: 0.001,
      "stopped at \(fewEnd.end.itemTime.seconds) s with 2 frames ahead, "
        + "\(manyEnd.end.itemTime.seconds) s with 8")
  }

  func testDrivenClock_aStuckStream_failsOnceTheTestMovesTheClockPastTheBound() throws {
    // A clock only the test moves, as real time would: the loop waits on it for the
    // watchdog's deadline, and nothing happens until the clock gets there.
    let driver = PlaybackClockDriver()
    var configuration = PlayerConfiguration(clock: driver.clock)
    configuration.noProgressTimeoutMs = 5_000
    let (end, item) = try play(configuration) { player, recorder in
      driver.drive(player, recorder: recorder)
    }
    try assertNoProgressFailure(end, item: item, boundSeconds: 5, slackSeconds: 10)
  }

  func testRealTime_aStuckStream_failsAfterTheBound() throws {
    var configuration = PlayerConfiguration()
    configuration.noProgressTimeoutMs = 1_000
    let (end, item) = try play(configuration)
    try assertNoProgressFailure(end, item: item, boundSeconds: 1, slackSeconds: nil)
  }

  /// In real time, with a bound far shorter than the stall: a segment trickles in at
  /// 10 kB/s (about 4 s for its 39 kB), the item stalls waiting for it, and the pending request (which has its own
  /// timeout) keeps the watchdog from firing.
  func testRealTime_aStallOnAPendingRequest_longerThanTheBound_isNotStuck() throws {
    let folder = try Fixtures.url("hls/144p")
    var files: [String: Data] = [:]
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<3 {
      let name = String(format: "segment%03d.ts", index)
      files["/slow/\(name)"] = try Data(contentsOf: folder.appendingPathComponent(name))
      text += "#EXTINF:2.0,\n\(name)\n"
    }
    files["/slow/index.m3u8"] = Data((text + "#EXT-X-ENDLIST\n").utf8)
    let slowBytes = try XCTUnwrap(files["/slow/segment001.ts"]?.count)
    let server = HTTPTestServer(
      files: files, faults: ["/slow/segment001.ts": .slow(bytesPerSecond: 10_000)])
    try server.start()
    addTeardownBlock { server.stop() }
    XCTAssertGreaterThan(slowBytes, 30_000, "the trickle must outlast the first segment")

    var configuration = PlayerConfiguration()
    configuration.noProgressTimeoutMs = 1_000
    let player = Player(configuration: configuration)
    addTeardownBlock { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: server.url("/slow/index.m3u8"))
    player.replaceCurrentItem(with: item)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertGreaterThanOrEqual(item.statistics.stallCount, 1, "\(recorder.names)")
    XCTAssertGreaterThan(item.statistics.totalStallTime.seconds, 1, "a stall longer than the bound")
    XCTAssertEqual(item.statistics.framesRendered + item.statistics.framesDropped, 150)
  }
}
