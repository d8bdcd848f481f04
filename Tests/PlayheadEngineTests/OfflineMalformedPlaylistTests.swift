import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// Playlists with absurd but parseable numbers: the planner's size arithmetic must not trap.
final class OfflineMalformedPlaylistTests: XCTestCase {
  private func serve(_ files: [String: String]) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: files.mapValues { Data($0.utf8) })
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private let segment = """
    #EXTM3U
    #EXT-X-TARGETDURATION:10
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:10,
    a.ts
    #EXT-X-ENDLIST
    """

  func testHugeBandwidth_preparesWithoutASizeGuess() throws {
    let master = """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=9223372036854775807
      v.m3u8
      """
    let server = try serve(["/m.m3u8": master, "/v.m3u8": segment, "/a.ts": "abc"])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let info = try manager.prepare(url: server.url("/m.m3u8"))
    XCTAssertEqual(info.tracks.count, 1)
    XCTAssertNil(info.tracks.first?.estimatedSizeBytes)
  }

  func testHugeSegmentBitrate_stillDownloads() throws {
    let media = segment.replacingOccurrences(
      of: "#EXTINF:10,", with: "#EXT-X-BITRATE:9223372036854775807\n#EXTINF:10,")
    let server = try serve(["/v.m3u8": media, "/a.ts": "abc"])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/v.m3u8"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
  }

  func testByteRangesAddingUpPastInt64_areRefused() throws {
    let media = """
      #EXTM3U
      #EXT-X-TARGETDURATION:10
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXT-X-BYTERANGE:5000000000000000000@0
      #EXTINF:10,
      a.ts
      #EXT-X-BYTERANGE:5000000000000000000@0
      #EXTINF:10,
      a.ts
      #EXT-X-ENDLIST
      """
    let server = try serve(["/v.m3u8": media, "/a.ts": "abc"])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let info = try manager.prepare(url: server.url("/v.m3u8"))
    XCTAssertNil(info.tracks.first?.estimatedSizeBytes)
    try manager.select(DownloadSelection(), for: info.id)
    try manager.start(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .error)
    XCTAssertEqual(
      record.failure?.code, .unsupportedFormat, "\(String(describing: record.failure))")
  }

  func testEmptyByteRange_completes() throws {
    let media = segment.replacingOccurrences(
      of: "#EXTINF:10,", with: "#EXT-X-BYTERANGE:0@2\n#EXTINF:10,")
    let server = try serve(["/v.m3u8": media, "/a.ts": "abc"])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/v.m3u8"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
  }
}
