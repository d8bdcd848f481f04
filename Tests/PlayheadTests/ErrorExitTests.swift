import Foundation
import PlayheadTestSupport
import XCTest

/// Exit statuses and one-line error messages of the `playhead` binary.
final class ErrorExitTests: XCTestCase {
  /// Checks the status and that standard error is exactly one `playhead: …` line.
  private func assertFails(
    _ arguments: [String], status: Int32, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let result = try CLIRunner.run(arguments)
    assertStatus(result, status, file: file, line: line)
    let errorLines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
    XCTAssertEqual(errorLines.count, 1, "one error line: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(
      errorLines.first?.hasPrefix("playhead: ") ?? false, result.stderr, file: file, line: line)
  }

  func testMissingFile_exits3() throws {
    let missing = try makeTemporaryDirectory().appendingPathComponent("missing.mp4").path
    try assertFails(["play", "--fast", "--quiet", missing], status: 3)
    try assertFails(["probe", missing], status: 3)
    try assertFails(["snapshot", missing, "--at", "1", "-o", missing + ".png"], status: 3)
  }

  func testDirectory_exits3() throws {
    let directory = try makeTemporaryDirectory().path
    try assertFails(["play", "--fast", "--quiet", directory], status: 3)
    try assertFails(["probe", "--json", directory], status: 3)
  }

  func testNotAVideo_exits4() throws {
    let path = try Fixtures.url("not-a-video.mp4").path
    try assertFails(["play", "--fast", "--quiet", path], status: 4)
    try assertFails(["probe", path], status: 4)
  }

  func testTruncatedMP4_exits4() throws {
    let path = try Fixtures.url("truncated.mp4").path
    try assertFails(["play", "--fast", "--quiet", path], status: 4)
    try assertFails(["probe", "--json", path], status: 4)
  }

  func testHTTPNotFound_exits3() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let url = server.url("/missing.mp4").absoluteString
    try assertFails(["play", "--fast", "--quiet", url], status: 3)
    try assertFails(["probe", url], status: 3)
  }

  func testUnsupportedScheme_exits3() throws {
    try assertFails(["play", "--fast", "--quiet", "ftp://x/y"], status: 3)
    try assertFails(["probe", "ftp://x/y"], status: 3)
  }

  func testFailedPlay_printsFailedLifecycleAndJSONError() throws {
    let path = try Fixtures.url("not-a-video.mp4").path
    let text = try CLIRunner.run(["play", "--fast", path])
    assertStatus(text, 4)
    XCTAssertTrue(text.stdoutLines.contains { $0.hasPrefix("failed: ") }, text.stdout)
    let json = try CLIRunner.run(["play", "--fast", "--json", path])
    assertStatus(json, 4)
    let objects = json.jsonLines()
    let failed = try XCTUnwrap(objects.first { $0["event"] as? String == "failed" }, json.stdout)
    XCTAssertFalse((failed["error"] as? String ?? "").isEmpty, "a failed event carries 'error'")
    XCTAssertEqual(objects.last?["event"] as? String, "summary")
  }

  func testSnapshotOfAudioOnlyMedia_exits4() throws {
    let output = try makeTemporaryDirectory().appendingPathComponent("x.png").path
    try assertFails(
      ["snapshot", try Fixtures.url("sample-audio.mp3").path, "--at", "1", "-o", output],
      status: 4)
    XCTAssertFalse(FileManager.default.fileExists(atPath: output))
  }
}
