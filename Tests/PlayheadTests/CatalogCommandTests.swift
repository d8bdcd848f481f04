import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `playhead catalog video|playlist` against a local Playback API.
final class CatalogCommandTests: XCTestCase {
  private let account = "5550001"

  /// A video response with an HLS and an MP4 source, text track, cue point, custom fields
  /// and an RTMP rendition the SDK leaves out.
  private let videoJSON = """
    {"id": "v1", "account_id": "5550001", "name": "Heron", "reference_id": "bird-heron",
     "description": "A grey heron", "duration": 12500, "economics": "AD_SUPPORTED",
     "tags": ["bird", "water"], "created_at": "2020-01-02T03:04:05.006Z",
     "poster": "https://img.example.com/heron.jpg", "custom_fields": {"genre": "nature"},
     "text_tracks": [{"src": "https://cdn.example.com/heron-en.vtt", "srclang": "en",
       "label": "English", "kind": "captions", "mime_type": "text/vtt", "default": true}],
     "cue_points": [{"name": "mid", "type": "AD", "time": 6.25, "force_stop": false}],
     "sources": [
       {"type": "application/x-mpegURL", "src": "https://cdn.example.com/heron.m3u8"},
       {"type": "video/mp4", "src": "https://cdn.example.com/heron.mp4", "width": 1280,
        "height": 720, "avg_bitrate": 2400000, "codec": "H264", "container": "MP4"},
       {"app_name": "rtmp://rtmp.example.com/vod", "stream_name": "mp4:heron.mp4"}
     ]}
    """

