import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Media is routed by its content, not its name (SPEC R1): an M3U8 under any name plays,
/// preloads and downloads through Playhead's HLS engine, and its `file:` references are
/// refused; manifests Playhead does not play are refused before anything else is fetched.
final class ContentRoutingTests: XCTestCase {
  /// Serves the fixtures, plus the ladder's master playlist as `/hls/ladder.mp4` and a
  /// playlist of a local segment as `/hls/leak.bin`.
  private func startServer() throws -> HTTPTestServer {
    let master = try Data(contentsOf: try Fixtures.url("hls/master.m3u8"))
    let local = try Fixtures.url("hls/144p/segment000.ts").absoluteString
    let leak = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(local)\n#EXT-X-ENDLIST\n"
    return try PreloadFixtures.server(
      self, files: ["/hls/ladder.mp4": master, "/hls/leak.bin": Data(leak.utf8)])
  }

  func testPlayer_playsAnM3U8NamedMP4_throughTheHLSEngine() throws {
    let server = try startServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls/ladder.mp4"), configuration: .fast())
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 300)
    XCTAssertEqual(player.currentItem?.asset.isHLS, true)
    XCTAssertTrue(
      server.requests.contains { $0.path.hasSuffix("/index.m3u8") }, "variant playlists fetched")
  }

  func testAsset_loadsAnM3U8NamedMP4_asHLS() async throws {
    let server = try startServer()
    let asset = Asset(url: server.url("/hls/ladder.mp4"))
    XCTAssertFalse(asset.isHLS, "the name alone does not say")
    try await asset.load()
    XCTAssertTrue(asset.isHLS)
    XCTAssertEqual(asset.containerName, "hls")
    XCTAssertTrue(asset.tracks.contains { $0.kind == .video })
  }

  func testPlayer_refusesAPlaylistUnderAnotherNameThatListsALocalFile() throws {
    let server = try startServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls/leak.bin"), configuration: .fast())
    defer { player.close() }
    player.play()
    let end = try XCTUnwrap(recorder.waitForEnd())
    XCTAssertEqual(end.name, "failed")
    let error = try XCTUnwrap(end.error)
    XCTAssertEqual(error.code, .invalidPlaylist)
    XCTAssertTrue(error.message.contains("line 4"), error.message)
    XCTAssertTrue(error.message.contains("scheme 'file'"), error.message)
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded ?? 0, 0)
  }

  func testAsset_opensADASHManifestNamedMP4_asAStream() async throws {
    let server = try startServer()
    let mpd = try Data(contentsOf: try Fixtures.url("dash-vod/manifest.mpd"))
    server.setFile(mpd, at: "/dash-vod/a.mp4")
    let asset = Asset(url: server.url("/dash-vod/a.mp4"))
    try await asset.load()
    XCTAssertTrue(asset.isDASH, "sniffed by content")
    XCTAssertEqual(asset.containerName, "dash")
    XCTAssertEqual(asset.duration.seconds, 10, accuracy: 0.05)
  }

  func testAsset_refusesAnEmptyDASHManifest_asHavingNothingToPlay() async throws {
    let server = try startServer()
    server.setFile(Data("<?xml version=\"1.0\"?>\n<MPD type=\"static\"/>".utf8), at: "/a.mp4")
    let asset = Asset(url: server.url("/a.mp4"))
    do {
      try await asset.load()
      XCTFail("an MPD without Representations loaded")
    } catch {
      XCTAssertEqual(error.code, .noPlayableStreams)
      XCTAssertTrue(error.message.contains("no video or audio Representation"), error.message)
    }
  }

  func testMediaLoader_preloadsAnM3U8NamedMP4_asAStream() throws {
    let server = try startServer()
    let cache = try PreloadFixtures.cache(self)
    var player = PlayerConfiguration.fast()
    player.cache = cache
    let loader = MediaLoader(configuration: .init(player: player))
    addTeardownBlock { loader.cancelAll() }
    let recorder = PreloadRecorder()
    let id = loader.addTask(
      PreloadTask(url: server.url("/hls/ladder.mp4"), config: PreloadConfig(durationMs: 2000)),
      listener: recorder)
    let report = try XCTUnwrap(recorder.report(id))
    XCTAssertNotNil(report.variant, "preloaded as HLS: a variant was chosen")
    XCTAssertTrue(report.resources.contains { $0.path.hasSuffix(".ts") }, "\(report.resources)")
  }

  func testDownloadManager_downloadsAnM3U8NamedMP4_asAStream_thatPlaysOffline() throws {
    let server = try startServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let info = try manager.prepare(url: server.url("/hls/ladder.mp4"))
    XCTAssertEqual(info.kind, .hls)
    try manager.select(DownloadSelection(), for: info.id)
    try manager.start(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed)
    server.stop()
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd")
    XCTAssertGreaterThan(played.framesDecoded, 0)
  }

  func testDownloadManager_refusesAPlaylistUnderAnotherNameThatListsALocalFile() throws {
    let server = try startServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    XCTAssertThrowsError(try manager.prepare(url: server.url("/hls/leak.bin"))) { error in
      XCTAssertTrue(
        (error as? PlayheadError)?.message.contains("scheme 'file'") ?? false, "\(error)")
    }
  }
}
