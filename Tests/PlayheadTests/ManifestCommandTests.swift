import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead manifest`: an MPD printed checked (or as JSON), an M3U8 handed to `playlist`,
/// a broken MPD refused with its element path.
final class ManifestCommandTests: XCTestCase {
  private func write(_ text: String, suffix: String = ".mpd") throws -> String {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-manifest-\(UUID().uuidString)\(suffix)")
    try Data(text.utf8).write(to: file)
    addTeardownBlock { try? FileManager.default.removeItem(at: file) }
    return file.path
  }

  private let mpd = """
    <MPD type="static" mediaPresentationDuration="PT6S"><Period>
      <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="v_$Number$.m4s" duration="2"/>
        <Representation id="v" bandwidth="800000" width="640" height="360" codecs="avc1.64001e"/>
      </AdaptationSet></Period></MPD>
    """

  func testAnMPD_isPrintedWithItsSegments_andAsJSON() throws {
    let path = try write(mpd)
    let text = try CLIRunner.run(["manifest", path])
    assertStatus(text, 0)
    XCTAssertEqual(text.stdoutLines.first, "MPD static, 1 period(s)")
    XCTAssertTrue(
      text.stdout.contains(
        "v: 800000 bit/s 640x360 avc1.64001e, SegmentTemplate @duration (3 segments)"),
      text.stdout)
    let json = try CLIRunner.run(["manifest", path, "--json"])
    assertStatus(json, 0)
    let object = try XCTUnwrap(json.jsonLines().first)
    XCTAssertEqual(object["kind"] as? String, "mpd")
    let periods = try XCTUnwrap(object["periods"] as? [[String: Any]])
    let sets = try XCTUnwrap(periods.first?["adaptationSets"] as? [[String: Any]])
    let representation = try XCTUnwrap(
      (sets.first?["representations"] as? [[String: Any]])?.first)
    XCTAssertEqual(representation["segmentCount"] as? Int, 3)
    XCTAssertTrue((representation["firstSegment"] as? String)?.hasSuffix("/v_1.m4s") ?? false)
  }

  func testABrokenMPD_isRefusedWithItsElementPath_andAnM3U8GoesToPlaylist() throws {
    let broken = try write("<MPD type=\"static\"><Period start=\"soon\"/></MPD>")
    let refused = try CLIRunner.run(["manifest", broken])
    assertStatus(refused, 1)
    XCTAssertTrue(
      refused.stderr.contains("MPD/Period[1]/@start: 'soon' is not an xs:duration"), refused.stderr)
    let playlist = try CLIRunner.run(["manifest", try Fixtures.url("hls/144p/index.m3u8").path])
    assertStatus(playlist, 0)
    XCTAssertTrue(playlist.stdout.hasPrefix("media playlist"), playlist.stdout)
    assertStatus(try CLIRunner.run(["manifest"]), 2)
    assertStatus(try CLIRunner.run(["manifest", "/nonexistent/x.mpd"]), 3)
  }

  func testAnMPDDescribingATrillionSegments_isCountedUpToALimit_atOnce() throws {
    let path = try write(
      "<MPD type=\"static\"><Period duration=\"PT1000000H\"><AdaptationSet mimeType=\"video/mp4\">"
        + "<SegmentTemplate media=\"$Number$\"><SegmentTimeline><S t=\"0\" d=\"1\" r=\"999999999999\"/>"
        + "</SegmentTimeline></SegmentTemplate><Representation id=\"a\" bandwidth=\"1\"/>"
        + "</AdaptationSet></Period></MPD>")
    let result = try CLIRunner.run(["manifest", path, "--json"])
    assertStatus(result, 0)
    let text = try CLIRunner.run(["manifest", path])
    XCTAssertTrue(text.stdout.contains("(more than 10000000 segments)"), text.stdout)
  }
}
