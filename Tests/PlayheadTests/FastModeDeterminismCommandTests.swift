import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play --fast --json` prints the same bytes on every run (decision 0028): the
/// fast clock schedules the player's threads itself, so the machine's load changes
/// nothing, for a local file and a local HLS ladder. (Over a real network it cannot be:
/// the rest of the player runs while a transfer is in flight; decision 0028.)
final class FastModeDeterminismCommandTests: XCTestCase {
  private let runs = 10

  func testProgressiveFile_tenRuns_printTheSameLines() throws {
    try assertSameOutput(["play", "--fast", "--json", try Fixtures.url("sample-h264-aac.mp4").path])
  }

  func testLocalHLSLadder_tenRuns_printTheSameLines() throws {
    try assertSameOutput(["play", "--fast", "--json", try Fixtures.url("hls/master.m3u8").path])
  }

  /// Runs `arguments` ten times; every run must exit 0 and print what the first printed.
  private func assertSameOutput(
    _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    var first: CLIResult?
    for run in 1...runs {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 0, file: file, line: line)
      guard let first else {
        first = result
        // A run that printed next to nothing would prove nothing.
        XCTAssertGreaterThan(result.stdoutLines.count, 10, result.stdout, file: file, line: line)
        XCTAssertEqual(
          result.jsonLines(file: file, line: line).last?["event"] as? String, "summary",
          file: file, line: line)
        continue
      }
      XCTAssertEqual(
        result.stdout, first.stdout, "run \(run) printed other lines than run 1", file: file,
        line: line)
    }
  }
}
