import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play --record FILE` and `playhead replay FILE`, run as subprocesses against a
/// local server (SPEC X2).
final class RecordReplayCommandTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { [folder] in try? FileManager.default.removeItem(at: folder!) }
  }

  /// A server over the fixtures, stopped when the test ends.
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// Plays `arguments` recorded into a new file; returns the run and the file.
  private func record(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line)
    throws -> (CLIResult, URL)
  {
    let recording = folder.appendingPathComponent("session-\(UUID().uuidString).jsonl")
    let result = try CLIRunner.run(
      ["play"] + arguments + ["--no-window", "--json", "--record", recording.path])
    assertStatus(result, 0, file: file, line: line)
    return (result, recording)
  }

  /// Replays `recording` three times with `--json`; asserts the outputs are the same bytes
  /// and returns one.
  private func replayThrice(_ recording: URL, file: StaticString = #filePath, line: UInt = #line)
    throws -> CLIResult
  {
    let runs = try (0..<3).map { _ in try CLIRunner.run(["replay", recording.path, "--json"]) }
    for run in runs { assertStatus(run, 0, file: file, line: line) }
    XCTAssertEqual(runs[1].stdout, runs[0].stdout, "replays differ", file: file, line: line)
    XCTAssertEqual(runs[2].stdout, runs[0].stdout, "replays differ", file: file, line: line)
    return runs[0]
  }

  private func renditions(_ run: CLIResult) -> [Int] {
    run.jsonLines().filter { $0["event"] as? String == "trackChanged" }.compactMap {
      $0["bandwidth"] as? Int
    }
  }

  // MARK: Sessions

  func testHLSOnAShapedLink_replaysThreeTimesAlike_withTheRecordedRenditions() throws {
    let server = try startServer()
    // The top rendition's segments trickle: the player starts low, climbs, and is held
    // back or steps down; the recording keeps each byte's time.
    for index in 0..<8 {
      server.setFault(
        .slow(bytesPerSecond: 40_000), for: String(format: "/hls/720p/segment%03d.ts", index))
    }
    let (played, recording) = try record([
      server.url("/hls/master.m3u8").absoluteString, "--no-audio", "--start", "0", "--duration",
      "6",
    ])
    let recorded = renditions(played)
    XCTAssertFalse(recorded.isEmpty, played.stdout)
    let replay = try replayThrice(recording)
    XCTAssertEqual(renditions(replay), recorded)
    XCTAssertEqual(
      replay.jsonLines().last?["event"] as? String, "summary", "the replay plays to its end")
    // Nothing of the replay went to the server.
    let requestsAfterRecording = server.requests.count
    _ = try CLIRunner.run(["replay", recording.path, "--quiet"])
    XCTAssertEqual(server.requests.count, requestsAfterRecording)
  }

  func testProgressiveHTTPFileWithASeek_replaysThreeTimesAlike_andLandsWhereRecorded() throws {
    let server = try startServer()
    let (played, recording) = try record([
      server.url("/sample-h264-aac.mp4").absoluteString, "--no-audio", "--start", "0",
      "--seek-at", "0.5=6", "--duration", "8",
    ])
    let seekLines = played.jsonLines().filter { ($0["event"] as? String) == "seekCompleted" }
    // The start (0) and the scripted seek (to 6 s).
    XCTAssertEqual(seekLines.compactMap { $0["time"] as? Double }, [0, 6], played.stdout)
    let replay = try replayThrice(recording)
    let replaySeeks = replay.jsonLines().filter { ($0["event"] as? String) == "seekCompleted" }
    XCTAssertEqual(replaySeeks.count, seekLines.count, replay.stdout)
    XCTAssertEqual(
      replaySeeks.compactMap { $0["time"] as? Double }.map { ($0 * 10).rounded() },
      seekLines.compactMap { $0["time"] as? Double }.map { ($0 * 10).rounded() })
    // The seek read the file with a range request that the recording holds.
    let text = try String(contentsOf: recording, encoding: .utf8)
    XCTAssertTrue(text.contains("\"range\":\""), "a ranged open after the seek")
  }

  // MARK: Secrets and bad recordings

  func testSecrets_areLeftOut_unlessAskedFor() throws {
    let server = try startServer()
    let media = server.url("/sample-h264-aac.mp4").absoluteString + "?token=s3cr3t&keep=1"
    let arguments = [media, "--no-audio", "--duration", "0.5", "--header", "Authorization: Bearer hush"]
    let (_, redacted) = try record(arguments)
    let redactedText = try String(contentsOf: redacted, encoding: .utf8)
    XCTAssertFalse(redactedText.contains("s3cr3t"))
    XCTAssertFalse(redactedText.contains("hush"))
    XCTAssertTrue(redactedText.contains("token=redacted"))
    XCTAssertTrue(redactedText.contains("keep=1"))
    // The redacted recording still replays: the replay redacts what it is asked for.
    assertStatus(try CLIRunner.run(["replay", redacted.path, "--quiet"]), 0)
    let (_, kept) = try record(arguments + ["--record-secrets"])
    XCTAssertTrue(try String(contentsOf: kept, encoding: .utf8).contains("s3cr3t"))
  }

  func testACutRecording_failsNamingWhereItBreaks() throws {
    let server = try startServer()
    let (_, recording) = try record([
      server.url("/sample-h264-aac.mp4").absoluteString, "--no-audio", "--duration", "0.5",
    ])
    let lines = try String(contentsOf: recording, encoding: .utf8).split(separator: "\n")
    let cut = folder.appendingPathComponent("cut.jsonl")
    try (lines.dropLast(1).joined(separator: "\n") + "\n").write(
      to: cut, atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["replay", cut.path])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("without its closing line"), result.stderr)
    XCTAssertTrue(result.stderr.contains("line \(lines.count - 1)"), result.stderr)
  }

  func testAnEditedRecording_failsNamingTheLine() throws {
    let server = try startServer()
    let (_, recording) = try record([
      server.url("/sample-h264-aac.mp4").absoluteString, "--no-audio", "--duration", "0.5",
    ])
    var lines = try String(contentsOf: recording, encoding: .utf8).split(separator: "\n").map(
      String.init)
    let dataIndex = try XCTUnwrap(lines.firstIndex { $0.contains("\"type\":\"data\"") })
    lines[dataIndex] = lines[dataIndex].replacingOccurrences(of: "\"bytes\":\"", with: "\"bytes\":\"!!")
    let edited = folder.appendingPathComponent("edited.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: edited, atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["replay", edited.path])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("line \(dataIndex + 1)"), result.stderr)
    XCTAssertTrue(result.stderr.contains("not base64"), result.stderr)
  }

  func testAReplayThatAsksForWhatWasNotRecorded_failsNamingTheRequest() throws {
    let server = try startServer()
    let (_, recording) = try record([
      server.url("/sample-h264-aac.mp4").absoluteString, "--no-audio", "--duration", "0.5",
    ])
    // The recorded arguments now name another file: the replay asks for it, the recording
    // has no answer, and the replay fails at once instead of waiting.
    var text = try String(contentsOf: recording, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "\"arguments\":[\"\(server.url("/sample-h264-aac.mp4").absoluteString)",
      with: "\"arguments\":[\"\(server.url("/sample-h264-aac.ts").absoluteString)")
    let edited = folder.appendingPathComponent("other.jsonl")
    try text.write(to: edited, atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["replay", edited.path])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("sample-h264-aac.ts"), result.stderr)
    XCTAssertTrue(result.stderr.contains("did not make"), result.stderr)
  }
}
