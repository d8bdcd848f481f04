import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` and `probe` take MPDs as they take M3U8s.
final class DASHCommandTests: XCTestCase {
  func testProbeListsPeriodsSetsAndRepresentations() throws {
    let path = try Fixtures.url("dash-lang/manifest.mpd").path
    let text = try CLIRunner.run(["probe", path])
    assertStatus(text, 0)
    XCTAssertEqual(text.stdoutLines.first, "container  dash")
    for expected in [
      "MPD static, 1 period(s)", "  audio  [fra]", "  text text/vtt [en]",
      "    0: 80000 bit/s 256x144 avc1.4d400c, SegmentTimeline (5 segments)",
    ] {
      XCTAssertTrue(text.stdoutLines.contains(expected), "\(expected) in \(text.stdout)")
    }
    let json = try CLIRunner.run(["probe", path, "--json"])
    assertStatus(json, 0)
    let object = try XCTUnwrap(json.jsonLines().first)
    XCTAssertEqual(object["container"] as? String, "dash")
    let manifest = try XCTUnwrap(object["manifest"] as? [String: Any])
    XCTAssertEqual((manifest["periods"] as? [Any])?.count, 1)
  }

  func testPlayPlaysAnMPDToTheEnd() throws {
    let path = try Fixtures.url("dash-periods/manifest.mpd").path
    let run = try CLIRunner.run(["play", path, "--no-window", "--fast", "--json"])
    assertStatus(run, 0)
    let events = try run.jsonLines()
    XCTAssertTrue(events.contains { $0["event"] as? String == "didPlayToEnd" }, run.stdout)
    let summary = try XCTUnwrap(events.last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["framesDecoded"] as? Int, 500, "\(summary)")
  }
}

/// `play --key KID:KEY` decrypts Common Encryption content; a wrong key exits non-zero with
/// the key ID in the message.
final class DASHKeyCommandTests: XCTestCase {
  func testKeyOptionPlaysCencContent_andAWrongKeyFailsNamingTheKeyID() throws {
    let path = try Fixtures.url("dash-cenc/cenc.mpd").path
    let kid = "01234567-89ab-cdef-0123-456789abcdef"
    let good = try CLIRunner.run([
      "play", path, "--no-window", "--fast", "--json", "--key",
      "\(kid):00112233445566778899aabbccddeeff",
    ])
    assertStatus(good, 0)
    let summary = try XCTUnwrap(try good.jsonLines().last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["framesDecoded"] as? Int, 75, "\(summary)")
    let bad = try CLIRunner.run([
      "play", path, "--no-window", "--fast", "--key", "\(kid):ffeeddccbbaa99887766554433221100",
    ])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssertTrue(bad.stderr.contains("0123456789abcdef0123456789abcdef"), bad.stderr)
    let malformed = try CLIRunner.run(["play", path, "--key", "nothex"])
    assertStatus(malformed, 2)
    XCTAssertTrue(malformed.stderr.contains("--key"), malformed.stderr)
  }

  func testDownloadWithKey_keepsIt_andThePlayOfTheFolderNeedsNone() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-dash-download-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let download = try CLIRunner.run([
      "download", server.url("/dash-cenc/cenc.mpd").absoluteString, "--out", folder.path,
      "--quiet", "--key", "0123456789abcdef0123456789abcdef:00112233445566778899aabbccddeeff",
    ])
    assertStatus(download, 0)
    server.stop()
    let play = try CLIRunner.run(["play", folder.path, "--no-window", "--fast", "--json"])
    assertStatus(play, 0)
    let summary = try XCTUnwrap(try play.jsonLines().last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["framesDecoded"] as? Int, 75, "\(summary)")
  }
}
