import Foundation
import PlayheadTestSupport
import XCTest

/// Help texts and command-line mistakes of the `playhead` binary.
final class UsageTests: XCTestCase {
  func testHelp_forTheToolAndEveryVerb_exits0WithUsageOnStdout() throws {
    for arguments in [
      ["--help"], ["-h"], ["play", "--help"], ["probe", "-h"], ["snapshot", "--help"],
    ] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 0)
      XCTAssertTrue(result.stdout.contains("Usage: playhead"), "\(arguments): \(result.stdout)")
      XCTAssertEqual(result.stderr, "", "\(arguments)")
    }
    let play = try CLIRunner.run(["play", "--help"])
    XCTAssertTrue(play.stdout.contains("--snapshot FILE"))
  }

  func testMistakes_exit2WithOneErrorLine() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    let cases: [[String]] = [
      [],
      ["dance"],
      ["play", mp4, "--bogus"],
      ["play"],
      ["play", mp4, "extra"],
      ["play", mp4, "--rate", "0"],
      ["play", mp4, "--rate", "-2"],
      ["play", mp4, "--rate"],
      ["play", mp4, "--start", "soon"],
      ["play", mp4, "--snapshot", "x.png"],
      ["play", mp4, "--every", "5"],
      ["play", mp4, "--fast=yes"],
      ["probe", mp4, "--width", "3"],
      ["snapshot", mp4, "-o", "x.png"],
      ["snapshot", mp4, "--at", "1"],
      ["snapshot", mp4, "--at", "1", "-o", "x.png", "--width", "10"],
      ["snapshot", mp4, "--at", "1", "-o", "x.png", "--gravity", "sideways"],
    ]
    for arguments in cases {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      let lines = result.stderr.split(separator: "\n")
      XCTAssertEqual(lines.count, 1, "\(arguments): \(result.stderr)")
      XCTAssertTrue(lines.first?.hasPrefix("playhead: ") ?? false, "\(arguments): \(result.stderr)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
  }
}
