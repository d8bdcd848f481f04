import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play HLS --interstitials`: an HLS stream's interstitials through the SDK's ads
/// plug-in.
final class PlayInterstitialsCommandTests: XCTestCase {
  /// A VOD playlist of the `hls/144p` segments with an interstitial at 4 s playing a
  /// one-segment asset, in a temporary folder (file URLs).
  private func writeStream() throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-interstitials-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    func segment(_ index: Int) throws -> String {
      try Fixtures.url(String(format: "hls/144p/segment%03d.ts", index)).absoluteString
    }
    func playlist(_ count: Int, _ extra: [String]) throws -> String {
      var lines = [
        "#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
      ]
      lines += extra
      lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z")
      for index in 0..<count {
        lines += ["#EXTINF:2.000000,", try segment(index)]
      }
      return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }
    try Data(try playlist(1, []).utf8).write(to: folder.appendingPathComponent("ad.m3u8"))
    let range =
      "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\","
      + "START-DATE=\"2026-01-01T00:00:04.000Z\",X-ASSET-URI=\"ad.m3u8\",X-RESUME-OFFSET=0"
    let primary = folder.appendingPathComponent("primary.m3u8")
    try Data(try playlist(6, [range]).utf8).write(to: primary)
    return primary.path
  }

  func testInterstitials_playAsABreak_andWithoutTheSwitchNothingPlays() throws {
    let path = try writeStream()
    let result = try CLIRunner.run(["play", path, "--interstitials", "--fast", "--json"])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    let enters = objects.filter { $0["event"] as? String == "adSequenceEnter" }
    XCTAssertEqual(enters.compactMap { $0["breakId"] as? String }, ["ad1"], "\(names)")
    XCTAssertEqual(enters.first?["breakTime"] as? Double, 4)
    XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
    let summary = try XCTUnwrap(objects.last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["adBreaks"] as? Int, 1)
    XCTAssertEqual(summary["adsCompleted"] as? Int, 1)

    let off = try CLIRunner.run(["play", path, "--fast", "--json"])
    assertStatus(off, 0)
    XCTAssertFalse(
      off.jsonLines().contains { $0["event"] as? String == "adSequenceEnter" }, "no plug-in")
  }

  func testNoInterstitialsWithoutATag_isAUsageError() throws {
    let path = try writeStream()
    assertStatus(try CLIRunner.run(["play", path, "--no-interstitials"]), 2)
    assertStatus(try CLIRunner.run(["play", path, "--interstitials=yes"]), 2)
  }
}
