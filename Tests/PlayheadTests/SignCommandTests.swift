import Foundation
import Playhead
import PlayheadTestSupport
import XCTest

/// `playhead play URL --sign-key KEY [--sign-validity-seconds N]`, run as a subprocess
/// against a local server that refuses (403) every request without a valid, unexpired
/// type-A signature for the key.
final class SignCommandTests: XCTestCase {
  private let key = "cli-signing-key"

  private func startSigningServer() throws -> (HTTPTestServer, SignedCDN) {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let signer = CDNTypeASigner(key: key)
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: SourceRefreshOptions.systemWallClock)
    return (server, cdn)
  }

  func testPlay_withSignKey_signsTheURL_andReSignsEveryURLTheServerRefuses() throws {
    let (server, cdn) = try startSigningServer()
    let url = server.url("/hls/master.m3u8").absoluteString
    let result = try CLIRunner.run([
      "play", url, "--fast", "--json", "--rendition", "1", "--sign-key", key,
      "--sign-validity-seconds", "600",
    ])
    assertStatus(result, 0)
    let lines = result.jsonLines()
    XCTAssertEqual(lines.last?["outcome"] as? String, "ended")
    let refreshed = lines.filter { $0["event"] as? String == "sourceRefreshed" }
    // The playlist and segment URIs are relative, so they arrive unsigned: each is refused
    // once and re-signed.
    XCTAssertGreaterThanOrEqual(refreshed.count, 7, "\(refreshed)")
    XCTAssertTrue(refreshed.contains { $0["purpose"] as? String == "segment" })
    XCTAssertTrue(refreshed.contains { $0["purpose"] as? String == "playlist" })

    let signer = CDNTypeASigner(key: key)
    let master = try XCTUnwrap(server.requests.first)
    XCTAssertEqual(master.path, "/hls/master.m3u8")
    let masterKey = try XCTUnwrap(master.queryItems["auth_key"], "the URL was signed")
    let expiry = try XCTUnwrap(SignedCDN.expiry(ofAuthKey: masterKey))
    let now = SourceRefreshOptions.systemWallClock()
    XCTAssertTrue((now + 500...now + 600).contains(expiry), "valid for 600 s: \(expiry - now)")
    XCTAssertTrue(cdn.refusals.allSatisfy { $0.query == nil }, "only unsigned URLs are refused")
    for request in server.requests where request.query != nil {
      let url = try XCTUnwrap(
        URL(string: "\(request.path)?\(request.query!)", relativeTo: server.baseURL))
      XCTAssertTrue(signer.verifies(url.absoluteURL), "\(request.path)")
    }
    XCTAssertTrue(
      server.requests.contains { $0.path == "/hls/360p/segment005.ts" && $0.query != nil })
  }

  func testPlay_withoutSignKey_isRefused() throws {
    let (server, _) = try startSigningServer()
    let result = try CLIRunner.run([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--fast", "--quiet",
    ])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("403"), result.stderr)
  }

  func testPlay_withAWrongKey_failsWithSourceExpired() throws {
    let (server, _) = try startSigningServer()
    let result = try CLIRunner.run([
      "play", server.url("/sample-h264-aac.mp4").absoluteString, "--fast", "--json",
      "--sign-key", "not-the-key",
    ])
    assertStatus(result, 3)
    let failed = result.jsonLines().first { $0["event"] as? String == "failed" }
    XCTAssertEqual(failed?["errorCode"] as? String, "sourceExpired", "\(result.stdout)")
  }

  func testSignOptionMistakes_areUsageErrors() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    for arguments in [
      ["play", mp4, "--sign-validity-seconds", "60"],
      ["play", mp4, "--sign-key", "k", "--sign-validity-seconds", "0"],
      ["play", mp4, "--sign-key", "k", "--sign-validity-seconds", "soon"],
      ["play", mp4, "--sign-key", ""],
      ["play", mp4, "--sign-key"],
    ] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertEqual(
        result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
    }
  }
}
