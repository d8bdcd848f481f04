import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead feed URL... [options]`, run as a subprocess against the local HTTP test server
/// serving copies of the HLS fixture ladder under `/v1/…`, `/v2/…`, `/v3/…`.
final class FeedCommandTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let root = try Fixtures.directory().appendingPathComponent("hls")
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "m3u8" || url.pathExtension == "ts" else { continue }
      let relative = String(
        url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))
      let data = try Data(contentsOf: url)
      for copy in ["v1", "v2", "v3"] { files["/\(copy)\(relative)"] = data }
    }
    let server = HTTPTestServer(files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testFeed_printsEachItemsTimeToFirstFrame_andPreloadsTheNext() throws {
    let server = try startServer()
    let urls = ["v1", "v2", "v3"].map { server.url("/\($0)/master.m3u8").absoluteString }
    let cache = try makeTemporaryDirectory().appendingPathComponent("cache").path
    let result = try CLIRunner.run(
      ["feed"] + urls + [
        "--preload-ms", "4000", "--watch-seconds", "1", "--cache-dir", cache, "--json",
      ])
    assertStatus(result, 0)
    let lines = result.jsonLines()
    XCTAssertEqual(lines.map { $0["index"] as? Int }, [1, 2, 3])
    XCTAssertEqual(lines.map { $0["url"] as? String }, urls)
    XCTAssertTrue(lines.allSatisfy { ($0["ttffMs"] as? Double ?? -1) >= 0 }, "\(lines)")
    XCTAssertEqual(lines.map { $0["preloadedMs"] as? Int }, [nil, 4000, 4000])
    for copy in ["v2", "v3"] {
      let segments = server.requests.map(\.path).filter {
        $0.hasPrefix("/\(copy)/") && $0.hasSuffix(".ts")
      }
      XCTAssertEqual(segments.count, Set(segments).count, "\(copy) fetched twice: \(segments)")
      XCTAssertTrue(segments.contains("/\(copy)/360p/segment001.ts"), "\(segments)")
    }
  }

  func testFeed_withoutPreload_preloadsNothing() throws {
    let server = try startServer()
    let urls = ["v1", "v2"].map { server.url("/\($0)/master.m3u8").absoluteString }
    let result = try CLIRunner.run(["feed"] + urls + ["--no-preload", "--watch-seconds", "0"])
    assertStatus(result, 0)
    XCTAssertEqual(result.stdoutLines.count, 2, result.stdout)
    XCTAssertTrue(result.stdoutLines.allSatisfy { $0.hasSuffix("(not preloaded)") }, result.stdout)
  }

  func testFeed_badCommandLines_exitWithStatus2() throws {
    assertStatus(try CLIRunner.run(["feed"]), 2)
    assertStatus(
      try CLIRunner.run(["feed", "http://127.0.0.1:9/a.m3u8", "--preload-next", "x"]), 2)
    assertStatus(try CLIRunner.run(["feed", "http://127.0.0.1:9/a.m3u8", "--bogus"]), 2)
    let help = try CLIRunner.run(["feed", "--help"])
    assertStatus(help, 0)
    XCTAssertTrue(help.stdout.contains("Usage: playhead feed"))
  }

  func testFeed_anItemThatFails_isReported_andTheFeedGoesOn() throws {
    let server = try startServer()
    let urls = [server.url("/missing/master.m3u8"), server.url("/v1/master.m3u8")].map(
      \.absoluteString)
    let result = try CLIRunner.run(["feed"] + urls + ["--watch-seconds", "0", "--json"])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("item 1"), result.stderr)
    XCTAssertEqual(result.jsonLines().map { $0["index"] as? Int }, [2])
  }

  /// Fragmented-MP4 HLS used to show no first frame in a feed (its `short` scene keeps
  /// 4 s ahead, and the MP4 demuxer waited for every fragment before its first packet).
  func testFeed_fragmentedMP4Playlists_showTheirFirstFrame_withAndWithoutPreload() throws {
    let master = try Fixtures.url("hls-fmp4/master.m3u8").path
    let media = try Fixtures.url("hls-fmp4/144p/index.m3u8").path
    for options in [["--watch-seconds", "0.5"], ["--no-preload", "--watch-seconds", "0.5"]] {
      let result = try CLIRunner.run(["feed", master, media, "--json"] + options)
      assertStatus(result, 0)
      XCTAssertFalse(result.timedOut, "\(options)")
      let lines = result.jsonLines()
      XCTAssertEqual(lines.map { $0["url"] as? String }, [master, media], "\(options)")
      XCTAssertTrue(lines.allSatisfy { ($0["ttffMs"] as? Double ?? -1) >= 0 }, "\(lines)")
    }
    let single = try CLIRunner.run(["feed", media, "--no-preload", "--watch-seconds", "0"])
    assertStatus(single, 0)
    XCTAssertEqual(single.stdoutLines.count, 1, single.stdout)
  }
}
