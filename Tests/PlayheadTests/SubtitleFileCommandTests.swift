import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `play … --sub-file FILE`: a WebVTT file beside the media shown as a subtitle track, as
/// mpv's `--sub-file`, printed as cues, chosen by `--subtitles LANG`, and burned into a
/// `--snapshot` (issue 13). The sample is 10 s long.
final class SubtitleFileCommandTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    folder = try makeTemporaryDirectory()
  }

  /// Writes a WebVTT file named `name` into the folder: "Bonjour" from 1 to 2 s and
  /// "Au revoir" from 3 to 4 s.
  private func subtitleFile(named name: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try """
    WEBVTT

    00:00:01.000 --> 00:00:02.000
    Bonjour

    00:00:03.000 --> 00:00:04.000
    Au revoir

    """.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  private func sample() throws -> String { try Fixtures.url("sample-h264-aac.mp4").path }

  private func cues(_ result: CLIResult) -> [[String: Any]] {
    result.jsonLines().filter { $0["event"] as? String == "cue" }
  }

  func testTheFileIsShown_withItsLanguageFromItsName() throws {
    let file = try subtitleFile(named: "sample.fr.vtt")
    let result = try CLIRunner.run([
      "play", try sample(), "--fast", "--duration", "5", "--sub-file", file.path, "--json",
    ])
    assertStatus(result, 0)
    let chosen = result.jsonLines().first { $0["event"] as? String == "textTrackChanged" }
    XCTAssertEqual(chosen?["label"] as? String, "sample.fr.vtt")
    XCTAssertEqual(chosen?["language"] as? String, "fr")
    XCTAssertEqual(cues(result).map { $0["text"] as? String }, ["Bonjour", "Au revoir"])
    XCTAssertEqual(cues(result).map { $0["language"] as? String }, ["fr", "fr"])
  }

  func testSubtitlesChoosesAmongTheFilesByLanguage() throws {
    let english = try subtitleFile(named: "sample.en.vtt")
    let french = try subtitleFile(named: "sample.fr.vtt")
    let result = try CLIRunner.run([
      "play", try sample(), "--fast", "--duration", "5", "--sub-file", english.path,
      "--sub-file", french.path, "--subtitles", "fr", "--json",
    ])
    assertStatus(result, 0)
    XCTAssertEqual(cues(result).map { $0["language"] as? String }, ["fr", "fr"])
    // A name without a language tag gives a track without one: --subtitles cannot pick it.
    let plain = try subtitleFile(named: "sample.final.vtt")
    let none = try CLIRunner.run([
      "play", try sample(), "--fast", "--duration", "5", "--sub-file", plain.path,
      "--subtitles", "fi", "--json",
    ])
    assertStatus(none, 0)
    XCTAssertEqual(cues(none).count, 0)
    let shownAnyway = try CLIRunner.run([
      "play", try sample(), "--fast", "--duration", "5", "--sub-file", plain.path, "--json",
    ])
    XCTAssertEqual(cues(shownAnyway).map { $0["text"] as? String }, ["Bonjour", "Au revoir"])
  }

  private func snapshot(at time: String, burning file: URL?) throws -> RGBAImage {
    let shot = folder.appendingPathComponent("shot-\(UUID().uuidString).png")
    var arguments = [
      "play", try sample(), "--snapshot", shot.path, "--at", time, "--duration", "0.1",
      "--quiet",
    ]
    if let file { arguments += ["--sub-file", file.path, "--burn-subtitles"] }
    assertStatus(try CLIRunner.run(arguments), 0)
    return try PNGCodec.decode(try Data(contentsOf: shot))
  }

  func testBurnSubtitles_drawsTheFilesCueOnTheSnapshot() throws {
    let file = try subtitleFile(named: "sample.fr.vtt")
    let plain = try snapshot(at: "1.5", burning: nil)
    let burned = try snapshot(at: "1.5", burning: file)
    XCTAssertGreaterThan(plain.differingBottomThirdPixels(from: burned), 50, "Bonjour is drawn")
    let plainGap = try snapshot(at: "2.5", burning: nil)
    let burnedGap = try snapshot(at: "2.5", burning: file)
    XCTAssertEqual(plainGap.differingBottomThirdPixels(from: burnedGap), 0, "no cue at 2.5 s")
  }

  func testMistakes_areUsageErrors() throws {
    let srt = try CLIRunner.run(["play", try sample(), "--sub-file", "movie.srt", "--fast"])
    assertStatus(srt, 2)
    XCTAssertTrue(srt.stderr.contains("needs a WebVTT file (.vtt)"), srt.stderr)
    let playlist = try CLIRunner.run([
      "play", "--playlist", "list.json", "--sub-file", "movie.vtt", "--fast",
    ])
    assertStatus(playlist, 2)
    XCTAssertTrue(playlist.stderr.contains("not to '--playlist'"), playlist.stderr)
  }
}
