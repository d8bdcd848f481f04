import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play … --cache-dir DIR [--cache-max-mb N]`, run as a subprocess against the
/// local HTTP test server.
final class CacheCommandTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testPlay_twiceWithACacheDirectory_secondRunUsesNoNetworkForCachedBytes() throws {
    let server = try startServer()
    let cache = try makeTemporaryDirectory().appendingPathComponent("cache").path
    let hls = server.url("/hls/master.m3u8").absoluteString
    let mp4 = server.url("/sample-h264-aac.mp4").absoluteString
    for (url, extra) in [(hls, ["--rendition", "1"]), (mp4, [])] {
      assertStatus(
        try CLIRunner.run(["play", url, "--fast", "--quiet", "--cache-dir", cache] + extra),
        0)
    }
    XCTAssertTrue(server.requests.contains { $0.path == "/hls/360p/segment003.ts" })
    XCTAssertTrue(server.requests.contains { $0.path == "/sample-h264-aac.mp4" })

    server.clearRequests()
    for (url, extra) in [(hls, ["--rendition", "1"]), (mp4, [])] {
      assertStatus(
        try CLIRunner.run(["play", url, "--fast", "--quiet", "--cache-dir", cache] + extra),
        0)
    }
    XCTAssertEqual(server.requests.map(\.path), ["/hls/master.m3u8"])
  }

  func testPlay_withASmallCacheMaximum_keepsTheCacheWithinIt() throws {
    let server = try startServer()
    let cache = try makeTemporaryDirectory().appendingPathComponent("cache")
    let result = try CLIRunner.run([
      "play", server.url("/hls/master.m3u8").absoluteString, "--fast", "--quiet",
      "--rendition", "2", "--cache-dir", cache.path, "--cache-max-mb", "1",
    ])
    assertStatus(result, 0)
    var spanBytes = 0
    let walker = FileManager.default.enumerator(atPath: cache.path)
    while let name = walker?.nextObject() as? String {
      guard name.hasSuffix(".span") else { continue }
      let attributes = try FileManager.default.attributesOfItem(
        atPath: cache.appendingPathComponent(name).path)
      spanBytes += (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
    XCTAssertGreaterThan(spanBytes, 0)
    XCTAssertLessThanOrEqual(spanBytes, 1024 * 1024)
  }

  func testCacheOptionMistakes_areUsageErrors() throws {
    let mp4 = try Fixtures.url("sample-h264-aac.mp4").path
    let folder = try makeTemporaryDirectory()
    for arguments in [
      ["play", mp4, "--cache-max-mb", "100"],
      ["play", mp4, "--cache-dir", folder.path, "--cache-max-mb", "0"],
      ["play", mp4, "--cache-dir", folder.path, "--cache-max-mb", "lots"],
      ["play", mp4, "--cache-dir"],
    ] {
      let result = try CLIRunner.run(arguments)
      assertStatus(result, 2)
      XCTAssertEqual(
        result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
    }
    try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    let refused = try CLIRunner.run(["play", mp4, "--fast", "--quiet", "--cache-dir", folder.path])
    assertStatus(refused, 2)
    XCTAssertTrue(refused.stderr.contains("not empty"), refused.stderr)
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.txt").path))
  }
}