  private func startAPI() throws -> HTTPTestServer {
    let server = HTTPTestServer()
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func path(_ collection: String, _ id: String) -> String {
    "/playback/v1/accounts/\(account)/\(collection)/\(id)"
  }

  private func arguments(_ server: HTTPTestServer, _ rest: [String]) -> [String] {
    ["catalog"] + rest + [
      "--account", account, "--policy-key", "PK1", "--base-url",
      server.url("/playback/v1").absoluteString,
    ]
  }

  func testVideoSummary() throws {
    let server = try startAPI()
    server.setFile(Data(videoJSON.utf8), at: path("videos", "v1"))
    let result = try CLIRunner.run(arguments(server, ["video", "v1"]))
    assertStatus(result, 0)
    let out = result.stdout
    for expected in [
      "video          v1  \"Heron\"", "reference ID   bird-heron", "duration       12.500s",
      "economics      AD_SUPPORTED", "tags           bird, water", "sources (2)",
      "0  HLS  https://cdn.example.com/heron.m3u8  application/x-mpegURL",
      "1  MP4  https://cdn.example.com/heron.mp4  video/mp4  1280x720  2400 kb/s  H264/MP4",
      "captions  en  \"English\"  default  https://cdn.example.com/heron-en.vtt",
      "6.250s  AD  mid", "custom fields  genre=nature",
    ] {
      XCTAssertTrue(out.contains(expected), "missing '\(expected)' in:\n\(out)")
    }
    XCTAssertTrue(
      result.stderr.contains("warning: source video.sources[2] left out"), result.stderr)
    let logged = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(logged.path, path("videos", "v1"))
    XCTAssertEqual(logged.headers["accept"], "application/json;pk=PK1")
  }

  func testVideoJSONIsTheAPIShapeWrittenBackThroughTheSDK() throws {
    let server = try startAPI()
    server.setFile(Data(videoJSON.utf8), at: path("videos", "ref:bird heron"))
    let result = try CLIRunner.run(
      arguments(server, ["video", "ref:bird heron", "--json", "--auth-token", "tok"]))
    assertStatus(result, 0)
    XCTAssertEqual(result.stdoutLines.count, 1, "one JSON document")
    XCTAssertTrue(result.stdout.contains("\"poster\":\"https://img.example.com/heron.jpg\""))
    let printed = try PlayheadSDK.Video(jsonData: Data(result.stdout.utf8))
    var expected = try XCTUnwrap(PlayheadSDK.JSONValue(data: Data(videoJSON.utf8)).objectValue)
    expected["sources"] = .array(
      Array(try XCTUnwrap(expected["sources"]?.arrayValue).prefix(2)))
    XCTAssertEqual(printed.json, .object(expected), "the response less the RTMP rendition")
    let logged = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(logged.path, path("videos", "ref:bird heron"))
    XCTAssertEqual(logged.headers["authorization"], "Bearer tok")
  }

  func testPlaylistPagingSummaryAndJSON() throws {
    let server = try startAPI()
    let playlist = """
      {"id": "p1", "name": "Birds", "type": "EXPLICIT", "account_id": "5550001",
       "video_ids": ["a", "b", "c", "d"],
       "videos": [
         {"id": "b", "name": "Bee-eater", "duration": 1000, "custom_fields": {"bumper_id": "x"},
          "sources": [{"src": "https://cdn.example.com/b.mp4"}]},
         {"id": "c", "name": "Crane", "duration": 2000, "sources": []}
       ]}
      """
    server.setFile(Data(playlist.utf8), at: path("playlists", "p1"))
    server.setFault(
      .respond(status: 404, body: Data(#"[{"error_code":"VIDEO_NOT_FOUND"}]"#.utf8)),
      for: path("videos", "x"))
    let result = try CLIRunner.run(
      arguments(server, ["playlist", "p1", "--limit", "2", "--offset", "1", "--param", "q=z"]))
    assertStatus(result, 0)
    XCTAssertTrue(result.stdout.contains("playlist       p1  \"Birds\""), result.stdout)
    XCTAssertTrue(result.stdout.contains("video IDs      4 in all"), result.stdout)
    XCTAssertTrue(result.stdout.contains("videos (2)"), result.stdout)
    XCTAssertTrue(
      result.stdout.contains("0  b  \"Bee-eater\"  1.000s  1 sources  bumper x"), result.stdout)
    XCTAssertTrue(result.stdout.contains("1  c  \"Crane\"  2.000s  0 sources"), result.stdout)
    XCTAssertTrue(
      result.stderr.contains("warning: bumper x not fetched: Playback API error: HTTP 404"),
      result.stderr)
    let logged = try XCTUnwrap(server.requests.first { $0.path == path("playlists", "p1") })
    XCTAssertEqual(logged.queryItems, ["limit": "2", "offset": "1", "q": "z"])

    let json = try CLIRunner.run(arguments(server, ["playlist", "p1", "--json"]))
    assertStatus(json, 0)
    let printed = try PlayheadSDK.Playlist(jsonData: Data(json.stdout.utf8))
    XCTAssertEqual(printed.videos.compactMap(\.id), ["b", "c"])
    XCTAssertEqual(printed.videoIDs, ["a", "b", "c", "d"])
  }

  func testAnAPIErrorPrintsItsCodeAndMessageAndExits3() throws {
    let server = try startAPI()
    let body =
      #"[{"error_code": "VIDEO_NOT_FOUND", "message": "The designated resource was not found."}]"#
    server.setFault(.respond(status: 404, body: Data(body.utf8)), for: path("videos", "gone"))
    let result = try CLIRunner.run(arguments(server, ["video", "gone"]))
    assertStatus(result, 3)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(
      result.stderr,
      "playhead: VIDEO_NOT_FOUND: The designated resource was not found. (HTTP 404)\n")
  }

  func testABodyThatIsNotAVideoExits3() throws {
    let server = try startAPI()
    server.setFile(Data("<html>maintenance</html>".utf8), at: path("videos", "v"))
    let result = try CLIRunner.run(arguments(server, ["video", "v"]))
    assertStatus(result, 3)
    XCTAssertTrue(
      result.stderr.contains("cannot read the Playback API response (24 bytes)"), result.stderr)
  }

  func testCommandLineMistakesExit2() throws {
    let cases: [[String]] = [
      ["catalog"],
      ["catalog", "song", "1", "--account", "a", "--policy-key", "k"],
      ["catalog", "video", "--account", "a", "--policy-key", "k"],
      ["catalog", "video", "1", "--policy-key", "k"],
      ["catalog", "video", "1", "--account", "a"],
      ["catalog", "video", "1", "--account", "a", "--policy-key", "k", "--limit", "2"],
      ["catalog", "playlist", "1", "--account", "a", "--policy-key", "k", "--limit", "0"],
      ["catalog", "video", "1", "--account", "a", "--policy-key", "k", "--base-url", "ftp://x"],
      ["catalog", "video", "1", "--account", "a", "--policy-key", "k", "--param", "novalue"],
      ["catalog", "video", "1", "2", "--account", "a", "--policy-key", "k"],
      ["catalog", "video", "1", "--account", "a", "--policy-key", "k", "--rate", "2"],
    ]
    for arguments in cases {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertEqual(
        result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.hasPrefix("playhead: "), "\(arguments)")
    }
    let help = try CLIRunner.run(["catalog", "--help"])
    assertStatus(help, 0)
    XCTAssertTrue(help.stdout.contains("Usage: playhead catalog video"), help.stdout)
    let tool = try CLIRunner.run(["--help"])
    XCTAssertTrue(tool.stdout.contains("catalog    Fetch a video or playlist"), tool.stdout)
  }
}
