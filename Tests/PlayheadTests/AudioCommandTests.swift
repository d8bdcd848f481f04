import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play … --audio LANG` for the audio streams of a file (`dual-audio.mkv`:
/// English 440 Hz, the default, and French 880 Hz) and HLS audio renditions (`hls-alt`:
/// English 440 Hz, French 880 Hz). What was heard is checked in the `--wav` file.
final class AudioCommandTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func dualAudio() throws -> String { try Fixtures.url("dual-audio.mkv").path }

  /// The tone of a 16-bit WAV file's first channel, from zero crossings, in Hz; and its
  /// length in seconds.
  private func tone(ofWAV url: URL) throws -> (hertz: Double, seconds: Double) {
    let wav = try XCTUnwrap(
      ToneMeasure.wavSamples(try Data(contentsOf: url)), "a WAV header and samples")
    return ToneMeasure.tone(wav.samples, channels: wav.channels, sampleRate: wav.rate)
  }

  /// The `audioRenditionChanged` lines of `result` (its `--json` output).
  private func audioChanges(_ result: CLIResult) -> [[String: Any]] {
    result.jsonLines().filter { $0["event"] as? String == "audioRenditionChanged" }
  }

  func testWithoutTheOptionTheFilesDefaultEnglishStreamPlays() throws {
    let wav = try makeTemporaryDirectory().appendingPathComponent("out.wav")
    let result = try CLIRunner.run([
      "play", try dualAudio(), "--fast", "--json", "--wav", wav.path,
    ])
    assertStatus(result, 0)
    let changes = audioChanges(result)
    XCTAssertEqual(changes.count, 1, result.stdout)
    XCTAssertEqual(changes.first?["audioTrack"] as? String, "stream:1")
    XCTAssertEqual(changes.first?["language"] as? String, "eng")
    let heard = try tone(ofWAV: wav)
    XCTAssertEqual(heard.hertz, 440, accuracy: 20)
  }

  func testAudioFraPlaysTheFilesFrenchStreamAndReportsIt() throws {
    let wav = try makeTemporaryDirectory().appendingPathComponent("out.wav")
    let result = try CLIRunner.run([
      "play", try dualAudio(), "--audio", "fra", "--fast", "--json", "--wav", wav.path,
    ])
    assertStatus(result, 0)
    let changes = audioChanges(result)
    XCTAssertEqual(changes.count, 1, "the start choice only: \(result.stdout)")
    XCTAssertEqual(changes.first?["audioTrack"] as? String, "stream:2")
    XCTAssertEqual(changes.first?["language"] as? String, "fra")
    XCTAssertEqual(changes.first?["label"] as? String, "French")
    let summary = try XCTUnwrap(result.jsonLines().last)
    XCTAssertEqual(summary["outcome"] as? String, "ended")
    XCTAssertEqual(summary["framesDecoded"] as? Int, 150)
    let heard = try tone(ofWAV: wav)
    XCTAssertEqual(heard.hertz, 880, accuracy: 40)
    XCTAssertEqual(heard.seconds, 6, accuracy: 0.1)
  }

  func testATwoLetterTagFindsTheStreamAndTheTextOutputNamesIt() throws {
    let result = try CLIRunner.run(["play", try dualAudio(), "--audio", "fr", "--fast"])
    assertStatus(result, 0)
    XCTAssertTrue(result.stdoutLines.contains("audio: French [fra]"), result.stdout)
    let ready = try XCTUnwrap(result.stdoutLines.firstIndex(of: "ready"))
    let playing = try XCTUnwrap(result.stdoutLines.firstIndex(of: "playing"))
    let audio = try XCTUnwrap(result.stdoutLines.firstIndex(of: "audio: French [fra]"))
    XCTAssertTrue(ready < audio && audio < playing, "chosen before playback: \(result.stdout)")
  }

  func testALanguageNotPresentFailsWithUsageStatus() throws {
    for extra in [[], ["--json"]] {
      let result = try CLIRunner.run(
        ["play", try dualAudio(), "--audio", "xx", "--fast"] + extra)
      assertStatus(result, 2)
      XCTAssertTrue(
        result.stderr.contains("option '--audio' asks for audio in 'xx'"), result.stderr)
      XCTAssertTrue(result.stderr.contains("(available: eng, fra)"), result.stderr)
      XCTAssertFalse(result.stdout.contains("\"didPlayToEnd\""), "nothing played")
    }
  }

  func testHLSAudioRenditionsAreChosenTheSameWay() throws {
    let server = try startServer()
    let master = server.url("/hls-alt/master.m3u8").absoluteString
    let wav = try makeTemporaryDirectory().appendingPathComponent("out.wav")
    let result = try CLIRunner.run([
      "play", master, "--audio", "fra", "--fast", "--json", "--wav", wav.path,
    ])
    assertStatus(result, 0)
    let changes = audioChanges(result)
    XCTAssertEqual(changes.count, 1, result.stdout)
    XCTAssertEqual(changes.first?["audioTrack"] as? String, "hls:aud:Français")
    XCTAssertEqual(changes.first?["language"] as? String, "fr")
    XCTAssertEqual(try tone(ofWAV: wav).hertz, 880, accuracy: 40)
    let missing = try CLIRunner.run(["play", master, "--audio", "de", "--fast"])
    assertStatus(missing, 2)
    XCTAssertTrue(missing.stderr.contains("(available: en, fr)"), missing.stderr)
  }

  func testARenditionThatIsNotAutoselectIsSelectedBeforePlaybackStarts() throws {
    let server = try startServer()
    // French is neither DEFAULT nor AUTOSELECT: the engine starts with English, and the
    // command selects French before playing.
    let master = """
      #EXTM3U
      #EXT-X-VERSION:3
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="/hls-alt/audio-en/index.m3u8"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="/hls-alt/audio-fr/index.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,AUDIO="aud"
      /hls-alt/video/index.m3u8

      """
    server.setFile(Data(master.utf8), at: "/manual/master.m3u8")
    let wav = try makeTemporaryDirectory().appendingPathComponent("out.wav")
    let result = try CLIRunner.run([
      "play", server.url("/manual/master.m3u8").absoluteString, "--audio", "fr", "--fast",
      "--json", "--wav", wav.path,
    ])
    assertStatus(result, 0)
    XCTAssertEqual(
      audioChanges(result).compactMap { $0["audioTrack"] as? String },
      ["hls:aud:English", "hls:aud:Français"])
    let events = result.jsonLines().compactMap { $0["event"] as? String }
    let switched = try XCTUnwrap(events.lastIndex(of: "audioRenditionChanged"))
    let playing = try XCTUnwrap(events.firstIndex(of: "playing"))
    XCTAssertLessThan(switched, playing, "switched before playback: \(events)")
    XCTAssertEqual(try tone(ofWAV: wav).hertz, 880, accuracy: 40)
  }

  func testUntaggedAudioWithoutAChoicePlays() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--audio", "fr", "--fast",
    ])
    assertStatus(result, 0)
    XCTAssertTrue(
      result.stdoutLines.contains("audio: the only audio track (its language is not tagged)"),
      result.stdout)
  }

  func testMisusedOptionIsAUsageError() throws {
    let directory = try makeTemporaryDirectory()
    let list = directory.appendingPathComponent("list.json")
    try Data(#"{"videos":[]}"#.utf8).write(to: list)
    let cases: [([String], String)] = [
      (["play", try dualAudio(), "--audio", "12"], "needs a language tag"),
      (["play", try dualAudio(), "--audio", "fr", "--no-audio"], "'--no-audio'"),
      (["play", "--playlist", list.path, "--audio", "fr"], "not to '--playlist'"),
      (["play", "--audio"], "--audio"),
    ]
    for (arguments, message) in cases {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
  }
}
