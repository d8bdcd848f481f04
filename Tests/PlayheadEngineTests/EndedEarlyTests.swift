import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// Media that ends far short of its declared duration, or whose video track gives no
/// frame, ends with `failedToPlayToEnd` and `.mediaEndedEarly`, not `didPlayToEnd`.
///
/// The broken files are made from `sample-h264-aac.mp4` (10 s, 250 frames; track 0 video,
/// track 1 audio, 249 chunks each) by pointing chunk offsets past the end of the file.
final class EndedEarlyTests: XCTestCase {
  /// Writes `data` into a temporary file and returns its URL.
  private func temporaryFile(_ data: Data, name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-ended-early-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  private func corrupted(tracks: Set<Int>?, fromChunk: Int) throws -> URL {
    let original = try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))
    let broken = try CorruptMP4.withChunkOffsetsPastTheEnd(
      of: original, tracks: tracks, fromChunk: fromChunk)
    return try temporaryFile(broken, name: "broken.mp4")
  }

  /// Plays `url` in fast mode to its end (or `forwardEnd`); returns the end event and item.
  private func play(_ url: URL, forwardEnd: MediaTime? = nil) throws -> (PlayerEvent, PlayerItem) {
    let player = Player(configuration: .fast())
    addTeardownBlock { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: url)
    if let forwardEnd { item.forwardPlaybackEndTime = forwardEnd }
    player.replaceCurrentItem(with: item)
    player.play()
    let end = try XCTUnwrap(recorder.waitForEnd(), "\(recorder.names)")
    return (end, item)
  }

  private func endedEarlyError(
    _ end: PlayerEvent, file: StaticString = #filePath, line: UInt = #line
  )
    -> PlayheadError?
  {
    guard case .failedToPlayToEnd(_, let error) = end.kind else {
      XCTFail("ended with \(end.name), not failedToPlayToEnd", file: file, line: line)
      return nil
    }
    XCTAssertEqual(error.code, .mediaEndedEarly, error.message, file: file, line: line)
    XCTAssertEqual(error.category, .media, file: file, line: line)
    return error
  }

  func testVideoChunksPastTheEnd_endAt098sWithNoFrame_failsNamingBothFacts() throws {
    let (end, item) = try play(try corrupted(tracks: [0], fromChunk: 0))
    let error = try XCTUnwrap(endedEarlyError(end))
    XCTAssertTrue(
      error.message.contains("ended at 0.981 s of its declared 10.000 s"), error.message)
    XCTAssertTrue(error.message.contains("video track (h264) gave no frame"), error.message)
    XCTAssertEqual(item.status, .readyToPlay)
    XCTAssertEqual(item.statistics.framesRendered, 0)
    XCTAssertEqual(item.errorLog().last?.error.code, .mediaEndedEarly)
  }

  func testEveryTrackCutAfterTwoChunks_endsAt02s_failsAsEndedShort() throws {
    let (end, item) = try play(try corrupted(tracks: nil, fromChunk: 2))
    let error = try XCTUnwrap(endedEarlyError(end))
    XCTAssertTrue(error.message.contains("of its declared 10.000 s"), error.message)
    XCTAssertFalse(error.message.contains("gave no frame"), error.message)
    XCTAssertGreaterThan(item.statistics.framesRendered, 0)
    XCTAssertLessThan(item.currentTime().seconds, 1)
  }

  func testCutAtSixSeconds_isBeyondTheAllowance_andFails() throws {
    // About 6 s of 10: 4 s short, more than max(2 s, 5 %).
    let (end, _) = try play(try corrupted(tracks: nil, fromChunk: 150))
    XCTAssertNotNil(endedEarlyError(end))
  }

  func testCutAtNineSeconds_isWithinTheAllowance_andPlaysToItsEnd() throws {
    // About 9 s of 10: 1 s short, within max(2 s, 5 %) (streams end a little short).
    let (end, item) = try play(try corrupted(tracks: nil, fromChunk: 225))
    XCTAssertEqual(end.name, "didPlayToEnd")
    XCTAssertEqual(item.currentTime().seconds, 9, accuracy: 0.2)
  }

  func testIntactFile_andAForwardEndBeforeItsEnd_playToTheirEnd() throws {
    let url = try Fixtures.url("sample-h264-aac.mp4")
    XCTAssertEqual(try play(url).0.name, "didPlayToEnd")
    let (end, item) = try play(url, forwardEnd: MediaTime(value: 4, timescale: 1))
    XCTAssertEqual(end.name, "didPlayToEnd")
    XCTAssertEqual(item.currentTime(), MediaTime(value: 4, timescale: 1))
  }

  func testHLSWhoseDurationsOverstateItsMedia_failsAtItsRealEnd() throws {
    // Six 2 s segments listed as 4 s each: 24 s declared, 12 s of media.
    let folder = try Fixtures.url("hls/144p")
    var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<6 {
      text +=
        "#EXTINF:4.0,\n"
        + folder.appendingPathComponent(
          String(format: "segment%03d.ts", index)
        ).absoluteString + "\n"
    }
    let playlist = try temporaryFile(Data((text + "#EXT-X-ENDLIST\n").utf8), name: "index.m3u8")
    let (end, item) = try play(playlist)
    let error = try XCTUnwrap(endedEarlyError(end))
    XCTAssertTrue(error.message.contains("of its declared 24.000 s"), error.message)
    XCTAssertEqual(item.statistics.framesRendered, 300)
  }
}
