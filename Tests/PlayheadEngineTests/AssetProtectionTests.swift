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
