import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play` run as a subprocess in fast mode.
final class PlayCommandTests: XCTestCase {
  /// The video frame count ffprobe measured for the MP4 fixture (250).
  private func mp4FrameCount() throws -> Int {
    let facts = try Fixtures.manifest().file("sample-h264-aac.mp4")
    return try XCTUnwrap(facts.videoStreams.first?.nbReadFrames)
  }

  private func summary(of objects: [[String: Any]]) throws -> [String: Any] {
    let last = try XCTUnwrap(objects.last, "no JSON lines")
    XCTAssertEqual(last["event"] as? String, "summary", "the summary is the last line")
    return last
  }

  func testPlayFastJSON_onMP4_decodesAndAccountsForEveryFrame() throws {
    let frames = try mp4FrameCount()
    XCTAssertEqual(frames, 250)
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    let ready = try XCTUnwrap(names.firstIndex(of: "readyToPlay"), "\(names)")
    let ended = try XCTUnwrap(names.firstIndex(of: "didPlayToEnd"), "\(names)")
    XCTAssertLessThan(ready, ended)
    XCTAssertEqual(names.last, "summary")
    for object in objects.dropLast() {
      XCTAssertNotNil(object["time"], "every event line has 'time'")
      XCTAssertNotNil(object["clock"], "every event line has 'clock'")
    }

    let summary = try summary(of: objects)
    XCTAssertEqual(summary["framesDecoded"] as? Int, frames)
    let rendered = try XCTUnwrap(summary["framesRendered"] as? Int)
    let dropped = try XCTUnwrap(summary["framesDropped"] as? Int)
    XCTAssertEqual(rendered + dropped, frames)
    XCTAssertGreaterThan(try XCTUnwrap(summary["audioSamplesPlayed"] as? Int), 0)
    XCTAssertGreaterThan(try XCTUnwrap(summary["audioSamplesDecoded"] as? Int), 0)
    XCTAssertGreaterThan(try XCTUnwrap(summary["bytesRead"] as? Int), 0)
    XCTAssertEqual(summary["stallCount"] as? Int, 0)
    XCTAssertEqual(try XCTUnwrap(summary["durationSeconds"] as? Double), 10, accuracy: 0.05)
    XCTAssertEqual(try XCTUnwrap(summary["playedSeconds"] as? Double), 10, accuracy: 0.1)
    XCTAssertNotNil(summary["timeToFirstFrameMs"] as? Double)
    XCTAssertEqual(result.stderr, "", "nothing on stderr with --json")
  }

  func testPlayFastJSON_withNoAudio_decodesVideoOnly() throws {
    let frames = try mp4FrameCount()
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--json", "--no-audio",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertTrue(objects.contains { $0["event"] as? String == "didPlayToEnd" })
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["framesDecoded"] as? Int, frames)
    XCTAssertEqual(
      (summary["framesRendered"] as? Int ?? 0) + (summary["framesDropped"] as? Int ?? 0), frames)
    XCTAssertEqual(summary["audioSamplesDecoded"] as? Int, 0)
    XCTAssertEqual(summary["audioSamplesPlayed"] as? Int, 0)
  }

  func testPlayFastText_printsLifecycleInOrderAndASummary() throws {
    let result = try CLIRunner.run(["play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast"])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    let loading = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("loading ") }, result.stdout)
    let ready = try XCTUnwrap(lines.firstIndex(of: "ready"), result.stdout)
    let playing = try XCTUnwrap(lines.firstIndex(of: "playing"), result.stdout)
    let ended = try XCTUnwrap(lines.firstIndex(of: "ended"), result.stdout)
    let summary = try XCTUnwrap(lines.firstIndex(of: "summary"), result.stdout)
    XCTAssertEqual(
      [loading, ready, playing, ended, summary].sorted(), [loading, ready, playing, ended, summary])
    XCTAssertTrue(
      lines.contains { $0.contains("250 frames decoded") },
      "summary counts frames: \(result.stdout)")
    // Standard error is a pipe here: progress comes as plain lines, no control characters.
    XCTAssertFalse(result.stderr.contains("\r"), "no carriage returns off a terminal")
    XCTAssertFalse(result.stderr.contains("\u{1B}"), "no escape sequences off a terminal")
    XCTAssertTrue(
      result.stderr.contains(" / 00:10.00  playing"), "progress lines: \(result.stderr)")
  }

  func testPlayFastQuiet_printsNothing() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--quiet",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(result.stderr, "")
  }

  func testPlayFastEvents_printsOneTimedLinePerEvent() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--events", "--quiet",
    ])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    XCTAssertFalse(lines.isEmpty)
    for line in lines {
      XCTAssertTrue(line.hasPrefix("[") && line.contains("s] "), "event line format: \(line)")
    }
    let ready = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("] readyToPlay") }, result.stdout)
    let ended = try XCTUnwrap(lines.firstIndex { $0.contains("] didPlayToEnd") }, result.stdout)
    XCTAssertLessThan(ready, ended)
    let endTime = lines[ended].dropFirst().prefix { $0 != "s" }.trimmingCharacters(in: .whitespaces)
    XCTAssertEqual(try XCTUnwrap(Double(endTime), lines[ended]), 10, accuracy: 0.05)
  }

  func testPlayFast_withStartAndDuration_playsThatStretchIntoTheWAVFile() throws {
    let directory = try makeTemporaryDirectory()
    let wav = directory.appendingPathComponent("out.wav")
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--json", "--start", "3",
      "--duration", "2", "--wav", wav.path,
    ])
    assertStatus(result, 0)
    let summary = try summary(of: result.jsonLines())
    XCTAssertEqual(try XCTUnwrap(summary["playedSeconds"] as? Double), 2, accuracy: 0.1)
    let ended = try XCTUnwrap(result.jsonLines().first { $0["event"] as? String == "didPlayToEnd" })
    XCTAssertEqual(try XCTUnwrap(ended["time"] as? Double), 5, accuracy: 0.05)

    let data = try Data(contentsOf: wav)
    XCTAssertGreaterThan(data.count, 44)
    XCTAssertEqual(String(decoding: data.prefix(4), as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: data[8..<12], as: UTF8.self), "WAVE")
    // Two seconds of 48 kHz 16-bit stereo, within a tenth of a second.
    let bytesPerSecond = 48_000 * 2 * 2
    XCTAssertEqual(
      Double(data.count - 44), Double(2 * bytesPerSecond), accuracy: Double(bytesPerSecond) / 10)
  }

  func testPlayFast_withFramesEvery25_writesTenPNGs() throws {
    let directory = try makeTemporaryDirectory().appendingPathComponent("frames")
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--quiet", "--no-audio",
      "--frames", directory.path, "--every", "25",
    ])
    assertStatus(result, 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    XCTAssertEqual(files.count, 10, "\(files)")
    XCTAssertEqual(files.first, "frame-000001.png")
    let first = try Data(contentsOf: directory.appendingPathComponent("frame-000001.png"))
    let size = try XCTUnwrap(pngSize(first), "a PNG")
    XCTAssertEqual(size.width, 320)
    XCTAssertEqual(size.height, 240)
  }

  func testPlayFast_withSnapshotAt5_writesTheFrameThenPlaysFromTheStart() throws {
    let directory = try makeTemporaryDirectory()
    let snapshot = directory.appendingPathComponent("shot.png")
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--json", "--snapshot",
      snapshot.path, "--at", "5",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let first = try XCTUnwrap(objects.first)
    XCTAssertEqual(first["event"] as? String, "snapshot")
    XCTAssertEqual(first["width"] as? Int, 320)
    XCTAssertEqual(first["height"] as? Int, 240)
    let size = try XCTUnwrap(pngSize(try Data(contentsOf: snapshot)))
    XCTAssertEqual(size.width, 320)
    XCTAssertEqual(size.height, 240)
    let summary = try summary(of: objects)
    XCTAssertEqual(summary["framesDecoded"] as? Int, try mp4FrameCount())
    XCTAssertEqual(try XCTUnwrap(summary["playedSeconds"] as? Double), 10, accuracy: 0.1)
  }

  func testPlayFastJSON_overHTTP_playsToTheEnd() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let result = try CLIRunner.run([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--fast", "--json",
    ])
    assertStatus(result, 0)
    let summary = try summary(of: result.jsonLines())
    XCTAssertEqual(summary["framesDecoded"] as? Int, try mp4FrameCount())
    XCTAssertGreaterThan(try XCTUnwrap(summary["bytesRead"] as? Int), 0)
  }

  func testPlayFastJSON_onMP3_playsAudioOnly() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-audio.mp3").path, "--fast", "--json",
    ])
    assertStatus(result, 0)
    let summary = try summary(of: result.jsonLines())
    XCTAssertEqual(summary["framesDecoded"] as? Int, 0)
    XCTAssertGreaterThan(try XCTUnwrap(summary["audioSamplesPlayed"] as? Int), 0)
  }
}
