import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play CONTENT --ad-tag URL`: client-side ads through the SDK's ads plug-in.
final class PlayAdsCommandTests: XCTestCase {
  /// A VMAP file with a pre-roll and a mid-roll at 3 s, each an inline VAST ad playing a
  /// fixture (file URLs: the document is a local file).
  private func writeVMAP() throws -> String {
    let media = try Fixtures.url("alpha-left.mp4").absoluteString
    func vast(_ id: String) -> String {
      """
      <VAST version="3.0"><Ad id="\(id)"><InLine><AdSystem>t</AdSystem><AdTitle>\(id)</AdTitle>
      <Creatives><Creative><Linear><Duration>00:00:02</Duration><MediaFiles>
      <MediaFile delivery="progressive" type="video/mp4" width="320" height="240">\(media)</MediaFile>
      </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
      """
    }
    func adBreak(_ offset: String, _ id: String) -> String {
      """
      <vmap:AdBreak timeOffset="\(offset)" breakType="linear" breakId="\(id)"><vmap:AdSource>
      <vmap:VASTAdData>\(vast(id + "-ad"))</vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
      """
    }
    let text = """
      <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      \(adBreak("start", "pre"))\(adBreak("00:00:03.000", "mid"))
      </vmap:VMAP>
      """
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-vmap-\(UUID().uuidString).xml")
    try Data(text.utf8).write(to: file)
    addTeardownBlock { try? FileManager.default.removeItem(at: file) }
    return file.path
  }

  func testAdTag_playsTheBreaksAsJSONLines_andTheSummaryCountsThem() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--ad-tag", try writeVMAP(),
      "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    XCTAssertEqual(names.filter { $0 == "adSequenceEnter" }.count, 2, "\(names)")
    XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
    let enters = objects.filter { $0["event"] as? String == "adSequenceEnter" }
    XCTAssertEqual(enters.compactMap { $0["breakId"] as? String }, ["pre", "mid"])
    XCTAssertEqual(enters.last?["breakTime"] as? Double, 3)
    let summary = try XCTUnwrap(objects.last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["adBreaks"] as? Int, 2)
    XCTAssertEqual(summary["adsStarted"] as? Int, 2)
    XCTAssertEqual(summary["adsCompleted"] as? Int, 2)
    XCTAssertEqual(summary["adErrors"] as? Int, 0)
  }

  func testStart_playsNoBreakBeforeIt() throws {
    let result = try CLIRunner.run([
      "play", try Fixtures.url("sample-h264-aac.mp4").path, "--ad-tag", try writeVMAP(),
      "--start", "5", "--fast", "--json",
    ])
    assertStatus(result, 0)
    let names = result.jsonLines().compactMap { $0["event"] as? String }
    XCTAssertFalse(names.contains("adSequenceEnter"), "\(names)")
    XCTAssertEqual(names.filter { $0 == "end" }.count, 1)
  }

  func testAdOptionsWithoutATag_andAnUnknownSeekMode_areUsageErrors() throws {
    let path = try Fixtures.url("sample-h264-aac.mp4").path
    assertStatus(try CLIRunner.run(["play", path, "--seek-mode", "all"]), 2)
    assertStatus(
      try CLIRunner.run(["play", path, "--ad-tag", "/tmp/x.xml", "--seek-mode", "often"]), 2)
  }

  func testAdsStitched_tracksTheMarkedPeriodWithTheVMAPsBreak() throws {
    // The fixture's playlist with an ad period at 4-8 s, its segments by absolute file URL.
    let folder = try Fixtures.url("hls/144p/index.m3u8").deletingLastPathComponent()
    var lines: [String] = []
    var segment = 0
    let original = try String(
      contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
    for line in original.split(separator: "\n") {
      if line.hasPrefix("#EXTINF") {
        if segment == 2 { lines.append("#EXT-X-CUE-OUT:4.000") }
        if segment == 4 { lines.append("#EXT-X-CUE-IN") }
        segment += 1
      }
      lines.append(
        line.hasPrefix("#")
          ? String(line) : folder.appendingPathComponent(String(line)).absoluteString)
    }
    let playlist = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-marked-\(UUID().uuidString).m3u8")
    try Data(lines.joined(separator: "\n").utf8).write(to: playlist)
    addTeardownBlock { try? FileManager.default.removeItem(at: playlist) }
    let vmap = try writeVMAP()
    // writeVMAP's mid-roll is at 3 s: 1 s from the period's start, within the tolerance.
    let result = try CLIRunner.run([
      "play", playlist.path, "--ad-tag", vmap, "--ads-stitched", "--fast", "--json",
    ])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let enters = objects.filter { $0["event"] as? String == "adSequenceEnter" }
    XCTAssertEqual(enters.compactMap { $0["breakId"] as? String }, ["mid"], "\(enters)")
    XCTAssertEqual(enters.first?["serverSide"] as? Bool, true)
    XCTAssertEqual(enters.first?["time"] as? Double, 4)
    let summary = try XCTUnwrap(objects.last { $0["event"] as? String == "summary" })
    XCTAssertEqual(summary["adBreaks"] as? Int, 1, "the pre-roll lines up with no marker")
    XCTAssertEqual(summary["adsCompleted"] as? Int, 1)
    XCTAssertEqual(
      objects.filter { $0["event"] as? String == "end" }.count, 1, "one end, no post-roll")
  }
}
