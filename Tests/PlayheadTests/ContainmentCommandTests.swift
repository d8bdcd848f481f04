import Foundation
import PlayheadTestSupport
import XCTest

/// FFmpeg reads only the bytes Playhead hands it (SPEC R1): content is sniffed, not
/// trusted by its name; a network resource never makes anything open a local file; FFmpeg
/// never makes a request of its own. Run as the `playhead` binary against a loopback
/// server whose log shows every request and its user agent.
final class ContainmentCommandTests: XCTestCase {
  /// A local media segment that FFmpeg's own HLS demuxer would happily play.
  private func localSegment() throws -> URL {
    try Fixtures.url("hls/144p/segment000.ts")
  }

  /// A media playlist over `uris`, 2 s a segment.
  private func playlist(_ uris: [String]) -> Data {
    var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for uri in uris { text += "#EXTINF:2.0,\n\(uri)\n" }
    return Data((text + "#EXT-X-ENDLIST\n").utf8)
  }

  /// A server over the fixtures plus `files`, stopped when the test ends.
  private func startServer(_ files: [String: Data]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// Fails when any request came from FFmpeg's own HTTP stack (user agent `Lavf/…`).
  private func assertNoFFmpegRequest(
    _ server: HTTPTestServer, file: StaticString = #filePath, line: UInt = #line
  ) {
    let agents = server.requests.compactMap { $0.headers["user-agent"] }
    XCTAssertFalse(
      agents.contains { $0.contains("Lavf") }, "FFmpeg made requests: \(agents)", file: file,
      line: line)
  }

  private func summary(_ result: CLIResult) throws -> [String: Any] {
    try XCTUnwrap(result.jsonLines().last { $0["event"] as? String == "summary" }, result.stdout)
  }

  // MARK: an M3U8 under another name

  func testM3U8NamedAsMedia_listingLocalFiles_isRefusedWithTheLine_forEveryName() throws {
    let local = try localSegment().absoluteString
    let body = playlist([local, local])
    let names = ["/leak", "/leak.ts", "/leak.mp4"]
    let server = try startServer(Dictionary(uniqueKeysWithValues: names.map { ($0, body) }))
    for name in names {
      let result = try CLIRunner.run(["play", "--fast", "--json", server.url(name).absoluteString])
      XCTAssertNotEqual(result.status, 0, "\(name) must not play: \(result.stdout)")
      XCTAssertFalse(result.timedOut, name)
      XCTAssertTrue(result.stderr.contains("line 6"), "\(name): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("'file'"), "\(name): \(result.stderr)")
      let decoded = try summary(result)["framesDecoded"] as? Int
      XCTAssertEqual(decoded ?? 0, 0, "\(name): no frame of the local file may be decoded")
    }
    assertNoFFmpegRequest(server)
  }

  func testM3U8NamedMP4_withHTTPSegments_playsThroughPlayheadsEngine() throws {
    let segments = (0..<6).map { String(format: "hls/144p/segment%03d.ts", $0) }
    let server = try startServer(["/stream.mp4": playlist(segments.map { "/" + $0 })])
    let result = try CLIRunner.run([
      "play", "--fast", "--json", server.url("/stream.mp4").absoluteString,
    ])
    assertStatus(result, 0)
    let summary = try summary(result)
    XCTAssertEqual(summary["outcome"] as? String, "ended")
    XCTAssertEqual(summary["framesDecoded"] as? Int, 300)
    for segment in segments {
      XCTAssertEqual(server.requestCount(for: "/" + segment), 1, "Playhead fetched \(segment)")
    }
    assertNoFFmpegRequest(server)
  }

  func testM3U8NamedMP4_probesAsHLS() throws {
    let server = try startServer(["/stream.mp4": playlist(["/hls/144p/segment000.ts"])])
    let result = try CLIRunner.run(["probe", "--json", server.url("/stream.mp4").absoluteString])
    assertStatus(result, 0)
    let probe = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(probe["container"] as? String, "hls")
    XCTAssertEqual(probe["streamKind"] as? String, "VOD")
    assertNoFFmpegRequest(server)
  }

  // MARK: manifests and scripts FFmpeg would follow

  func testDASHManifest_isReadByPlayhead_underAnyName_andFFmpegOpensNothing() throws {
    let server = try startServer([:])
    let mpd = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a minimal on-demand presentation -->
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S"
        profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
        <Period><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1000">
          <BaseURL>\(server.url("/dash-media.mp4").absoluteString)</BaseURL>
        </Representation></AdaptationSet></Period>
      </MPD>
      """.utf8)
    server.setFile(mpd, at: "/manifest.mpd")
    server.setFile(mpd, at: "/manifest.mp4")
    for name in ["/manifest.mpd", "/manifest.mp4"] {
      // Playhead's engine reads the MPD and asks for its media through its own stack (the
      // server has none: a 404, exit 3); FFmpeg never opens a URL of its own.
      let result = try CLIRunner.run(["play", "--fast", "--quiet", server.url(name).absoluteString])
      assertStatus(result, 3)
      XCTAssertTrue(result.stderr.contains("404"), result.stderr)
    }
    assertNoFFmpegRequest(server)
  }

  func testRemoteMPDNamingALocalFile_isRefusedBeforeAnyRead() throws {
    let server = try startServer([:])
    let mpd = Data(
      """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S">
        <Period><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1000">
          <BaseURL>file:///etc/passwd</BaseURL>
        </Representation></AdaptationSet></Period>
      </MPD>
      """.utf8)
    server.setFile(mpd, at: "/local.mpd")
    let result = try CLIRunner.run([
      "play", "--fast", "--quiet", server.url("/local.mpd").absoluteString,
    ])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("file"), result.stderr)
    assertNoFFmpegRequest(server)
  }

  func testFFconcatScript_isRefusedWithoutOpeningItsEntries() throws {
    let server = try startServer([:])
    let script = Data(
      """
      ffconcat version 1.0
      file '\(server.url("/sample-h264-aac.mp4").absoluteString)'
      file '\(try Fixtures.url("sample-h264-aac.mp4").path)'
      """.utf8)
    server.setFile(script, at: "/list.mp4")
    let result = try CLIRunner.run([
      "play", "--fast", "--quiet", server.url("/list.mp4").absoluteString,
    ])
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("ffconcat script"), result.stderr)
    XCTAssertEqual(server.requestCount(for: "/sample-h264-aac.mp4"), 0)
    assertNoFFmpegRequest(server)
  }

  func testSegmentThatIsItselfAPlaylist_isRefused_andFFmpegOpensNothing() throws {
    // The HLS-in-.ts trick: the "segment" is an M3U8 that FFmpeg's HLS demuxer would follow.
    let local = try localSegment().absoluteString
    let server = try startServer([
      "/trick/index.m3u8": playlist(["inner.ts"]),
      "/trick/inner.ts": playlist([local, "/hls/144p/segment001.ts"]),
    ])
    let result = try CLIRunner.run([
      "play", "--fast", "--json", "--retries", "0", server.url("/trick/index.m3u8").absoluteString,
    ])
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("HLS playlist"), result.stderr)
    XCTAssertEqual(server.requestCount(for: "/hls/144p/segment001.ts"), 0)
    XCTAssertEqual((try summary(result)["framesDecoded"] as? Int) ?? 0, 0)
    assertNoFFmpegRequest(server)
  }

  func testImageSequencePattern_isRefusedAsUnsupported() throws {
    let directory = try makeTemporaryDirectory()
    let result = try CLIRunner.run([
      "play", "--fast", "--quiet", directory.appendingPathComponent("frame%03d.png").path,
    ])
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("image sequence"), result.stderr)
  }

  // MARK: the other verbs

  func testSnapshotThumbnailsAndDownload_followTheSameRules() throws {
    let local = try localSegment().absoluteString
    let segments = (0..<6).map { String(format: "/hls/144p/segment%03d.ts", $0) }
    let server = try startServer([
      "/leak.mp4": playlist([local]), "/stream.mp4": playlist(segments),
    ])
    let work = try makeTemporaryDirectory()
    let leak = server.url("/leak.mp4").absoluteString
    let stream = server.url("/stream.mp4").absoluteString

    let refusedSnapshot = try CLIRunner.run([
      "snapshot", leak, "--at", "1", "-o", work.appendingPathComponent("a.png").path,
    ])
    XCTAssertNotEqual(refusedSnapshot.status, 0)
    XCTAssertTrue(refusedSnapshot.stderr.contains("'file'"), refusedSnapshot.stderr)
    let snapshot = try CLIRunner.run([
      "snapshot", stream, "--at", "1", "-o", work.appendingPathComponent("b.png").path,
    ])
    assertStatus(snapshot, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("b.png").path))

    let thumbnails = try CLIRunner.run([
      "thumbnails", leak, "--every", "1", "--out", work.appendingPathComponent("thumbs").path,
    ])
    assertStatus(thumbnails, 4)
    XCTAssertTrue(thumbnails.stderr.contains("not from HLS playlists"), thumbnails.stderr)

    let refusedDownload = try CLIRunner.run([
      "download", leak, "--out", work.appendingPathComponent("leak").path,
    ])
    XCTAssertNotEqual(refusedDownload.status, 0)
    XCTAssertTrue(refusedDownload.stderr.contains("'file'"), refusedDownload.stderr)
    let download = try CLIRunner.run([
      "download", stream, "--out", work.appendingPathComponent("stream").path,
    ])
    assertStatus(download, 0)
    server.stop()
    let offline = try CLIRunner.run([
      "play", "--fast", "--json", work.appendingPathComponent("stream").path,
    ])
    assertStatus(offline, 0)
    XCTAssertEqual(try summary(offline)["framesDecoded"] as? Int, 300)
    assertNoFFmpegRequest(server)
  }
}
