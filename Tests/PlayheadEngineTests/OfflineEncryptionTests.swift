import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Downloads encrypted at rest ("secure downloads"): unreadable on disk, playable through
/// Playhead with the right key, a typed error with a wrong or missing key.
final class OfflineEncryptionTests: XCTestCase {
  private let key: [UInt8] = Array(0..<16)
  private let wrongKey: [UInt8] = Array(100..<116)

  override func setUp() {
    super.setUp()
    OfflineKeyRegistry.shared.removeAll()
    addTeardownBlock { OfflineKeyRegistry.shared.removeAll() }
  }

  func testHLSAtRest_differsFromTheSource_andPlaysOnlyWithTheKey() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(
      manager, server.url("/hls/master.m3u8"), selection: DownloadSelection(variantIndex: 0),
      key: key)
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    for index in 0..<6 {
      let stored = try Data(
        contentsOf: folder.appendingPathComponent("video/seg0000\(index).ts"))
      let source = try Data(contentsOf: try Fixtures.url("hls/144p/segment00\(index).ts"))
      XCTAssertEqual(stored.count, source.count)
      XCTAssertNotEqual(stored, source, "segment \(index) is stored in the clear")
    }
    // A third-party reader (FFmpeg on its own) finds no media in a stored segment.
    let segment = folder.appendingPathComponent("video/seg00000.ts")
    XCTAssertThrowsError(try Demuxer(source: FileDataSource(), url: segment))

    let asset = try OfflineAsset(folderURL: folder)
    XCTAssertTrue(asset.isEncrypted)
    XCTAssertEqual(asset.check(key: key), .matches)
    XCTAssertEqual(asset.check(key: wrongKey), .wrong)
    XCTAssertEqual(asset.check(key: nil), .missing)
    XCTAssertNoThrow(try asset.verify())
    let manifestText = try String(
      contentsOf: folder.appendingPathComponent(OfflineManifest.fileName), encoding: .utf8)
    XCTAssertFalse(manifestText.contains("000102030405"), "the key is never stored")

    let missing = playOffline(folder)
    XCTAssertEqual(missing.end?.error?.code, .decryptionFailed)
    XCTAssertTrue(
      missing.end?.error?.message.contains("missing key") ?? false,
      "\(String(describing: missing.end))")

    try OfflineKeyRegistry.shared.register(wrongKey)
    let wrong = playOffline(folder)
    XCTAssertEqual(wrong.end?.error?.code, .decryptionFailed)
    XCTAssertTrue(
      wrong.end?.error?.message.contains("wrong key") ?? false, "\(String(describing: wrong.end))")

    try OfflineKeyRegistry.shared.register(key)
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 300)
  }

  func testAES128StreamAtRest_storedKeysAreEncryptedToo() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/hls-aes/index.m3u8"), key: key)
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let storedKey = try Data(contentsOf: record.folderURL.appendingPathComponent("video/key0.key"))
    XCTAssertEqual(storedKey.count, 16)
    XCTAssertNotEqual(storedKey, try Data(contentsOf: try Fixtures.url("hls-aes/key.bin")))
    try OfflineKeyRegistry.shared.register(key)
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }

  func testProgressiveAtRest_randomAccessDecryptionPlaysAndSeeks() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/sample-h264-aac.mp4"), key: key)
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let media = record.folderURL.appendingPathComponent("media.mp4")
    let source = try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))
    let stored = try Data(contentsOf: media)
    XCTAssertEqual(stored.count, source.count)
    XCTAssertNotEqual(stored, source)
    XCTAssertThrowsError(try Demuxer(source: FileDataSource(), url: media))

    // Decrypting any range on its own gives the source's bytes (AES-CTR random access).
    // The nonce as decision 0015 writes it down, from the manifest's salt.
    let salt = try XCTUnwrap(
      try OfflineAsset(folderURL: record.folderURL).manifest.encryption?.salt)
    XCTAssertEqual(salt.count, 32)
    let nonceInput = "playhead-offline-nonce-v1" + salt + "/media.mp4"
    let cipher = try AESCTR(
      key: key, nonce: Array(try SHA256.digest(Data(nonceInput.utf8)).prefix(8)))
    for (offset, length) in [(0, 16), (5, 100), (100_003, 4_097), (source.count - 7, 7)] {
      var bytes = [UInt8](stored[offset..<(offset + length)])
      cipher.apply(to: &bytes, atOffset: Int64(offset))
      XCTAssertEqual(Data(bytes), source[offset..<(offset + length)], "range \(offset)+\(length)")
    }

    try OfflineKeyRegistry.shared.register(key)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: record.folderURL, configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let expectation = expectation(description: "seek")
    player.seek(to: MediaTime(value: 6, timescale: 1)) { finished in
      XCTAssertTrue(finished)
      expectation.fulfill()
    }
    wait(for: [expectation], timeout: 60)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(player.currentTime().seconds, 10, accuracy: 0.1)
  }

  func testResumingAnEncryptedDownload_needsItsKey() throws {
    let server = try startFixtureServer(faults: ["/hls/144p/segment002.ts": .status(503)])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let failed = try downloadAndWait(
      manager, server.url("/hls/master.m3u8"), selection: DownloadSelection(variantIndex: 0),
      key: key)
    XCTAssertEqual(failed.state, .error)
    XCTAssertNotNil(failed.encryptionKeyID)
    server.setFault(nil, for: "/hls/144p/segment002.ts")
    let restarted = try makeDownloadManager(root: manager.rootDirectory)
    XCTAssertThrowsError(try restarted.resume(failed.id)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
    XCTAssertThrowsError(try restarted.resume(failed.id, encryptionKey: wrongKey))
    try restarted.resume(failed.id, encryptionKey: key)
    let record = try XCTUnwrap(restarted.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    try OfflineKeyRegistry.shared.register(key)
    XCTAssertEqual(playOffline(record.folderURL).framesDecoded, 300)
  }

  func testKeyText_parsesHexAndRejectsOtherLengths() throws {
    XCTAssertEqual(
      try OfflineKeyRegistry.key(fromHex: "000102030405060708090a0b0c0d0e0f"), key)
    XCTAssertEqual(try OfflineKeyRegistry.key(fromHex: "0x000102030405060708090A0B0C0D0E0F"), key)
    XCTAssertThrowsError(try OfflineKeyRegistry.key(fromHex: "0011"))
    XCTAssertThrowsError(try OfflineKeyRegistry.key(fromHex: String(repeating: "zz", count: 16)))
    XCTAssertThrowsError(try OfflineKeyRegistry.shared.register([1, 2, 3]))
    XCTAssertNotEqual(
      try OfflineKeyRegistry.keyID(for: key), try OfflineKeyRegistry.keyID(for: wrongKey))
  }
}
