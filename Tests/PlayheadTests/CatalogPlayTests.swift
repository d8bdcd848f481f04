import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `playhead play catalog:ACCOUNT/VIDEO_ID`: fetched from a local Playback API and played
/// through the playback controller.
final class CatalogPlayTests: XCTestCase {
  private let account = "777"

  /// A server for the API and the fixture media.
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func serveVideo(_ server: HTTPTestServer, id: String, json: String) {
    server.setFile(Data(json.utf8), at: "/playback/v1/accounts/\(account)/videos/\(id)")
  }

  private func playArguments(_ server: HTTPTestServer, _ id: String, _ rest: [String] = [])
    -> [String]
  {
    [
      "play", "catalog:\(account)/\(id)", "--policy-key", "PK", "--base-url",
      server.url("/playback/v1").absoluteString, "--fast", "--json",
    ] + rest
  }

  func testTheVideoPlaysWithItsSourceChosenByThePolicy() throws {
    let server = try startServer()
    let mp4 = server.url("/alpha-left.mp4").absoluteString
    let hls = server.url("/hls/master.m3u8").absoluteString
    serveVideo(
      server, id: "v1",
      json: """
        {"id": "v1", "name": "Stream", "sources": [
          {"type": "video/mp4", "src": "\(mp4)"},
          {"type": "application/x-mpegURL", "src": "\(hls)"}],
         "cue_points": [{"name": "one", "type": "CODE", "time": 1.0}]}
        """)
    let result = try CLIRunner.run(playArguments(server, "v1"))
    assertStatus(result, 0)
    let objects = result.jsonLines()
    let names = objects.compactMap { $0["event"] as? String }
    let advanced = try XCTUnwrap(objects.first { $0["event"] as? String == "sessionAdvanced" })
    XCTAssertEqual(advanced["video"] as? String, "v1")
    XCTAssertEqual(advanced["source"] as? String, hls, "HLS is chosen over MP4")
    XCTAssertTrue(names.contains("ready"), "\(names)")
    XCTAssertTrue(names.contains("end"), "\(names)")
    XCTAssertTrue(names.contains("cuePoint"), "\(names)")
    let api = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(api.path, "/playback/v1/accounts/777/videos/v1")
    XCTAssertEqual(api.headers["accept"], "application/json;pk=PK")
  }

  func testTheBumperPlaysFirst() throws {
    let server = try startServer()
    let content = server.url("/sample-audio.mp3").absoluteString
    let bumper = server.url("/alpha-left.mp4").absoluteString
    serveVideo(
      server, id: "ref:main",
      json: #"{"id": "v2", "sources": [{"type": "audio/mpeg", "src": "\#(content)"}]}"#)
    serveVideo(
      server, id: "b1",
      json: #"{"id": "b1", "sources": [{"type": "video/mp4", "src": "\#(bumper)"}]}"#)
    let result = try CLIRunner.run(
      playArguments(server, "ref:main", ["--bumper-id", "b1", "--auth-token", "jwt"]))
    assertStatus(result, 0)
    let names = result.jsonLines().compactMap { $0["event"] as? String }
    let order = names.filter { ["bumperEnter", "bumperExit", "end"].contains($0) }
    XCTAssertEqual(order, ["bumperEnter", "bumperExit", "end"], "\(names)")
    let bumperRequest = try XCTUnwrap(
      server.requests.first { $0.path == "/playback/v1/accounts/777/videos/b1" })
    XCTAssertEqual(bumperRequest.headers["authorization"], "Bearer jwt")
  }

  func testAnAPIErrorExits3WithTheErrorCode() throws {
    let server = try startServer()
    server.setFault(
      .respond(
        status: 403,
        body: Data(#"[{"error_code":"ACCESS_DENIED","message":"geo blocked"}]"#.utf8)),
      for: "/playback/v1/accounts/777/videos/v9")
    let result = try CLIRunner.run(playArguments(server, "v9"))
    assertStatus(result, 3)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(
      result.stderr.contains("playhead: ACCESS_DENIED: geo blocked (HTTP 403)"), result.stderr)
  }

  func testCatalogOptionsNeedACatalogInput() throws {
    let mp4 = try Fixtures.url("alpha-left.mp4").path
    for arguments in [
      ["play", mp4, "--policy-key", "k"],
      ["play", "catalog:777", "--policy-key", "k"],
      ["play", "catalog:777/v1"],
      ["play", "catalog:777/v1", "--policy-key", "k", "--account", "777"],
      ["play", "catalog:777/v1", "--policy-key", "k", "--start", "2"],
    ] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.hasPrefix("playhead: "), "\(arguments): \(result.stderr)")
    }
  }
}
