import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Downloads whose signed URLs expire while they run: every file goes through the refresh
/// handler, a failed refresh leaves a resumable `.error`, and the plan keeps the original
/// URLs.
///
/// The wall time the CDN, the handler and the expiry checks share moves with the server's
/// request log: it is `epoch + 4 s` for each distinct media file requested so far, so the
/// playlists (signed by the CDN for 10 s) are valid for the first two segments and expired
/// for every later one, whatever the machine's speed.
final class OfflineSourceRefreshTests: XCTestCase {
  private let signer = CDNTypeASigner(key: "offline-refresh-key")
  private let epoch: Int64 = 1_700_000_000
  private let segments = (0..<6).map { "/hls/144p/segment00\($0).ts" }

  /// A fixture server behind a type-A CDN whose wall time follows its request log.
  private func startCDN() throws -> (HTTPTestServer, SignedCDN, @Sendable () -> Int64) {
    let server = try startFixtureServer()
    let epoch = self.epoch
    let wall: @Sendable () -> Int64 = { [weak server] in
      let files = Set((server?.requests ?? []).map(\.path).filter { !$0.hasSuffix(".m3u8") })
      return epoch + 4 * Int64(files.count)
    }
    let signer = self.signer
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: wall, signsPlaylists: true, playlistValiditySeconds: 10)
    return (server, cdn, wall)
  }

  /// A manager whose handler re-signs for 5 s (or answers `onError` while `asked` says
  /// so), recording what it was asked. With `usesSigner`, expired signatures are refreshed
  /// before they are sent; without, only when the CDN refuses them.
  private func makeManager(
    root: URL, wall: @escaping @Sendable () -> Int64, asked: RefreshLog, usesSigner: Bool
  ) throws -> DownloadManager {
    let resign = SourceRefresh.resigning(with: signer, validitySeconds: 5, wallClockSeconds: wall)
    var configuration = DownloadConfiguration(
      request: RequestConfiguration(timeoutMs: 5_000, retryCount: 0, retryBaseDelayMs: 10))
    configuration.sourceRefresh = SourceRefreshOptions(
      signer: usesSigner ? signer : nil, wallClockSeconds: wall)
    configuration.urlSourceExpiredHandler = { expired, callback in
      if asked.record(expired) {
        callback.onError("REFRESH_ERROR: the entitlement server is down")
      } else {
        resign(expired, callback)
      }
    }
    return try DownloadManager(rootDirectory: root, configuration: configuration)
  }

  /// The master URL as the application gets it: signed, valid for 10 s.
  private func signedMaster(_ server: HTTPTestServer) throws -> URL {
    try signer.sign(server.url("/hls/master.m3u8"), expiry: epoch + 10)
  }

  func testSignaturesExpiringMidway_areRefreshed_andTheDownloadIsByteIdentical_andPlaysOffline()
    throws
  {
    let (server, cdn, wall) = try startCDN()
    let asked = RefreshLog()
    let manager = try makeManager(
      root: try makeOfflineTemporaryDirectory(), wall: wall, asked: asked, usesSigner: false)
    let master = try signedMaster(server)
    let record = try downloadAndWait(
      manager, master, selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")

    // Segments 2…5 were requested after the playlists' signatures expired: each was
    // refused once with the playlist's URL and fetched again with a new auth_key.
    let refusedPaths = cdn.refusals.map(\.path)
    XCTAssertEqual(refusedPaths, Array(segments[2...]), "\(cdn.refusals)")
    XCTAssertEqual(asked.requests.map(\.originalURL.path), Array(segments[2...]))
    XCTAssertTrue(asked.requests.allSatisfy { $0.purpose == .segment }, "\(asked.requests)")
    XCTAssertTrue(asked.requests.allSatisfy { $0.reason == .httpStatus(403) })
    for refusal in cdn.refusals {
      let refusedKey = try XCTUnwrap(authKey(refusal.query))
      let later = server.requests.filter { $0.path == refusal.path }
      XCTAssertEqual(later.count, 2, "\(refusal.path): refused once, then fetched")
      let freshKey = try XCTUnwrap(later.last?.queryItems["auth_key"])
      XCTAssertNotEqual(freshKey, refusedKey, "\(refusal.path) fetched with a new auth_key")
      XCTAssertEqual(
        SignedCDN.expiry(ofAuthKey: freshKey), refusal.nowSeconds + 5, "re-signed for 5 s")
    }
    for path in segments[..<2] {
      XCTAssertEqual(server.requestCount(for: path), 1, "\(path) was valid and fetched once")
    }
    // The manifest names the source as the application gave it.
    let asset = try manager.offlineAsset(for: record.id)
    XCTAssertEqual(asset.manifest.sourceURL, master.absoluteString)
    server.stop()
    try assertSegmentsMatch(
      folder: record.folderURL, localFolder: "video", fixturePlaylist: "hls/144p/index.m3u8",
      ext: "ts")
    XCTAssertNoThrow(try asset.verify())
    XCTAssertEqual(playOffline(record.folderURL).framesDecoded, 300)
  }

  func testAFailedRefresh_leavesAResumableError_andAResumeWithAWorkingHandlerCompletes() throws {
    let (server, cdn, wall) = try startCDN()
    let asked = RefreshLog(failing: true)
    let root = try makeOfflineTemporaryDirectory()
    let manager = try makeManager(root: root, wall: wall, asked: asked, usesSigner: true)
    let master = try signedMaster(server)
    let failed = try downloadAndWait(manager, master, selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(failed.state, .error)
    XCTAssertEqual(failed.failure?.code, .sourceExpired, "\(String(describing: failed.failure))")
    XCTAssertTrue(
      failed.failure?.message.contains("the entitlement server is down") ?? false,
      "\(String(describing: failed.failure))")
    XCTAssertEqual(asked.requests.count, 1, "a failed refresh is not retried")
    XCTAssertEqual(asked.requests.first?.originalURL.path, segments[2])
    let folder = failed.folderURL
    XCTAssertFalse(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(OfflineManifest.fileName).path))
    XCTAssertNil(OfflineAsset.resolve(folder))
    XCTAssertEqual(failed.progress.completedFiles, 2)

    // The saved plan holds the playlist's URLs (with their old signatures), never a
    // refreshed one.
    let planFile = root.appendingPathComponent("plans").appendingPathComponent(
      "\(failed.id.rawValue).json")
    let plan = try String(contentsOf: planFile, encoding: .utf8)
    let firstKey = try XCTUnwrap(
      server.requests.first { $0.path == segments[0] }?.queryItems["auth_key"])
    XCTAssertTrue(plan.contains(firstKey), "the plan keeps the playlist's signed URL")

    asked.setFailing(false)
    let before = server.requests.count
    try manager.resume(failed.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    let resumed = Array(server.requests[before...])
    XCTAssertFalse(resumed.contains { $0.path == segments[0] || $0.path == segments[1] })
    // The resume re-signs the stored, expired URL before sending it (the signer tells its
    // expiry), so the CDN refuses nothing more.
    let third = try XCTUnwrap(resumed.first { $0.path == segments[2] })
    let thirdKey = try XCTUnwrap(third.queryItems["auth_key"])
    XCTAssertFalse(plan.contains(thirdKey), "sent with a fresh signature")
    XCTAssertEqual(cdn.refusals.map(\.path), [segments[2]], "only the first run's refusal")
    XCTAssertEqual(
      asked.requests.dropFirst().map(\.originalURL.path), Array(segments[2...]),
      "one refresh per expired file")
    for request in asked.requests.dropFirst() {
      guard case .signatureExpired = request.reason else {
        return XCTFail("refreshed before sending, not after a refusal: \(request)")
      }
    }
    server.stop()
    try assertSegmentsMatch(
      folder: record.folderURL, localFolder: "video", fixturePlaylist: "hls/144p/index.m3u8",
      ext: "ts")
    XCTAssertEqual(playOffline(record.folderURL).framesDecoded, 300)
  }

  func testWithoutAHandler_anExpiredSegmentFailsWithItsStatus_resumably() throws {
    let (server, _, _) = try startCDN()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let failed = try downloadAndWait(
      manager, try signedMaster(server), selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(failed.state, .error)
    XCTAssertEqual(failed.failure?.code, .httpStatus)
    XCTAssertEqual(failed.failure?.httpStatusCode, 403)
    XCTAssertNil(OfflineAsset.resolve(failed.folderURL))
  }

  func testAResumedPartialFile_isReSigned_andContinuesWithARangeRequest() throws {
    let server = try startFixtureServer()
    let wall = WallTime(epoch)
    let now: @Sendable () -> Int64 = { wall.seconds }
    let signer = self.signer
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url }, nowSeconds: now)
    let asked = RefreshLog()
    let manager = try makeManager(
      root: try makeOfflineTemporaryDirectory(), wall: now, asked: asked, usesSigner: true)
    let log = DownloadEventLog(manager)
    let path = "/sample-h264-aac.mp4"
    let original = try signer.sign(server.url(path), expiry: epoch + 10)
    let info = try manager.prepare(url: original)
    server.setFault(.slow(bytesPerSecond: 25_000), for: path)
    try manager.start(info.id)
    log.waitFor("part of the file") { event in
      if case .downloadingProgress(let id, let progress) = event, id == info.id {
        return progress.downloadedBytes >= 64 * 1024
      }
      return false
    }
    try manager.pause(info.id)
    let folder = try XCTUnwrap(manager.record(for: info.id)).folderURL
    let partial = try XCTUnwrap(
      FileManager.default.attributesOfItem(
        atPath: folder.appendingPathComponent("media.mp4").path)[.size] as? Int)
    XCTAssertGreaterThan(partial, 0)
    XCTAssertTrue(asked.requests.isEmpty, "valid so far")

    wall.seconds = epoch + 100
    server.setFault(nil, for: path)
    let before = server.requests.count
    try manager.resume(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertEqual(asked.requests.map(\.originalURL), [original])
    XCTAssertEqual(asked.requests.first?.purpose, .media)
    XCTAssertTrue(cdn.refusals.isEmpty, "re-signed before sending: \(cdn.refusals)")
    let resumed = Array(server.requests[before...])
    XCTAssertFalse(resumed.isEmpty)
    XCTAssertTrue(
      resumed.first?.range?.hasPrefix("bytes=\(partial)-") ?? false,
      "continues at byte \(partial): \(resumed)")
    for request in resumed {
      let key = try XCTUnwrap(request.queryItems["auth_key"])
      XCTAssertEqual(SignedCDN.expiry(ofAuthKey: key), epoch + 105, "re-signed for 5 s")
    }
    XCTAssertEqual(
      try sha256(Data(contentsOf: folder.appendingPathComponent("media.mp4"))),
      try sha256(Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))))
  }

  private func authKey(_ query: String?) -> String? {
    query?.split(separator: "&").compactMap { pair -> String? in
      let parts = pair.split(separator: "=", maxSplits: 1)
      return parts.count == 2 && parts[0] == "auth_key" ? String(parts[1]) : nil
    }.first
  }
}

/// The refresh requests a handler got, and whether it answers them with `onError`.
final class RefreshLog: @unchecked Sendable {
  // Unchecked Sendable: both properties are guarded by `lock`.
  private let lock = NSLock()
  private var storage: [ExpiredURLSource] = []
  private var failing: Bool

  init(failing: Bool = false) {
    self.failing = failing
  }

  var requests: [ExpiredURLSource] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  func setFailing(_ value: Bool) {
    lock.lock()
    failing = value
    lock.unlock()
  }

  /// Records `expired`; true when the handler should answer `onError`.
  func record(_ expired: ExpiredURLSource) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    storage.append(expired)
    return failing
  }
}

/// A wall time in seconds since 1970 that a test sets.
final class WallTime: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value: Int64

  init(_ seconds: Int64) {
    value = seconds
  }

  var seconds: Int64 {
    get {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
    set {
      lock.lock()
      value = newValue
      lock.unlock()
    }
  }
}
