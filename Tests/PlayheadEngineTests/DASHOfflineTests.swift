import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Offline download of DASH sources (L4): the chosen Representations' segments become a
/// local stream that plays with the server stopped.
final class DASHOfflineTests: XCTestCase {
  func testDASHSource_downloadsTheChosenRepresentation_andPlaysWithTheServerStopped() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let info = try manager.prepare(url: server.url("/dash-lang/manifest.mpd"))
    XCTAssertEqual(info.durationSeconds ?? 0, 10, accuracy: 0.05)
    XCTAssertEqual(info.tracks.filter { $0.kind == .video }.map(\.height), [144])
    XCTAssertEqual(info.tracks.filter { $0.kind == .audio }.map(\.language), ["eng", "fra"])
    try manager.select(DownloadSelection(audioLanguage: "fra"), for: info.id)
    try manager.start(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    XCTAssertTrue(
      server.requests.contains { $0.path == "/dash-lang/chunk-stream2-00006.m4s" },
      "the French set's segments were fetched")
    XCTAssertFalse(
      server.requests.contains { $0.path.hasPrefix("/dash-lang/chunk-stream1-") },
      "not the English set's")
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
    XCTAssertGreaterThan(played.audioSamples, 48_000 * 9)
  }

  func testSingleFileRepresentation_isSplitIntoOneFilePerSegment() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(
      manager, server.url("/dash-single/manifest.mpd"),
      selection: DownloadSelection(maxBitrate: 200_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }
}

/// A DASH download protected by Common Encryption keeps its keys (L4): it plays offline
/// with no key given to the player.
final class DASHProtectedOfflineTests: XCTestCase {
  func testCencDownload_keepsItsKeys_andPlaysOfflineWithoutAny() throws {
    let server = try startFixtureServer()
    var configuration = DownloadConfiguration(
      request: RequestConfiguration(timeoutMs: 5_000, retryCount: 0))
    configuration.sampleKeySource = try SampleKeys(hex: EncryptedPlaybackTests.cencKeys)
    let manager = try DownloadManager(
      rootDirectory: try makeOfflineTemporaryDirectory(), configuration: configuration)
    let record = try downloadAndWait(manager, server.url("/dash-cenc/cenc.mpd"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let kept = try String(
      contentsOf: record.folderURL.appendingPathComponent("content-keys.json"), encoding: .utf8)
    XCTAssertTrue(kept.contains("0123456789abcdef0123456789abcdef"), kept)
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 75)
  }

  func testLicenceServerKeys_areKeptWithTheDownload_andARefusalFailsIt() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    // The MPD's Laurl (/dash-cenc/license) first refuses, then answers the JWK set.
    server.setResponder(for: "/dash-cenc/license") { _ in HTTPTestServer.Response(status: 403) }
    let refused = try downloadAndWait(manager, server.url("/dash-cenc/cenc.mpd"))
    XCTAssertEqual(refused.state, .error)
    XCTAssertEqual(refused.failure?.httpStatusCode, 403, "\(String(describing: refused.failure))")
    let jwk =
      #"{"keys":[{"kty":"oct","kid":"ASNFZ4mrze8BI0VniavN7w","k":"ABEiM0RVZneImaq7zN3u_w"}]}"#
    server.setResponder(for: "/dash-cenc/license") { _ in
      HTTPTestServer.Response(body: Data(jwk.utf8))
    }
    let record = try downloadAndWait(manager, server.url("/dash-cenc/cenc.mpd"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 75)
  }
}
