import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play --playlist FILE.json`: an SDK playlist through the playback controller.
final class PlaylistPlayTests: XCTestCase {
  /// Writes a playlist of fixture videos (file URLs) and returns its path.
  private func writePlaylist(_ videos: [(id: String, fixture: String?, type: String)]) throws
    -> String
  {
    let entries = try videos.map { video -> [String: Any] in
      let url =
        try video.fixture.map { try Fixtures.url($0).absoluteString }
        ?? "file:///nonexistent/playhead/missing.mp4"
      var entry: [String: Any] = [
        "id": video.id, "name": "video \(video.id)",
        "sources": [["src": url, "type": video.type]],
      ]
      if video.id == "a" {
        entry["cue_points"] = [["name": "one-second", "type": "CODE", "time": 1.0]]
      }
      return entry
    }
    let data = try JSONSerialization.data(withJSONObject: ["id": "list", "videos": entries])
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-playlist-\(UUID().uuidString).json")
    try data.write(to: file)
    addTeardownBlock { try? FileManager.default.removeItem(at: file) }
    return file.path
  }

  private func threeVideos() throws -> String {
    try writePlaylist([
      ("a", "alpha-left.mp4", "video/mp4"),
      ("b", "hls/master.m3u8", "application/x-mpegURL"),
      ("c", "sample-audio.mp3", "audio/mpeg"),
    ])
  }

  func testAutoAdvanceAutoPlayPlaysTheListWithOneLinePerEvent() throws {
    let path = try threeVideos()
    let result = try CLIRunner.run([
      "play", "--playlist", path, "--auto-advance", "--auto-play", "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    XCTAssertEqual(names.last, "playlistComplete", "\(names)")
    XCTAssertEqual(names.filter { $0 == "playlistComplete" }.count, 1)
    let advanced = objects.filter { $0["event"] as? String == "sessionAdvanced" }
    XCTAssertEqual(advanced.compactMap { $0["session"] as? Int }, [0, 1, 2])
    XCTAssertEqual(advanced.compactMap { $0["video"] as? String }, ["a", "b", "c"])
    XCTAssertEqual(
      advanced[1]["source"] as? String, try Fixtures.url("hls/master.m3u8").absoluteString)
    for session in 0..<3 {
      let lines = objects.filter { $0["session"] as? Int == session }
      let events = lines.compactMap { $0["event"] as? String }
      let ready = try XCTUnwrap(events.firstIndex(of: "ready"), "\(events)")
      let end = try XCTUnwrap(events.firstIndex(of: "end"), "\(events)")
      XCTAssertLessThan(ready, end)
      XCTAssertEqual(events.filter { $0 == "summary" }.count, 1, "\(events)")
      for line in lines where line["event"] as? String != "summary" {
        XCTAssertNotNil(line["sdkSession"])
      }
    }
    let cue = try XCTUnwrap(objects.first { $0["event"] as? String == "cuePoint" })
    XCTAssertEqual(cue["name"] as? String, "one-second")
    XCTAssertEqual(cue["type"] as? String, "CODE")
    XCTAssertEqual(cue["session"] as? Int, 0)
    XCTAssertEqual(cue["time"] as? Double, 1)
    let summary = try XCTUnwrap(
      objects.first { $0["event"] as? String == "summary" && $0["session"] as? Int == 1 })
    let rendered = try XCTUnwrap(summary["framesRendered"] as? Int)
    let dropped = try XCTUnwrap(summary["framesDropped"] as? Int)
    XCTAssertEqual(rendered + dropped, 300)
    XCTAssertNotNil(summary["averageBitrate"] as? Int)
    XCTAssertEqual(summary["stallCount"] as? Int, 0)
  }

  func testWithoutAutoAdvanceOnlyTheFirstVideoPlays() throws {
    let path = try threeVideos()
    let result = try CLIRunner.run(["play", "--playlist", path, "--fast", "--json"])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let sessions = Set(objects.compactMap { $0["session"] as? Int })
    XCTAssertEqual(sessions, [0])
    XCTAssertTrue(objects.contains { $0["event"] as? String == "end" })
    XCTAssertFalse(objects.contains { $0["event"] as? String == "playlistComplete" })
  }

  func testAFailedVideoIsReportedAndTheListGoesOn() throws {
    let path = try writePlaylist([
      ("missing", nil, "video/mp4"),
      ("c", "sample-audio.mp3", "audio/mpeg"),
    ])
    let result = try CLIRunner.run([
      "play", "--playlist", path, "--auto-advance", "--auto-play", "--fast", "--json",
    ])
    assertStatus(result, 3)
    let objects = result.jsonLines()
    let fail = try XCTUnwrap(objects.first { $0["event"] as? String == "fail" })
    XCTAssertEqual(fail["session"] as? Int, 0)
    XCTAssertEqual(fail["errorCode"] as? String, "fileNotFound")
    XCTAssertNotNil(fail["error"] as? String)
    XCTAssertTrue(
      objects.contains { $0["event"] as? String == "end" && $0["session"] as? Int == 1 })
    XCTAssertEqual(objects.last?["event"] as? String, "playlistComplete")
  }

  func testEventsPrintsPlainTextLines() throws {
    let path = try writePlaylist([("a", "alpha-left.mp4", "video/mp4")])
    let result = try CLIRunner.run(["play", "--playlist", path, "--fast", "--events"])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    XCTAssertTrue(lines.first?.hasPrefix("sessionAdvanced ") ?? false, "\(lines)")
    XCTAssertTrue(lines.contains { $0.hasPrefix("ready ") && $0.contains("session=0") })
    XCTAssertTrue(lines.contains { $0.hasPrefix("cuePoint ") && $0.contains("name=one-second") })
    XCTAssertTrue(lines.contains { $0.hasPrefix("summary ") })
  }

  func testBadPlaylistFilesExitWithClearErrors() throws {
    let bad = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-bad-\(UUID().uuidString).json")
    try Data("{\"videos\": [{\"sources\": 12}]}".utf8).write(to: bad)
    defer { try? FileManager.default.removeItem(at: bad) }
    let invalid = try CLIRunner.run(["play", "--playlist", bad.path, "--fast"])
    assertStatus(invalid, 1)
    XCTAssertTrue(invalid.stderr.contains("invalid playlist"), invalid.stderr)
    let missing = try CLIRunner.run(["play", "--playlist", "/nonexistent/list.json"])
    assertStatus(missing, 3)
    let both = try CLIRunner.run([
      "play", try Fixtures.url("alpha-left.mp4").path, "--playlist", bad.path,
    ])
    assertStatus(both, 2)
    let stray = try CLIRunner.run(["play", try Fixtures.url("alpha-left.mp4").path, "--auto-play"])
    assertStatus(stray, 2)
  }
}
