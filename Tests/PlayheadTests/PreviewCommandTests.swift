import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play --preview S`: only the first S seconds play; the run ends "previewEnded"
/// with status 0.
final class PreviewCommandTests: XCTestCase {
  func testPreview_playsTheFirstSecondsOnly_andEndsWithPreviewEnded() throws {
    let result = try CLIRunner.run([
      "play", "--fast", "--json", "--preview", "2", try Fixtures.url("sample-h264-aac.mp4").path,
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertTrue(objects.contains { $0["event"] as? String == "previewEnded" }, result.stdout)
    XCTAssertFalse(objects.contains { $0["event"] as? String == "didPlayToEnd" })
    let summary = try XCTUnwrap(objects.last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["outcome"] as? String, "previewEnded")
    XCTAssertEqual(summary["framesRendered"] as? Int, 50)
  }

  func testPreview_withAPlaylistFile_limitsEverySession() throws {
    let directory = try makeTemporaryDirectory()
    let media = try Fixtures.url("sample-h264-aac.mp4").absoluteString
    let playlist = directory.appendingPathComponent("list.json")
    try Data(#"[{"id":"a","sources":[{"src":"\#(media)"}]}]"#.utf8).write(to: playlist)
    let result = try CLIRunner.run([
      "play", "--fast", "--json", "--playlist", playlist.path, "--auto-play", "--preview", "1",
    ])
    assertStatus(result, 0)
    let ended = result.jsonLines().filter { $0["event"] as? String == "previewEnded" }
    XCTAssertEqual(ended.count, 1, result.stdout)
    XCTAssertEqual(ended.first?["time"] as? Double, 1)
    XCTAssertFalse(result.jsonLines().contains { $0["event"] as? String == "end" })
  }
}
