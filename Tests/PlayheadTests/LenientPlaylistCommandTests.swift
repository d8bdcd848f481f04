import Foundation
import PlayheadTestSupport
import XCTest

/// Real-world playlist forms accepted with a warning: the warnings show in `playlist`'s
/// summary and JSON and in `probe`'s output, and the stream still plays.
final class LenientPlaylistCommandTests: XCTestCase {
  static let master = """
    #EXTM3U
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",LANGUAGE="en",INSTREAM-ID="CC1"
    #EXT-X-STREAM-INF:BANDWIDTH=300000.4,RESOLUTION=256x144,CLOSED-CAPTIONS="cc"
    144p/index.m3u8

    """

  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), files: ["/hls/lenient.m3u8": Data(Self.master.utf8)])
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testPlaylistSummaryAndJSON_showTheWarnings() throws {
    let server = try startServer()
    let url = server.url("/hls/lenient.m3u8").absoluteString
    let summary = try CLIRunner.run(["playlist", url])
    XCTAssertEqual(summary.status, 0, summary.stderr)
    XCTAssertTrue(summary.stdout.contains("warnings         2"), summary.stdout)
    XCTAssertTrue(
      summary.stdout.contains(
        "line 2: EXT-X-MEDIA has no NAME; 'en' (its LANGUAGE or GROUP-ID) is used"),
      summary.stdout)
    XCTAssertTrue(
      summary.stdout.contains(
        "line 3: EXT-X-STREAM-INF BANDWIDTH '300000.4' is not an integer; 300000 is used"),
      summary.stdout)
    let json = try CLIRunner.run(["playlist", "--json", url])
    XCTAssertEqual(json.status, 0, json.stderr)
    let object = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual((object["warnings"] as? [String])?.count, 2)
    let variants = try XCTUnwrap(object["variants"] as? [[String: Any]])
    XCTAssertEqual(variants.first?["bandwidth"] as? Int, 300_000)
  }

  func testProbe_listsThePlaylistWarnings_andTheStreamPlays() throws {
    let server = try startServer()
    let url = server.url("/hls/lenient.m3u8").absoluteString
    let probe = try CLIRunner.run(["probe", url])
    XCTAssertEqual(probe.status, 0, probe.stderr)
    XCTAssertTrue(
      probe.stdout.contains("warning    \(url) line 2: EXT-X-MEDIA has no NAME"), probe.stdout)
    let json = try CLIRunner.run(["probe", "--json", url])
    let object = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual((object["warnings"] as? [String])?.count, 2, json.stdout)
    let play = try CLIRunner.run(["play", "--fast", url])
    XCTAssertEqual(play.status, 0, play.stderr)
  }
}
