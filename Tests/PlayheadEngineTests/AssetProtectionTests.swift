import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// `Asset.hasProtectedContent` (SPEC P2): encrypted HLS streams say so once loaded.
final class AssetProtectionTests: XCTestCase {
  private func loadedProtection(_ url: URL) async throws -> Bool {
    let asset = Asset(url: url)
    XCTAssertFalse(asset.hasProtectedContent, "unknown before loading")
    try await asset.load()
    return asset.hasProtectedContent
  }

  func testAES128Stream_isProtected() async throws {
    let protected = try await loadedProtection(try Fixtures.url("hls-aes/index.m3u8"))
    XCTAssertTrue(protected)
  }

  func testClearStreamsAndFiles_areNot() async throws {
    for name in ["hls/master.m3u8", "hls-fmp4/master.m3u8", "sample-h264-aac.mp4"] {
      let protected = try await loadedProtection(try Fixtures.url(name))
      XCTAssertFalse(protected, name)
    }
  }

  func testASessionKeyInTheMaster_marksTheStreamProtected() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-protection-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let media = try Fixtures.url("hls/144p/index.m3u8")
    let master = """
      #EXTM3U
      #EXT-X-SESSION-KEY:METHOD=AES-128,URI="\(try Fixtures.url("hls-aes/key.bin").absoluteString)"
      #EXT-X-STREAM-INF:BANDWIDTH=155664,RESOLUTION=256x144
      \(media.absoluteString)
      """
    let url = directory.appendingPathComponent("master.m3u8")
    try Data(master.utf8).write(to: url)
    let protected = try await loadedProtection(url)
    XCTAssertTrue(protected)
  }
}

/// Serves the key of the `hls-aes` fixture for `skd://` key URIs.
private struct FixtureKeyProvider: ContentKeyProvider {
  let key: [UInt8]
  func contentKey(for request: ContentKeyRequest) throws(PlayheadError) -> [UInt8]? {
    request.keyURI.scheme == "skd" ? key : nil
  }
}

extension AssetProtectionTests {
  func testAKeyProviderStream_playsAndIsProtected() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-skd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let fixture = try Fixtures.url("hls-aes/segment010.ts")
    let text = """
      #EXTM3U
      #EXT-X-TARGETDURATION:2
      #EXT-X-MEDIA-SEQUENCE:10
      #EXT-X-KEY:METHOD=AES-128,URI="skd://content-key-1",IV=0x000102030405060708090a0b0c0d0e0f
      #EXTINF:2.0,
      \(fixture.absoluteString)
      #EXT-X-ENDLIST
      """
    let url = directory.appendingPathComponent("skd.m3u8")
    try Data(text.utf8).write(to: url)
    let key = try [UInt8](Data(contentsOf: try Fixtures.url("hls-aes/key.bin")))
    var configuration = PlayerConfiguration.fast()
    configuration.hls.contentKeyProvider = FixtureKeyProvider(key: key)
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 50)
    XCTAssertEqual(player.currentItem?.asset.hasProtectedContent, true)
  }
}
