import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `play … --snapshot FILE --at T --subtitles LANG --burn-subtitles`: the snapshot shows the
/// cues active at T, drawn with libass (issue 13). `dual-subtitles.mkv`'s French stream says
/// "Seconde N" from N.5 to N+1 s.
final class BurnSubtitlesCommandTests: XCTestCase {
  private func snapshot(at time: String, burning: Bool) throws -> RGBAImage {
    let file = try makeTemporaryDirectory().appendingPathComponent("shot.png")
    var arguments = [
      "play", try Fixtures.url("dual-subtitles.mkv").path, "--snapshot", file.path, "--at", time,
      "--duration", "0.1", "--quiet",
    ]
    if burning { arguments += ["--subtitles", "fr", "--burn-subtitles"] }
    let result = try CLIRunner.run(arguments)
    assertStatus(result, 0)
    return try PNGCodec.decode(try Data(contentsOf: file))
  }

  func testTheCueAtTheTime_isDrawnOnTheSnapshot_andNothingOutsideCues() throws {
    let plain = try snapshot(at: "2.5", burning: false)
    let burned = try snapshot(at: "2.5", burning: true)
    XCTAssertGreaterThan(plain.differingBottomThirdPixels(from: burned), 50, "Seconde 2 is drawn")
    let plainGap = try snapshot(at: "2.2", burning: false)
    let burnedGap = try snapshot(at: "2.2", burning: true)
    XCTAssertEqual(
      plainGap.differingBottomThirdPixels(from: burnedGap), 0, "no French cue at 2.2 s")
  }

  func testMistakes_areUsageErrors() throws {
    let sample = try Fixtures.url("dual-subtitles.mkv").path
    let alone = try CLIRunner.run(["play", sample, "--burn-subtitles", "--fast"])
    assertStatus(alone, 2)
    XCTAssertTrue(
      alone.stderr.contains(
        "goes with '--snapshot FILE --at T' and '--subtitles LANG' or '--sub-file FILE'"),
      alone.stderr)
    let file = try makeTemporaryDirectory().appendingPathComponent("shot.png").path
    let missing = try CLIRunner.run([
      "play", sample, "--snapshot", file, "--at", "1", "--subtitles", "de", "--burn-subtitles",
    ])
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("no subtitle track in it (available: eng, fra, eng)"))
  }
}
