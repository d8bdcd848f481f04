import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Preloads of signed URLs that expired: the task refreshes them through the player's
/// handler (below the cache, as the player does), and a failed refresh fails the task.
final class MediaLoaderSourceRefreshTests: XCTestCase {
  private let signer = CDNTypeASigner(key: "preload-refresh-key")
  private let epoch: Int64 = 1_700_000_000

  /// A fixture server behind a type-A CDN on a wall time the test sets; the CDN signs the
  /// playlists' URIs for 10 s.
  private func startCDN(_ wall: WallTime) throws -> (HTTPTestServer, SignedCDN) {
    let server = try PreloadFixtures.server(self)
    let signer = self.signer
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: { wall.seconds }, signsPlaylists: true, playlistValiditySeconds: 10)
    return (server, cdn)
  }

  /// The player configuration: fast, with `cache`, re-signing expired URLs for 60 s (or
  /// answering `onError` while `asked` says so), expiries read by the signer.
  private func playerConfiguration(cache: MediaCache, wall: WallTime, asked: RefreshLog)
    -> PlayerConfiguration
  {
    let now: @Sendable () -> Int64 = { wall.seconds }
    let resign = SourceRefresh.resigning(with: signer, validitySeconds: 60, wallClockSeconds: now)
    var configuration = PlayerConfiguration.fast()
    configuration.cache = cache
    configuration.hls.startPreference = .bandwidth(600_000)
    configuration.sourceRefresh = SourceRefreshOptions(signer: signer, wallClockSeconds: now)
    configuration.urlSourceExpiredHandler = { expired, callback in
      if asked.record(expired) {
        callback.onError("REFRESH_ERROR: not entitled")
      } else {
        resign(expired, callback)
      }
    }
    return configuration
  }

  private func preload(_ url: URL, loader: MediaLoader, recorder: PreloadRecorder) -> String {
    var config = PreloadConfig(durationMs: 3000)
    config.setDefaultBandwidth(600_000)
    return loader.addTask(PreloadTask(url: url, config: config), listener: recorder)
  }

  func testPreloadOfAnExpiredSignedStream_refreshes_completes_andPlayRefetchesNoneOfIt() throws {
    let wall = WallTime(epoch)
    let (server, cdn) = try startCDN(wall)
    let asked = RefreshLog()
    let player = playerConfiguration(
      cache: try PreloadFixtures.cache(self), wall: wall, asked: asked)
    let loader = MediaLoader(configuration: .init(player: player))
    addTeardownBlock { loader.cancelAll() }
    XCTAssertNotNil(loader.configuration.urlSourceExpiredHandler, "copied from the player")
    XCTAssertNotNil(loader.configuration.sourceRefresh.signer, "copied from the player")
    let expiredURL = try signer.sign(server.url("/hls/master.m3u8"), expiry: epoch - 1)
    let recorder = PreloadRecorder()
    let id = preload(expiredURL, loader: loader, recorder: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertEqual(report.variant?.height, 360)
    XCTAssertEqual(report.cachedDuration, MediaTime(value: 4, timescale: 1))
    XCTAssertEqual(asked.requests.map(\.originalURL), [expiredURL])
    XCTAssertEqual(asked.requests.first?.purpose, .playlist)
    XCTAssertEqual(
      asked.requests.first?.reason, .signatureExpired(expirySeconds: epoch - 1, nowSeconds: epoch))
    XCTAssertTrue(cdn.refusals.isEmpty, "refreshed before it was sent: \(cdn.refusals)")
    XCTAssertEqual(
      server.requests.map(\.path),
      [
        "/hls/master.m3u8", "/hls/360p/index.m3u8", "/hls/360p/segment000.ts",
        "/hls/360p/segment001.ts",
      ])
    let masterKey = try XCTUnwrap(server.requests.first?.queryItems["auth_key"])
    XCTAssertEqual(SignedCDN.expiry(ofAuthKey: masterKey), epoch + 60, "sent re-signed")

    server.clearRequests()
    let player1 = Player(url: expiredURL, configuration: player)
    defer { player1.close() }
    let events = EventRecorder(player1)
    player1.play()
    XCTAssertEqual(
      events.waitForEnd()?.name, "didPlayToEnd", "\(String(describing: events.events.last))")
    XCTAssertEqual(player1.currentItem?.statistics.framesDecoded, 300)
    let played = server.requests.map(\.path)
    XCTAssertEqual(played.first, "/hls/master.m3u8", "the master playlist is never cached")
    for preloaded in report.resources.dropFirst() {
      XCTAssertFalse(played.contains(preloaded.path), "\(preloaded.path) was fetched again")
    }
    XCTAssertTrue(played.contains("/hls/360p/segment002.ts"), "\(played)")
    XCTAssertTrue(cdn.refusals.isEmpty, "\(cdn.refusals)")
  }

  func testPreloadWhoseRefreshFails_endsWithSourceExpired() throws {
    let wall = WallTime(epoch)
    let (server, _) = try startCDN(wall)
    let asked = RefreshLog(failing: true)
    let player = playerConfiguration(
      cache: try PreloadFixtures.cache(self), wall: wall, asked: asked)
    let loader = MediaLoader(configuration: .init(player: player))
    addTeardownBlock { loader.cancelAll() }
    let expiredURL = try signer.sign(server.url("/hls/master.m3u8"), expiry: epoch - 1)
    let recorder = PreloadRecorder()
    let id = preload(expiredURL, loader: loader, recorder: recorder)
    guard case .failed(_, let error)? = recorder.waitFor(id) else {
      return XCTFail("the preload did not fail: \(recorder.events)")
    }
    XCTAssertEqual(error.code, .sourceExpired, "\(error)")
    XCTAssertTrue(error.message.contains("not entitled"), error.message)
    XCTAssertEqual(loader.state(ofTask: id), .failed(error))
    XCTAssertEqual(asked.requests.count, 1)
    XCTAssertTrue(server.requests.isEmpty, "nothing was sent with the expired URL")
  }

  func testAListPlayersLoader_refreshesWithItsPlayersHandler() {
    var configuration = PlayerConfiguration.fast()
    configuration.urlSourceExpiredHandler = { _, callback in callback.onError("unused") }
    configuration.sourceRefresh.maximumAttempts = 7
    let list = ListPlayer(configuration: configuration)
    defer { list.close() }
    XCTAssertNotNil(list.loader.configuration.urlSourceExpiredHandler)
    XCTAssertEqual(list.loader.configuration.sourceRefresh.maximumAttempts, 7)
  }
}
