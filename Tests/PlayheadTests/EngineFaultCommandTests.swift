import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` on media that used to hang or to report success for a failed play, and
/// `--duration` on a live stream, run as a subprocess against files the tests write and the
/// local test server.
final class EngineFaultCommandTests: XCTestCase {
  private func summary(_ result: CLIResult) throws -> [String: Any] {
    let last = try XCTUnwrap(result.jsonLines().last, "no JSON lines")
    XCTAssertEqual(last["event"] as? String, "summary")
    return last
  }

  /// A VOD media playlist listing the six 144p segments `count` times over in order, with
  /// no discontinuity tag, written into a temporary folder.
  private func cyclingPlaylist(segments count: Int) throws -> String {
    let folder = try Fixtures.url("hls/144p")
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<count {
      let segment = folder.appendingPathComponent(String(format: "segment%03d.ts", index % 6))
      text += "#EXTINF:2.000000,\n\(segment.absoluteString)\n"
    }
    let url = try makeTemporaryDirectory().appendingPathComponent("cycle.m3u8")
    try Data((text + "#EXT-X-ENDLIST\n").utf8).write(to: url)
    return url.path
  }

  func testTimestampsRestartingWithoutDiscontinuity_playEverySegment_andExit0() throws {
    for count in [10, 22] {
      let result = try CLIRunner.run(
        ["play", try cyclingPlaylist(segments: count), "--fast", "--json"])
      assertStatus(result, 0)
      let summary = try summary(result)
      XCTAssertEqual(summary["outcome"] as? String, "ended", "\(count) segments")
      XCTAssertEqual(summary["framesRendered"] as? Int, count * 50, "\(count) segments")
      XCTAssertEqual(
        try XCTUnwrap(summary["playedSeconds"] as? Double), Double(count * 2), accuracy: 0.1,
        "\(count) segments")
    }
  }

  func testMP4WithCorruptVideoChunkOffsets_failsWithExit4_notEnded() throws {
    let original = try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))
    let broken = try CorruptMP4.withChunkOffsetsPastTheEnd(of: original, tracks: [0])
    let file = try makeTemporaryDirectory().appendingPathComponent("broken.mp4")
    try broken.write(to: file)
    let result = try CLIRunner.run(["play", file.path, "--fast", "--json"])
    assertStatus(result, 4)
    let lines = result.jsonLines()
    XCTAssertFalse(lines.contains { $0["event"] as? String == "didPlayToEnd" }, result.stdout)
    let failed = try XCTUnwrap(lines.first { $0["event"] as? String == "failedToPlayToEnd" })
    XCTAssertEqual(failed["errorCode"] as? String, "mediaEndedEarly")
    XCTAssertEqual(try summary(result)["outcome"] as? String, "failed")
    XCTAssertTrue(result.stderr.contains("gave no frame"), result.stderr)
    XCTAssertTrue(result.stderr.contains("of its declared 10.000 s"), result.stderr)
  }

  func testFastStartAndDuration_writeTheSameHundredFrameFiles_everyRun() throws {
    var runs: [[String: Data]] = []
    for _ in 0..<3 {
      let frames = try makeTemporaryDirectory()
      let result = try CLIRunner.run([
        "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--start", "3",
        "--duration", "4", "--frames", frames.path, "--json",
      ])
      assertStatus(result, 0)
      XCTAssertEqual(try summary(result)["framesRendered"] as? Int, 100)
      let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
      XCTAssertEqual(names.count, 100, "one file per frame from 3.00 to 6.96 s")
      runs.append(
        try Dictionary(
          uniqueKeysWithValues: names.map {
            ($0, try Data(contentsOf: frames.appendingPathComponent($0)))
          }))
    }
    XCTAssertEqual(runs[1], runs[0])
    XCTAssertEqual(runs[2], runs[0])
  }

  func testDurationOnALiveStream_countsFromWhereItStarts() throws {
    // Five 2 s segments: the window is 0–10 s and playback starts three segments from the
    // end, at 4 s; --duration 3 plays 4–7 s (75 frames at 25 fps).
    let folder = try Fixtures.url("hls/144p")
    let segments = try (0..<6).map {
      try Data(contentsOf: folder.appendingPathComponent(String(format: "segment%03d.ts", $0)))
    }
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    let live = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: segments, segmentDuration: 2,
      windowSize: 5, initialSegments: 5)
    let result = try CLIRunner.run([
      "play", live.url.absoluteString, "--fast", "--duration", "3", "--json",
    ])
    assertStatus(result, 0)
    let lines = result.jsonLines()
    let ready = try XCTUnwrap(lines.first { $0["event"] as? String == "readyToPlay" })
    XCTAssertEqual(try XCTUnwrap(ready["time"] as? Double), 4, accuracy: 0.001)
    let ended = try XCTUnwrap(lines.first { $0["event"] as? String == "didPlayToEnd" })
    XCTAssertEqual(try XCTUnwrap(ended["time"] as? Double), 7, accuracy: 0.001)
    // Every frame from the first (the segment's video starts a little after its audio)
    // up to, not including, 7 s.
    let first = try XCTUnwrap(lines.first { $0["event"] as? String == "firstFrame" })
    let firstTime = try XCTUnwrap(first["time"] as? Double)
    XCTAssertGreaterThanOrEqual(firstTime, 4)
    XCTAssertLessThan(firstTime, 4.1)
    let summary = try summary(result)
    XCTAssertEqual(summary["framesRendered"] as? Int, Int(((7 - firstTime) / 0.04).rounded(.up)))
    XCTAssertEqual(try XCTUnwrap(summary["playedSeconds"] as? Double), 3, accuracy: 0.001)
  }
}
