import Foundation
import PlayheadTestSupport
import XCTest

/// `--log-level`, `-v` and `--log-file`, which every command takes, run as a subprocess.
final class LogOptionsCommandTests: XCTestCase {
  private let reasons: Set<String> = [
    "initial", "throughput", "buffer", "abandoned", "manual", "failover", "cap",
  ]

  /// The lines of `text` that are log entries of `label` at `level`.
  private func logLines(_ text: String, level: String, label: String = "playhead.player")
    -> [Substring]
  {
    text.split(separator: "\n").filter { $0.contains(" \(level) \(label): ") }
  }

  /// The value of `key=` in a log line.
  private func field(_ key: String, in line: Substring) -> String? {
    line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map {
      String($0.dropFirst(key.count + 1))
    }
  }

  func testDebug_printsEachABRDecisionWithItsReason_oncePerSegment() throws {
    let ladder = try Fixtures.url("hls/master.m3u8").path
    for options in [["--log-level", "debug"], ["--log-level=DEBUG"], ["-vv"], ["-v", "-v"]] {
      let result = try CLIRunner.run(["play", ladder, "--fast"] + options)
      assertStatus(result, 0)
      XCTAssertTrue(result.stdout.contains("ended"), result.stdout)
      let decisions = logLines(result.stderr, level: "debug").filter {
        $0.contains(": ABR decision ")
      }
      // The ladder's six segments, each chosen once, in order.
      XCTAssertEqual(
        decisions.map { field("sequence", in: $0) }, (0..<6).map { String($0) },
        "\(options): \(result.stderr)")
      for decision in decisions {
        XCTAssertTrue(reasons.contains(field("reason", in: decision) ?? ""), String(decision))
        for key in ["level", "previous", "throughput", "bufferAhead", "phase"] {
          XCTAssertNotNil(field(key, in: decision), "\(key) missing: \(decision)")
        }
      }
      XCTAssertEqual(decisions.first.flatMap { field("reason", in: $0) }, "initial")
    }
  }

  func testDefault_logsNothing_andVerboseLogsMilestonesButNoDecisions() throws {
    let ladder = try Fixtures.url("hls/master.m3u8").path
    let quiet = try CLIRunner.run(["play", ladder, "--fast"])
    assertStatus(quiet, 0)
    XCTAssertFalse(quiet.stderr.contains(" playhead."), quiet.stderr)

    // Before the command's name as after it.
    let verbose = try CLIRunner.run(["-v", "play", ladder, "--fast"])
    assertStatus(verbose, 0)
    XCTAssertEqual(
      logLines(verbose.stderr, level: "info").filter { $0.contains(": item ready ") }.count, 1)
    XCTAssertTrue(logLines(verbose.stderr, level: "debug").isEmpty, verbose.stderr)
    XCTAssertFalse(verbose.stdout.contains(" playhead."), "log lines on standard output")
  }

  func testFFmpegsMessages_onlyWhenALevelIsAskedFor() throws {
    let truncated = try Fixtures.url("truncated.mp4").path
    let plain = try CLIRunner.run(["play", truncated, "--fast"])
    XCTAssertEqual(plain.stderr.split(separator: "\n").count, 1, plain.stderr)
    let verbose = try CLIRunner.run(["play", truncated, "--fast", "-v"])
    XCTAssertEqual(verbose.status, plain.status)
    XCTAssertFalse(
      logLines(verbose.stderr, level: "error", label: "playhead.ffmpeg").isEmpty, verbose.stderr)
  }

  func testLogFile_getsTheLinesAppended_andStandardErrorNone() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory.appendingPathComponent("session.log").path
    let ladder = try Fixtures.url("hls/master.m3u8").path
    for run in 1...2 {
      let result = try CLIRunner.run(
        ["play", ladder, "--fast", "--log-level", "debug", "--log-file", path])
      assertStatus(result, 0)
      XCTAssertFalse(result.stderr.contains(" playhead."), result.stderr)
      let written = try String(contentsOfFile: path, encoding: .utf8)
      XCTAssertEqual(
        logLines(written, level: "debug").filter { $0.contains(": ABR decision ") }.count,
        6 * run, "run \(run) did not append its six decisions: \(written)")
    }
  }

  func testMistakes_exit2WithOneClearLine() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    let cases: [([String], String)] = [
      (
        ["play", mp4, "--log-level", "loud"],
        "playhead: option '--log-level' needs one of trace, debug, info, notice, warning, "
          + "error or critical, not 'loud'"
      ),
      (
        ["probe", mp4, "--log-level"],
        "playhead: option '--log-level' needs a value (see 'playhead --help')"
      ),
      (["snapshot", mp4, "--log-file="], "playhead: option '--log-file' needs a non-empty path"),
    ]
    for (arguments, message) in cases {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertEqual(result.stderr, message + "\n", "\(arguments)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
    let unwritable = try CLIRunner.run(
      ["probe", mp4, "--log-file", "/nonexistent-playhead-dir/x.log"])
    assertStatus(unwritable, 3)
    XCTAssertEqual(
      unwritable.stderr,
      "playhead: cannot open the log file /nonexistent-playhead-dir/x.log: No such file or "
        + "directory\n")
  }
}
