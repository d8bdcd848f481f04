import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play … --subtitles LANG` and the text and audio tracks of `playhead probe`.
final class SubtitlesCommandTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// A temporary directory holding `files`, removed after the test.
  private func directory(with files: [String: String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-subtitles-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    for (name, text) in files {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    return directory
  }

  /// A playlist file with one 10 s video and the text tracks given as (file name, language).
  private func playlist(in directory: URL, tracks: [(String, String)]) throws -> String {
    let textTracks = tracks.map { name, language in
      [
        "src": directory.appendingPathComponent(name).absoluteString, "srclang": language,
        "label": language == "en" ? "English" : language, "kind": "subtitles",
        "mime_type": "text/vtt",
      ]
    }
    let video: [String: Any] = [
      "id": "v", "name": "video v",
      "sources": [
        ["src": try Fixtures.url("sample-h264-aac.mp4").absoluteString, "type": "video/mp4"]
      ],
      "text_tracks": textTracks,
    ]
    let file = directory.appendingPathComponent("list.json")
    try JSONSerialization.data(withJSONObject: ["videos": [video]]).write(to: file)
    return file.path
  }

  private let vtt = """
    WEBVTT

    00:00.000 --> 00:01.000
    Zero

    00:02.500 --> 00:04.000
    <v Ann>Two and a half
    second line

    00:08.000 --> 00:09.000
    Eight &amp; more
    """

  /// The `cue T TEXT` lines: (seconds, text).
  private func cueLines(_ result: CLIResult) -> [(Double, String)] {
    result.stdoutLines.compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
      guard parts.count == 3, parts[0] == "cue", parts[1].hasSuffix("s"),
        let seconds = Double(parts[1].dropLast())
      else { return nil }
      return (seconds, parts[2])
    }
  }

  func testHLSSubtitleRenditionCuesArePrintedAsTheyBecomeActive() throws {
    let server = try startServer()
    let result = try CLIRunner.run([
      "play", server.url("/hls-alt/master.m3u8").absoluteString, "--fast", "--quiet",
      "--subtitles", "en",
    ])
    assertStatus(result, 0)
    let cues = cueLines(result)
    XCTAssertEqual(cues.map(\.1), (0..<10).map { "Second \($0)" }, result.stdout)
    for (second, cue) in cues.enumerated() {
      XCTAssertEqual(cue.0, Double(second), accuracy: 0.25, "\(cue)")
    }
    XCTAssertEqual(result.stdoutLines.count, 10, "--quiet prints the cues only: \(result.stdout)")
  }

  func testJSONCueObjects() throws {
    let server = try startServer()
    let result = try CLIRunner.run([
      "play", server.url("/hls-alt/master.m3u8").absoluteString, "--fast", "--json",
      "--subtitles", "en-US",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let changed = try XCTUnwrap(objects.first { $0["event"] as? String == "textTrackChanged" })
    XCTAssertEqual(changed["track"] as? String, "hls:subs:English")
    XCTAssertEqual(changed["language"] as? String, "en")
    let cues = objects.filter { $0["event"] as? String == "cue" }
    XCTAssertEqual(cues.compactMap { $0["text"] as? String }, (0..<10).map { "Second \($0)" })
    let third = cues[3]
    XCTAssertEqual(third["start"] as? Double, 3)
    XCTAssertEqual(third["end"] as? Double, 4)
    XCTAssertEqual(try XCTUnwrap(third["time"] as? Double), 3, accuracy: 0.25)
    XCTAssertEqual(third["track"] as? String, "hls:subs:English")
    XCTAssertEqual(third["language"] as? String, "en")
    XCTAssertEqual(objects.last?["event"] as? String, "summary")
  }

  func testNoSubtitlesInTheLanguageSaysSoAndPlays() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("hls-alt/master.m3u8").path, "--fast", "--subtitles", "fr",
    ])
    assertStatus(result, 0)
    XCTAssertTrue(result.stdoutLines.contains("subtitles: none in fr"), result.stdout)
    XCTAssertTrue(cueLines(result).isEmpty, result.stdout)
    XCTAssertTrue(result.stdoutLines.contains("ended"), result.stdout)
  }

  func testPlaylistSidecarTrack() throws {
    let directory = try directory(with: [
      "en.vtt": vtt, "de.vtt": "WEBVTT\n\n00:01.000 --> 00:02.000\nEins\n",
    ])
    let path = try playlist(in: directory, tracks: [("de.vtt", "de"), ("en.vtt", "en")])
    let result = try CLIRunner.run(["play", "--playlist", path, "--fast", "--subtitles", "en"])
    assertStatus(result, 0)
    XCTAssertTrue(result.stdoutLines.contains("subtitles: English [en]"), result.stdout)
    let cues = cueLines(result)
    XCTAssertEqual(
      cues.map(\.1), ["Zero", "Two and a half / second line", "Eight & more"], result.stdout)
    for (cue, start) in zip(cues, [0, 2.5, 8]) {
      XCTAssertEqual(cue.0, start, accuracy: 0.25, "\(cue)")
    }
    let json = try CLIRunner.run([
      "play", "--playlist", path, "--fast", "--json", "--subtitles", "en",
    ])
    assertStatus(json, 0)
    let objects = json.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    XCTAssertEqual(names.filter { $0 == "cue" }.count, 3, "\(names)")
    XCTAssertFalse(names.contains("textCueEnter"), "cue lines replace the analytics cue events")
    let changed = try XCTUnwrap(objects.first { $0["event"] as? String == "textTrackChanged" })
    XCTAssertEqual(changed["track"] as? String, "sidecar:1")
    XCTAssertEqual(changed["session"] as? Int, 0)
    let loaded = try XCTUnwrap(objects.first { $0["event"] as? String == "textTrackLoaded" })
    XCTAssertEqual(loaded["cues"] as? Int, 3)
    XCTAssertLessThan(
      try XCTUnwrap(names.firstIndex(of: "textTrackLoaded")),
      try XCTUnwrap(names.firstIndex(of: "play")), "playback waits for the track")
  }

  func testAMissingSidecarFileIsReportedAndTheVideoPlays() throws {
    let directory = try directory(with: [:])
    let path = try playlist(in: directory, tracks: [("missing.vtt", "en")])
    let result = try CLIRunner.run(["play", "--playlist", path, "--fast", "--subtitles", "en"])
    assertStatus(result, 0)
    XCTAssertTrue(
      result.stderr.split(separator: "\n").contains {
        $0.hasPrefix("playhead: subtitles: ") && $0.contains("missing.vtt")
      }, result.stderr)
    XCTAssertTrue(result.stdoutLines.contains { $0.hasPrefix("end ") }, result.stdout)
    XCTAssertTrue(cueLines(result).isEmpty)
  }

  func testABadLanguageTagIsAUsageError() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    for arguments in [["play", mp4, "--subtitles"], ["play", mp4, "--subtitles", "12"]] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.hasPrefix("playhead: "), result.stderr)
    }
  }

  func testAFilesSubtitleStreamIsShownByLanguage() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("dual-subtitles.mkv").path, "--fast", "--json", "--subtitles", "fr",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let changed = try XCTUnwrap(objects.first { $0["event"] as? String == "textTrackChanged" })
    XCTAssertEqual(changed["track"] as? String, "stream:3")
    XCTAssertEqual(changed["label"] as? String, "French")
    let cues = objects.filter { $0["event"] as? String == "cue" }
    XCTAssertEqual(cues.compactMap { $0["text"] as? String }, (0..<6).map { "Seconde \($0)" })
    XCTAssertEqual(cues.compactMap { $0["start"] as? Double }, [0.5, 1.5, 2.5, 3.5, 4.5, 5.5])
    XCTAssertEqual(
      cues.compactMap { $0["track"] as? String }, Array(repeating: "stream:3", count: 6))
    XCTAssertEqual(try XCTUnwrap(cues.first?["time"] as? Double), 0.5, accuracy: 0.001)
  }

  func testProbeListsAFilesSubtitleStreams() throws {
    let json = try CLIRunner.run(["probe", "--json", try Fixtures.url("dual-subtitles.mkv").path])
    assertStatus(json, 0)
    let probe = try XCTUnwrap(json.jsonLines().first)
    let text = try XCTUnwrap(probe["textTracks"] as? [[String: Any]])
    XCTAssertEqual(text.compactMap { $0["id"] as? String }, ["stream:2", "stream:3", "stream:4"])
    XCTAssertEqual(
      text.compactMap { $0["label"] as? String }, ["English", "French", "English (forced)"])
    XCTAssertEqual(text.compactMap { $0["selectable"] as? Bool }, [true, true, true])
    XCTAssertEqual(text.compactMap { $0["default"] as? Bool }, [true, false, false])
    XCTAssertEqual(text.compactMap { $0["forced"] as? Bool }, [false, false, true])
    XCTAssertEqual(text.compactMap { $0["codec"] as? String }, ["subrip", "ass", "subrip"])
  }

  func testProbeListsTextAndAudioTracks() throws {
    let server = try startServer()
    let json = try CLIRunner.run([
      "probe", "--json", server.url("/hls-alt/master.m3u8").absoluteString,
    ])
    assertStatus(json, 0)
    let probe = try XCTUnwrap(json.jsonLines().first)
    let text = try XCTUnwrap(probe["textTracks"] as? [[String: Any]])
    XCTAssertEqual(text.count, 1)
    XCTAssertEqual(text.first?["id"] as? String, "hls:subs:English")
    XCTAssertEqual(text.first?["kind"] as? String, "subtitles")
    XCTAssertEqual(text.first?["language"] as? String, "en")
    XCTAssertEqual(text.first?["selectable"] as? Bool, true)
    XCTAssertEqual(
      text.first?["uri"] as? String, server.url("/hls-alt/subs-en/index.m3u8").absoluteString)
    let audio = try XCTUnwrap(probe["audioTracks"] as? [[String: Any]])
    XCTAssertEqual(audio.compactMap { $0["language"] as? String }, ["en", "fr"])
    XCTAssertEqual(audio.compactMap { $0["default"] as? Bool }, [true, false])
    XCTAssertEqual(
      audio.compactMap { $0["id"] as? String }, ["hls:aud:English", "hls:aud:Français"])

    let lines = try CLIRunner.run(["probe", try Fixtures.url("hls-alt/master.m3u8").path])
      .stdoutLines
    XCTAssertTrue(
      lines.contains("text track  hls:subs:English  subtitles  \"English\"  [en]"), "\(lines)")
    XCTAssertTrue(
      lines.contains("audio track  hls:aud:English  \"English\"  [en]  default"), "\(lines)")
    XCTAssertTrue(lines.contains("audio track  hls:aud:Français  \"Français\"  [fr]"), "\(lines)")

    let file = try CLIRunner.run(["probe", "--json", try Fixtures.url("sample-h264-aac.mp4").path])
    let fileProbe = try XCTUnwrap(file.jsonLines().first)
    XCTAssertEqual((fileProbe["textTracks"] as? [Any])?.count, 0)
    let fileAudio = try XCTUnwrap(fileProbe["audioTracks"] as? [[String: Any]])
    XCTAssertEqual(fileAudio.compactMap { $0["id"] as? String }, ["stream:1"])
    XCTAssertEqual(fileAudio.first?["source"] as? String, "embedded")
    XCTAssertTrue(fileAudio.first?["language"] is NSNull, "und is no language")
  }
}
