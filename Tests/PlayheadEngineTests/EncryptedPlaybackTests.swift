import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Sample-encrypted sources played through the public API (decision 0055): DASH cenc and
/// cbcs with keys by key ID, HLS SAMPLE-AES-CTR fMP4 and SAMPLE-AES MPEG-TS with keys by
/// URI; a wrong or missing key fails the item with a typed error naming the key.
final class EncryptedPlaybackTests: XCTestCase {
  /// The fixed keys of scripts/cenc_encrypt.py.
  static let cencKeys = ["0123456789abcdef0123456789abcdef": "00112233445566778899aabbccddeeff"]
  static let cbcsKeys = [
    "a1b2c3d4e5f60718293a4b5c6d7e8f90": "3c4fcfd8a1b6e2a7d1e0f9c8b7a69584",
    "f0e1d2c3b4a5968778695a4b3c2d1e0f": "6a1c9e0b2d4f8a7c5e3b1d9f0a2c4e6b",
  ]

  private func play(
    _ url: URL, configure: (inout PlayerConfiguration) throws -> Void = { _ in }
  ) throws -> (PlayerItem?, PlayerEvent?) {
    var configuration = PlayerConfiguration.fast()
    try configure(&configuration)
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    player.play()
    let end = recorder.waitForEnd()
    return (player.currentItem, end)
  }

  func testDASHCencPlaysWithTheKeyOfItsKeyID() throws {
    let (item, end) = try play(try Fixtures.url("dash-cenc/cenc.mpd")) {
      $0.hls.sampleKeySource = try SampleKeys(hex: Self.cencKeys)
    }
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, 75)
    XCTAssertGreaterThan(item?.statistics.audioSamplesPlayed ?? 0, 48_000 * 2)
  }

  func testDASHCbcsPlaysWithAKeyPerTrack() throws {
    let (item, end) = try play(try Fixtures.url("dash-cenc/cbcs.mpd")) {
      $0.hls.sampleKeySource = try SampleKeys(hex: Self.cbcsKeys)
    }
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, 75)
  }

  func testWrongKeyFailsWithATypedErrorNamingTheKeyID() throws {
    let (item, end) = try play(try Fixtures.url("dash-cenc/cenc.mpd")) {
      $0.hls.sampleKeySource = try SampleKeys(hex: [
        "0123456789abcdef0123456789abcdef": "ffeeddccbbaa99887766554433221100"
      ])
    }
    XCTAssertTrue(
      ["failed", "failedToPlayToEnd"].contains(end?.name ?? ""), "\(String(describing: end))")
    XCTAssertEqual(end?.error?.code, .decryptionFailed, "\(String(describing: end?.error))")
    XCTAssertTrue(
      end?.error?.message.contains("0123456789abcdef0123456789abcdef") ?? false,
      "\(String(describing: end?.error?.message))")
    XCTAssertEqual(item?.statistics.framesRendered ?? 0, 0, "no garbage frame is shown")
  }

  func testMissingKeyFailsNamingTheKeyID() throws {
    let (_, end) = try play(try Fixtures.url("dash-cenc/cbcs.mpd"))
    XCTAssertEqual(end?.error?.code, .decryptionFailed, "\(String(describing: end?.error))")
    XCTAssertTrue(
      end?.error?.message.contains("a1b2c3d4e5f60718293a4b5c6d7e8f90") ?? false,
      "\(String(describing: end?.error?.message))")
  }

  func testContentKeyProviderIsAskedByKeyID() throws {
    let provider = RecordingKeyProvider(keys: Self.cbcsKeys)
    let (item, end) = try play(try Fixtures.url("dash-cenc/cbcs.mpd")) {
      $0.hls.contentKeyProvider = provider
    }
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, 75)
    XCTAssertEqual(Set(provider.askedKeyIDs), Set(Self.cbcsKeys.keys))
  }

  func testClearKeyLicenseServerNamedByTheMPDGivesTheKeys() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    // The JWK set of cbcs.mpd's two keys, base64url without padding.
    func base64url(_ hex: String) throws -> String {
      Data(try SampleKeyID.bytes(fromHex: hex)).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let jwks = try Self.cbcsKeys.map { kid, key in
      "{\"kty\":\"oct\",\"kid\":\"\(try base64url(kid))\",\"k\":\"\(try base64url(key))\"}"
    }
    let body = Data("{\"keys\":[\(jwks.joined(separator: ","))],\"type\":\"temporary\"}".utf8)
    server.setResponder(for: "/dash-cenc/license") { _ in
      HTTPTestServer.Response(headers: ["Content-Type": "application/json"], body: body)
    }
    let (item, end) = try play(server.url("/dash-cenc/cbcs.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, 75)
    let licenseRequests = server.requests.filter { $0.path == "/dash-cenc/license" }
    XCTAssertEqual(licenseRequests.map(\.method), ["POST", "POST"], "one request per key ID")
    let asked = licenseRequests.compactMap { String(data: $0.body, encoding: .utf8) }
    XCTAssertTrue(asked.allSatisfy { $0.contains("\"kids\"") }, "\(asked)")
  }

  func testHLSSampleAESCTRFragmentedMP4Plays() throws {
    let (item, end) = try play(try Fixtures.url("hls-cenc/index.m3u8"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, 75)
  }

  func testHLSSampleAESTransportStreamPlaysAcrossAKeyChange() throws {
    let (clear, _) = try play(try Fixtures.url("hls-sample-aes/clear/index.m3u8"))
    let clearFrames = try XCTUnwrap(clear?.statistics.framesDecoded)
    XCTAssertGreaterThan(clearFrames, 50)
    let (item, end) = try play(try Fixtures.url("hls-sample-aes/index.m3u8"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(item?.statistics.framesDecoded, clearFrames)
  }

  func testHLSSampleAESWithAWrongKeyFails() throws {
    let folder = try Fixtures.url("hls-sample-aes")
    let text = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
      .replacingOccurrences(of: "key.bin", with: "wrong-key.bin")
      .replacingOccurrences(of: "segment", with: folder.path + "/segment")
    let playlist = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-wrong-\(UUID().uuidString).m3u8")
    try Data(
      text.replacingOccurrences(of: "wrong-key.bin", with: folder.path + "/wrong-key.bin").utf8
    )
    .write(to: playlist)
    addTeardownBlock { try? FileManager.default.removeItem(at: playlist) }
    let (item, end) = try play(playlist)
    XCTAssertEqual(end?.error?.code, .decryptionFailed, "\(String(describing: end?.error))")
    XCTAssertTrue(
      end?.error?.message.contains("wrong-key.bin") ?? false,
      "\(String(describing: end?.error?.message))")
    XCTAssertEqual(item?.statistics.framesRendered ?? 0, 0)
  }
}

/// A content-key provider that answers key IDs from a table and remembers what it was asked.
final class RecordingKeyProvider: ContentKeyProvider, @unchecked Sendable {
  private let keys: [String: String]
  private let lock = NSLock()
  private var asked: [String] = []

  init(keys: [String: String]) { self.keys = keys }

  var askedKeyIDs: [String] {
    lock.lock()
    defer { lock.unlock() }
    return asked
  }

  func contentKey(for request: ContentKeyRequest) throws(PlayheadError) -> [UInt8]? {
    guard let keyID = request.keyID else { return nil }
    lock.lock()
    asked.append(keyID)
    lock.unlock()
    return try keys[keyID].map { hex throws(PlayheadError) in try SampleKeyID.bytes(fromHex: hex) }
  }
}
