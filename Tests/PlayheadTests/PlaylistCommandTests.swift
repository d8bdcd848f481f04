import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead playlist` run as a subprocess on playlists written to a temporary folder or
/// served by the local test server.
final class PlaylistCommandTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-playlist-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func write(_ text: String, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  static let media = """
    #EXTM3U
    #EXT-X-VERSION:7
    #EXT-X-TARGETDURATION:10
    #EXT-X-MEDIA-SEQUENCE:5
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
    #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0X00000000000000000000000000ABCDEF
    #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00Z
    #EXTINF:9.009,First
    #EXT-X-BYTERANGE:5000
    main.mp4
    #EXT-X-KEY:METHOD=NONE
    #EXT-X-DISCONTINUITY
    #EXTINF:4.5,
    #EXT-X-BYTERANGE:3000@5720
    main.mp4
    #EXT-X-GAP
    #EXTINF:4,
    gap.mp4
    #EXT-X-ENDLIST

    """

  static let master = """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,AUDIO="aac"
    360p/index.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="360p/iframes.m3u8"
    #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title"

    """

  func testSummary_onMediaPlaylist_listsFactsAndSegments() throws {
    let result = try CLIRunner.run(["playlist", try write(Self.media, "media.m3u8")])
    assertStatus(result, 0)
    XCTAssertTrue(result.stdout.contains("media playlist"), result.stdout)
    XCTAssertTrue(result.stdout.contains("segments         3, media sequence 5-7"), result.stdout)
    XCTAssertTrue(result.stdout.contains("type             VOD"), result.stdout)
    XCTAssertTrue(result.stdout.contains("encryption       AES-128"), result.stdout)
    XCTAssertTrue(result.stdout.contains("#5  9.009s  main.mp4  bytes 5000@720"), result.stdout)
    XCTAssertTrue(result.stdout.contains("warnings         0"), result.stdout)
  }

  func testJSON_onMediaPlaylist_followsTheSchema() throws {
    let result = try CLIRunner.run(["playlist", "--json", try write(Self.media, "media.m3u8")])
    assertStatus(result, 0)
    let objects = result.jsonLines()
    XCTAssertEqual(objects.count, 1)
    let playlist = try XCTUnwrap(objects.first)
    XCTAssertEqual(playlist["kind"] as? String, "media")
    XCTAssertEqual(playlist["version"] as? Int, 7)
    XCTAssertEqual(playlist["independentSegments"] as? Bool, false)
    XCTAssertEqual((playlist["warnings"] as? [String])?.count, 0)
    XCTAssertEqual(playlist["targetDuration"] as? Int, 10)
    XCTAssertEqual(playlist["mediaSequence"] as? Int, 5)
    XCTAssertEqual(playlist["discontinuitySequence"] as? Int, 0)
    XCTAssertEqual(playlist["playlistType"] as? String, "VOD")
    XCTAssertEqual(playlist["endList"] as? Bool, true)
    XCTAssertEqual(playlist["iFramesOnly"] as? Bool, false)
    XCTAssertNotNil(playlist["parts"] as? [Any])
    let segments = try XCTUnwrap(playlist["segments"] as? [[String: Any]])
    XCTAssertEqual(segments.count, 3)

    let first = segments[0]
    XCTAssertEqual(first["uri"] as? String, "main.mp4")
    XCTAssertEqual(try XCTUnwrap(first["duration"] as? Double), 9.009, accuracy: 1e-9)
    XCTAssertEqual(first["title"] as? String, "First")
    let range = try XCTUnwrap(first["byteRange"] as? [String: Any])
    XCTAssertEqual(range["length"] as? Int, 5000)
    XCTAssertEqual(range["offset"] as? Int, 720, "the inherited offset is filled in")
    let key = try XCTUnwrap(first["key"] as? [String: Any])
    XCTAssertEqual(key["method"] as? String, "AES-128")
    XCTAssertEqual(key["uri"] as? String, "k.bin")
    XCTAssertEqual(key["iv"] as? String, "0x00000000000000000000000000abcdef")
    let map = try XCTUnwrap(first["map"] as? [String: Any])
    XCTAssertEqual(map["uri"] as? String, "main.mp4")
    XCTAssertEqual((map["byteRange"] as? [String: Any])?["offset"] as? Int, 0)
    XCTAssertEqual(first["programDateTime"] as? String, "2024-03-01T10:00:00.000Z")
    XCTAssertEqual(first["discontinuity"] as? Bool, false)
    XCTAssertEqual(first["gap"] as? Bool, false)

    XCTAssertEqual(segments[1]["discontinuity"] as? Bool, true)
    XCTAssertTrue(segments[1]["key"] is NSNull, "METHOD=NONE leaves the segment clear")
    XCTAssertTrue(segments[1]["programDateTime"] is NSNull, "not carried across a discontinuity")
    XCTAssertTrue(segments[1]["title"] is NSNull)
    XCTAssertEqual(segments[2]["gap"] as? Bool, true)
    XCTAssertTrue(segments[2]["byteRange"] is NSNull)
    for segment in segments {
      for field in [
        "uri", "duration", "title", "byteRange", "discontinuity", "gap", "key", "map",
        "programDateTime",
      ] {
        XCTAssertNotNil(segment[field], "every segment has '\(field)'")
      }
    }
  }

  func testJSON_onMasterPlaylist_followsTheSchema() throws {
    let result = try CLIRunner.run(["playlist", try write(Self.master, "master.m3u8"), "--json"])
    assertStatus(result, 0)
    let playlist = try XCTUnwrap(result.jsonLines().first)
    XCTAssertEqual(playlist["kind"] as? String, "master")
    XCTAssertTrue(playlist["version"] is NSNull)
    let variant = try XCTUnwrap((playlist["variants"] as? [[String: Any]])?.first)
    XCTAssertEqual(variant["uri"] as? String, "360p/index.m3u8")
    XCTAssertEqual(variant["bandwidth"] as? Int, 1_280_000)
    XCTAssertEqual(variant["averageBandwidth"] as? Int, 1_000_000)
    XCTAssertEqual(variant["resolution"] as? String, "640x360")
    XCTAssertEqual(variant["codecs"] as? String, "avc1.4d401f,mp4a.40.2")
    XCTAssertEqual(try XCTUnwrap(variant["frameRate"] as? Double), 29.97, accuracy: 1e-9)
    XCTAssertEqual(variant["audio"] as? String, "aac")
    XCTAssertTrue(variant["video"] is NSNull)
    XCTAssertTrue(variant["subtitles"] is NSNull)
    XCTAssertTrue(variant["closedCaptions"] is NSNull)
    let rendition = try XCTUnwrap((playlist["renditions"] as? [[String: Any]])?.first)
    XCTAssertEqual(rendition["type"] as? String, "AUDIO")
    XCTAssertEqual(rendition["groupId"] as? String, "aac")
    XCTAssertEqual(rendition["name"] as? String, "English")
    XCTAssertEqual(rendition["language"] as? String, "en")
    XCTAssertEqual(rendition["default"] as? Bool, true)
    XCTAssertEqual(rendition["autoselect"] as? Bool, true)
    XCTAssertEqual(rendition["forced"] as? Bool, false)
    XCTAssertEqual(rendition["uri"] as? String, "audio/en.m3u8")
    XCTAssertEqual(
      (playlist["iFrameVariants"] as? [[String: Any]])?.first?["bandwidth"] as? Int, 86_000)
    XCTAssertEqual(
      (playlist["sessionData"] as? [[String: Any]])?.first?["value"] as? String, "Title")
    XCTAssertEqual((playlist["sessionKeys"] as? [Any])?.count, 0)
  }

  func testWrite_printsAPlaylistThatParsesToTheSameJSON() throws {
    let path = try write(Self.media, "media.m3u8")
    let written = try CLIRunner.run(["playlist", "--write", path])
    assertStatus(written, 0)
    XCTAssertTrue(written.stdout.hasPrefix("#EXTM3U\n"), written.stdout)
    XCTAssertTrue(written.stdout.contains("#EXT-X-BYTERANGE:5000@720\n"), "offsets are explicit")
    let again = try write(written.stdout, "media.m3u8")
    let first = try CLIRunner.run(["playlist", "--json", path])
    let original = try CLIRunner.run(["playlist", "--json", try write(Self.media, "original.m3u8")])
    let reparsed = try CLIRunner.run(["playlist", "--json", again])
    assertStatus(reparsed, 0)
    XCTAssertEqual(first.stdout, reparsed.stdout)
    XCTAssertEqual(
      original.stdout.replacingOccurrences(of: "original.m3u8", with: "media.m3u8"), reparsed.stdout
    )
  }

  func testParseError_printsTheLineAndExitsWith1() throws {
    let path = try write("#EXTM3U\n#EXT-X-TARGETDURATION:10\nsegment.ts\n", "bad.m3u8")
    let result = try CLIRunner.run(["playlist", path])
    assertStatus(result, 1)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(
      result.stderr.contains("line 3: segment URI 'segment.ts' has no EXTINF before it"),
      result.stderr)
  }

  func testNotAPlaylist_exitsWith1() throws {
    let result = try CLIRunner.run(["playlist", "--json", try write("hello\n", "text.m3u8")])
    assertStatus(result, 1)
    XCTAssertTrue(result.stderr.contains("line 1: the first line is not #EXTM3U"), result.stderr)
  }

  func testMissingFile_exitsWith3() throws {
    let result = try CLIRunner.run(["playlist", folder.appendingPathComponent("none.m3u8").path])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("none.m3u8"), result.stderr)
  }

  func testHTTP_resolvesAgainstTheURL_appliesTheOriginRule_and404Exits3() throws {
    let server = HTTPTestServer(files: [
      "/live/index.m3u8": Data(Self.master.utf8),
      "/live/evil.m3u8": Data(
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nfile:///etc/passwd\n".utf8),
    ])
    try server.start()
    defer { server.stop() }
    let good = try CLIRunner.run(["playlist", server.url("/live/index.m3u8").absoluteString])
    assertStatus(good, 0)
    XCTAssertTrue(
      good.stdout.contains("master playlist  \(server.url("/live/index.m3u8").absoluteString)"))
    XCTAssertTrue(good.stdout.contains("360p/index.m3u8"))

    let evil = try CLIRunner.run(["playlist", server.url("/live/evil.m3u8").absoluteString])
    assertStatus(evil, 1)
    XCTAssertTrue(
      evil.stderr.contains("line 4: segment URI 'file:///etc/passwd' uses scheme 'file'"),
      evil.stderr)

    let missing = try CLIRunner.run(["playlist", server.url("/live/none.m3u8").absoluteString])
    assertStatus(missing, 3)
  }

  func testUsage() throws {
    let help = try CLIRunner.run(["playlist", "--help"])
    assertStatus(help, 0)
    XCTAssertTrue(help.stdout.contains("Usage: playhead playlist <path-or-url> [--json | --write]"))
    let tool = try CLIRunner.run(["--help"])
    XCTAssertTrue(tool.stdout.contains("playlist   Parse an HLS playlist"), tool.stdout)
    let both = try CLIRunner.run(["playlist", "a.m3u8", "--json", "--write"])
    assertStatus(both, 2)
    XCTAssertTrue(both.stderr.contains("cannot be combined"), both.stderr)
    assertStatus(try CLIRunner.run(["playlist", "a.m3u8", "--frames"]), 2)
    assertStatus(try CLIRunner.run(["playlist"]), 2)
    assertStatus(try CLIRunner.run(["playlist", "a.m3u8", "b.m3u8"]), 2)
  }
}
