import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `playhead download URL --out DIR --sign-key KEY`, run as a subprocess against a local
/// server that refuses (403) every request without a valid, unexpired type-A signature.
final class DownloadSignCommandTests: XCTestCase {
  private let key = "cli-download-signing-key"

  func testDownload_withSignKey_reSignsEveryRefusedURL_completes_andARerunFindsItComplete()
    throws
  {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let signer = CDNTypeASigner(key: key)
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: SourceRefreshOptions.systemWallClock)
    let out = try makeTemporaryDirectory().appendingPathComponent("signed")
    let master = server.url("/hls/master.m3u8").absoluteString
    let arguments = [
      "download", master, "--out", out.path, "--rendition", "0", "--retries", "0", "--json",
      "--sign-key", key,
    ]
    let result = try CLIRunner.run(arguments)
    assertStatus(result, 0)
    let completed = result.jsonLines().first { $0["event"] as? String == "completed" }
    XCTAssertEqual(completed?["alreadyComplete"] as? Bool, false, result.stdout)

    // The playlists name their files relatively, so every media playlist and segment
    // arrives unsigned: each is refused once and fetched again re-signed.
    let segments = (0..<6).map { "/hls/144p/segment00\($0).ts" }
    XCTAssertTrue(cdn.refusals.allSatisfy { $0.query == nil }, "\(cdn.refusals)")
    for path in segments + ["/hls/144p/index.m3u8"] {
      XCTAssertTrue(cdn.refusals.contains { $0.path == path }, "\(path) was refused unsigned")
    }
    let first = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(first.path, "/hls/master.m3u8")
    XCTAssertNotNil(first.queryItems["auth_key"], "the URL was signed")
    for request in server.requests where request.query != nil {
      let url = try XCTUnwrap(
        URL(string: "\(request.path)?\(request.query ?? "")", relativeTo: server.baseURL))
      XCTAssertTrue(signer.verifies(url.absoluteURL), request.path)
    }
    for (index, path) in segments.enumerated() {
      let local = out.appendingPathComponent("video/seg0000\(index).ts")
      XCTAssertEqual(
        SHA256.hex(try SHA256.digest(ofFileAt: local)),
        SHA256.hex(try SHA256.digest(ofFileAt: try Fixtures.url(String(path.dropFirst())))),
        path)
    }

    // A second run signs the URL anew (another validity, so another signature): the same
    // resource, already complete.
    let requestsBefore = server.requests.count
    let rerun = try CLIRunner.run(
      Array(arguments.dropLast(2)) + ["--sign-key", key, "--sign-validity-seconds", "600"])
    assertStatus(rerun, 0)
    let again = rerun.jsonLines().first { $0["event"] as? String == "completed" }
    XCTAssertEqual(again?["alreadyComplete"] as? Bool, true, rerun.stdout + rerun.stderr)
    XCTAssertEqual(server.requests.count, requestsBefore)

    server.stop()
    let played = try CLIRunner.run(["play", out.path, "--fast", "--json"])
    assertStatus(played, 0)
    let summary = played.jsonLines().first { $0["event"] as? String == "summary" }
    XCTAssertEqual(summary?["framesDecoded"] as? Int, 300)
  }

  func testDownload_signOptionMistakes_areUsageErrors() throws {
    let result = try CLIRunner.run([
      "download", "http://127.0.0.1:1/a.m3u8", "--out", "/tmp/unused-signed",
      "--sign-validity-seconds", "60",
    ])
    assertStatus(result, 2)
    XCTAssertTrue(result.stderr.contains("--sign-key"), result.stderr)
  }
}
