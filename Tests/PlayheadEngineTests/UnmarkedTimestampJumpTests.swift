import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// VOD playlists whose segment timestamps restart or leap with no `EXT-X-DISCONTINUITY`
/// (the six 2-second `Fixtures/hls/144p` segments, 25 fps, listed in other orders), served
/// by the local test server and played in fast mode.
///
/// Such a run used to stop where the timestamps first went back (12 s): with 22 or more
/// segments playback never ended, with 7 to 20 it reported the end at 12 s.
final class UnmarkedTimestampJumpTests: XCTestCase {
  private let frameSeconds = 0.04

  /// Serves a media playlist listing `order` (indexes into the six 144p segments).
  private func serve(_ order: [Int]) throws -> URL {
    let folder = try Fixtures.url("hls/144p")
    var files: [String: Data] = [:]
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
    text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<6 {
      let name = String(format: "segment%03d.ts", index)
      files["/jump/\(name)"] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    for index in order {
      text += "#EXTINF:2.000000,\n" + String(format: "segment%03d.ts\n", index)
    }
    text += "#EXT-X-ENDLIST\n"
    files["/jump/index.m3u8"] = Data(text.utf8)
    let server = HTTPTestServer(files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server.url("/jump/index.m3u8")
  }

  /// Plays `order` to its end; checks that every frame of every segment is shown once, on
  /// a continuous timeline that ends where the playlist says.
  private func assertPlaysEverySegment(
    _ order: [Int], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let url = try serve(order)
    let sink = RecordingVideoSink()
    let player = Player(configuration: .fast(videoSink: sink))
    addTeardownBlock { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: url)
    player.replaceCurrentItem(with: item)
    player.play()
    let end = recorder.waitForEnd(file: file, line: line)
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(recorder.names)", file: file, line: line)

    let expectedFrames = order.count * 50
    let times = sink.presentedTimes.map(\.seconds)
    XCTAssertEqual(times.count, expectedFrames, "frames shown", file: file, line: line)
    XCTAssertEqual(item.statistics.framesDropped, 0, file: file, line: line)
    // One frame every 40 ms from the start (the first video frame comes 21 ms after the
    // first audio), never going back, never leaping.
    let start = try XCTUnwrap(times.first, file: file, line: line)
    XCTAssertLessThan(start, frameSeconds, file: file, line: line)
    for (index, time) in times.enumerated() {
      let expected = start + Double(index) * frameSeconds
      XCTAssertEqual(time, expected, accuracy: 0.002, "frame \(index)", file: file, line: line)
      if abs(time - expected) > 0.002 { break }
    }
    let duration = Double(order.count) * 2
    XCTAssertEqual(item.duration.seconds, duration, file: file, line: line)
    XCTAssertEqual(item.currentTime().seconds, duration, accuracy: 0.1, file: file, line: line)
    // The frames are the playlist's segments in its order: each segment's 50 frames carry
    // that segment's own timestamps.
    let stamps = sink.streamTimestamps.map(\.seconds)
    let firstStamp = try XCTUnwrap(stamps.first, file: file, line: line)
    for (position, segment) in order.enumerated() where stamps.count > position * 50 {
      XCTAssertEqual(
        stamps[position * 50] - firstStamp, Double(segment - order[0]) * 2, accuracy: 0.002,
        "first frame of playlist segment \(position)", file: file, line: line)
    }
  }

  func testTimestampsRestarting_22Segments_playEverySegmentToTheRealEnd() throws {
    try assertPlaysEverySegment((0..<22).map { $0 % 6 })
  }

  func testTimestampsRestarting_10Segments_endAtTheRealEnd_notWhereTheyRestart() throws {
    try assertPlaysEverySegment((0..<10).map { $0 % 6 })
  }

  func testTimestampsLeapingForward_twoSegmentsLeftOut_playOnAContinuousTimeline() throws {
    // 0, 1, then 4, 5: the timestamps leap 4 s ahead between the second and third.
    try assertPlaysEverySegment([0, 1, 4, 5])
  }

  func testRegularLadder_withoutJumps_keepsItsOwnTimeline() throws {
    try assertPlaysEverySegment([0, 1, 2, 3, 4, 5])
  }
}
