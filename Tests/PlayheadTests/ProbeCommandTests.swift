import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead probe` run as a subprocess, checked against the fixtures' manifest.
final class ProbeCommandTests: XCTestCase {
  func testProbeJSON_onMP4_reportsContainerDurationAndTracks() throws {
    let facts = try Fixtures.manifest().file("sample-h264-aac.mp4")
    let result = try CLIRunner.run([
      "probe", try Fixtures.url("sample-h264-aac.mp4").path, "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertEqual(objects.count, 1, "one JSON object: \(result.stdout)")
    let probe = try XCTUnwrap(objects.first)

    let container = try XCTUnwrap(probe["container"] as? String)
    XCTAssertTrue(container.contains("mp4"), container)
    let duration = try XCTUnwrap(probe["duration"] as? Double)
    XCTAssertEqual(duration, try XCTUnwrap(facts.durationSeconds), accuracy: 0.05)
    XCTAssertEqual(duration, 10, accuracy: 0.05)

    let tracks = try XCTUnwrap(probe["tracks"] as? [[String: Any]])
    let video = try XCTUnwrap(tracks.first { $0["kind"] as? String == "video" })
    let videoFacts = try XCTUnwrap(facts.videoStreams.first)
    XCTAssertEqual(video["codec"] as? String, "h264")
    XCTAssertEqual(video["width"] as? Int, videoFacts.width)
    XCTAssertEqual(video["height"] as? Int, videoFacts.height)
    XCTAssertEqual(video["width"] as? Int, 320)
    XCTAssertEqual(video["height"] as? Int, 240)
    XCTAssertEqual(try XCTUnwrap(video["frameRate"] as? Double), 25, accuracy: 0.01)
    XCTAssertTrue(video["sampleRate"] is NSNull, "sampleRate is null for video")
    XCTAssertTrue(video["channels"] is NSNull, "channels is null for video")

    let audio = try XCTUnwrap(tracks.first { $0["kind"] as? String == "audio" })
    let audioFacts = try XCTUnwrap(facts.audioStreams.first)
    XCTAssertEqual(audio["codec"] as? String, "aac")
    XCTAssertEqual(audio["sampleRate"] as? Int, audioFacts.sampleRate)
    XCTAssertEqual(audio["channels"] as? Int, audioFacts.channels)
    XCTAssertEqual(audio["sampleRate"] as? Int, 48_000)
    XCTAssertEqual(audio["channels"] as? Int, 2)
    XCTAssertTrue(audio["width"] is NSNull, "width is null for audio")
    XCTAssertTrue(audio["frameRate"] is NSNull, "frameRate is null for audio")
    for track in tracks {
      for key in [
        "kind", "codec", "width", "height", "frameRate", "bitRate", "sampleRate", "channels",
        "language",
      ] {
        XCTAssertNotNil(track[key], "every track has '\(key)' (null when it does not apply)")
      }
    }
  }

  func testProbeJSON_onMP3_reportsOneAudioTrack() throws {
    let facts = try Fixtures.manifest().file("sample-audio.mp3")
    let result = try CLIRunner.run(["probe", "--json", try Fixtures.url("sample-audio.mp3").path])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(probe["container"] as? String, facts.container)
    XCTAssertEqual(
      try XCTUnwrap(probe["duration"] as? Double), try XCTUnwrap(facts.durationSeconds),
      accuracy: 0.05)
    let tracks = try XCTUnwrap(probe["tracks"] as? [[String: Any]])
    XCTAssertEqual(tracks.count, 1)
    let audio = try XCTUnwrap(tracks.first)
    XCTAssertEqual(audio["kind"] as? String, "audio")
    XCTAssertEqual(audio["codec"] as? String, "mp3")
    XCTAssertEqual(audio["sampleRate"] as? Int, facts.audioStreams.first?.sampleRate)
    XCTAssertEqual(audio["channels"] as? Int, 2)
    XCTAssertTrue(audio["width"] is NSNull)
  }

  func testProbeText_onMP4_printsContainerDurationAndOneLinePerTrack() throws {
    let result = try CLIRunner.run(["probe", try Fixtures.url("sample-h264-aac.mp4").path])
    assertStatus(result, 0)
    let lines = result.stdoutLines
    XCTAssertTrue(lines.contains { $0.hasPrefix("container") && $0.contains("mp4") }, result.stdout)
    XCTAssertTrue(
      lines.contains { $0.hasPrefix("duration") && $0.contains("00:10.00") }, result.stdout)
    XCTAssertTrue(
      lines.contains { $0.contains("video") && $0.contains("h264") && $0.contains("320x240") },
      result.stdout)
    XCTAssertTrue(
      lines.contains { $0.contains("audio") && $0.contains("aac") && $0.contains("48000 Hz") },
      result.stdout)
  }

  func testProbe_overHTTP_readsTheSameTracks() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let result = try CLIRunner.run([
      "probe", "--json", server.url("/sample-h264-aac.mp4").absoluteString,
    ])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    let tracks = try XCTUnwrap(probe["tracks"] as? [[String: Any]])
    XCTAssertEqual(tracks.compactMap { $0["codec"] as? String }.sorted(), ["aac", "h264"])
  }
}
