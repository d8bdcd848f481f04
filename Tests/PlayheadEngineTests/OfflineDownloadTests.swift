import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Downloads of the HLS fixtures and a progressive file, checked byte for byte against the
/// served files and played back with the server stopped.
final class OfflineDownloadTests: XCTestCase {
  func testHLSVariant_downloadsByteIdentical_andPlaysWithTheServerStopped() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let log = DownloadEventLog(manager)
    let info = try manager.prepare(url: server.url("/hls/master.m3u8"))
    XCTAssertEqual(info.kind, .hls)
    XCTAssertEqual(info.durationSeconds ?? 0, 12, accuracy: 0.01)
    let videos = info.tracks.filter { $0.kind == .video }
    XCTAssertEqual(videos.map(\.height), [144, 360, 720])
    XCTAssertTrue(videos.allSatisfy { ($0.estimatedSizeBytes ?? 0) > 0 }, "\(videos)")
    try manager.selectTrack(videos[1].trackIndex, for: info.id)
    try manager.start(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()

    try assertSegmentsMatch(
      folder: record.folderURL, localFolder: "video", fixturePlaylist: "hls/360p/index.m3u8",
      ext: "ts")
    XCTAssertFalse(
      server.requests.contains { $0.path.contains("/144p/") && $0.path.hasSuffix(".ts") },
      "only the chosen variant's segments are fetched")
    let asset = try manager.offlineAsset(for: info.id)
    try asset.verify()
    XCTAssertEqual(asset.manifest.playbackPath, "master.m3u8")
    XCTAssertNil(asset.manifest.encryption)

    log.waitFor("completed") { if case .completed = $0 { return true } else { return false } }
    manager.waitForPendingEvents()
    let progress = log.events.compactMap { event -> DownloadProgress? in
      if case .downloadingProgress(_, let progress) = event { return progress }
      return nil
    }
    XCTAssertEqual(progress.map(\.downloadedBytes), progress.map(\.downloadedBytes).sorted())
    XCTAssertEqual(progress.last?.percent, 100)
    XCTAssertTrue(
      log.events.contains {
        if case .processingProgress(_, 100) = $0 { return true } else { return false }
      })

    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 300)
  }

  func testAES128Stream_keysAreStoredLocally_andPlays() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/hls-aes/index.m3u8"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    try assertSegmentsMatch(
      folder: folder, localFolder: "video", fixturePlaylist: "hls-aes/index.m3u8", ext: "ts")
    XCTAssertEqual(
      try Data(contentsOf: folder.appendingPathComponent("video/key0.key")),
      try Data(contentsOf: try Fixtures.url("hls-aes/key.bin")))
    XCTAssertEqual(
      try Data(contentsOf: folder.appendingPathComponent("video/key1.key")),
      try Data(contentsOf: try Fixtures.url("hls-aes/key2.bin")))
    let playlist = try String(
      contentsOf: folder.appendingPathComponent("video/index.m3u8"), encoding: .utf8)
    XCTAssertTrue(playlist.contains("URI=\"key0.key\""), playlist)
    XCTAssertFalse(playlist.contains("http"), playlist)
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }

  func testFMP4_initSectionsAndMaxBitrate() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(
      manager, server.url("/hls-fmp4/master.m3u8"),
      selection: DownloadSelection(maxBitrate: 200_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    XCTAssertEqual(
      try Data(contentsOf: folder.appendingPathComponent("video/init0.mp4")),
      try Data(contentsOf: try Fixtures.url("hls-fmp4/144p/init.mp4")))
    try assertSegmentsMatch(
      folder: folder, localFolder: "video", fixturePlaylist: "hls-fmp4/144p/index.m3u8",
      ext: "m4s")
    let master = try String(
      contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
    XCTAssertTrue(master.contains("RESOLUTION=256x144"), master)
    XCTAssertFalse(master.contains("640x360"), master)
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }

  func testByteRanges_areSplitIntoOneFilePerSegment() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(manager, server.url("/hls-byterange/master.m3u8"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    try assertSegmentsMatch(
      folder: folder, localFolder: "video", fixturePlaylist: "hls-byterange/index.m3u8", ext: "ts")
    var joined = Data()
    for index in 0..<5 {
      joined.append(
        try Data(
          contentsOf: folder.appendingPathComponent(
            "video/seg" + String(format: "%05d", index) + ".ts")))
    }
    XCTAssertEqual(joined, try Data(contentsOf: try Fixtures.url("hls-byterange/media.ts")))
    let playlist = try String(
      contentsOf: folder.appendingPathComponent("video/index.m3u8"), encoding: .utf8)
    XCTAssertFalse(playlist.contains("BYTERANGE"), playlist)
    XCTAssertTrue(server.requests.contains { $0.range != nil }, "segments are fetched by range")
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }

  func testAlternateAudioAndSubtitles_chosenByLanguage() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(
      manager, server.url("/hls-alt/master.m3u8"),
      selection: DownloadSelection(audioLanguage: "fr", subtitleLanguage: "en"))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let folder = record.folderURL
    try assertSegmentsMatch(
      folder: folder, localFolder: "video", fixturePlaylist: "hls-alt/video/index.m3u8", ext: "ts")
    try assertSegmentsMatch(
      folder: folder, localFolder: "audio", fixturePlaylist: "hls-alt/audio-fr/index.m3u8",
      ext: "ts")
    try assertSegmentsMatch(
      folder: folder, localFolder: "subtitles", fixturePlaylist: "hls-alt/subs-en/index.m3u8",
      ext: "vtt")
    let master = try String(
      contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
    XCTAssertTrue(master.contains("LANGUAGE=\"fr\""), master)
    XCTAssertFalse(master.contains("audio-en"), master)
    XCTAssertFalse(master.contains("I-FRAME"), master)
    XCTAssertFalse(
      server.requests.contains { $0.path.hasPrefix("/hls-alt/audio-en/seg") },
      "the English audio is not downloaded")
    let played = playOffline(folder)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
    XCTAssertGreaterThan(played.audioSamples, 0)
  }

  func testUnknownAudioLanguage_endsInAnErrorNamingTheLanguages() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let record = try downloadAndWait(
      manager, server.url("/hls-alt/master.m3u8"), selection: DownloadSelection(audioLanguage: "de")
    )
    XCTAssertEqual(record.state, .error)
    XCTAssertEqual(record.failure?.code, .invalidArgument)
    XCTAssertTrue(
      record.failure?.message.contains("en, fr") ?? false, "\(String(describing: record.failure))")
  }

  func testProgressiveMP4_downloadsByteIdentical_andPlaysOffline() throws {
    let server = try startFixtureServer()
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let source = try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))
    let info = try manager.prepare(url: server.url("/sample-h264-aac.mp4"))
    XCTAssertEqual(info.kind, .progressive)
    XCTAssertEqual(info.tracks.first?.kind, .file)
    XCTAssertEqual(info.tracks.first?.estimatedSizeBytes, Int64(source.count))
    XCTAssertEqual(info.durationSeconds ?? 0, 10, accuracy: 0.1)
    try manager.start(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    server.stop()
    let stored = try Data(contentsOf: record.folderURL.appendingPathComponent("media.mp4"))
    XCTAssertEqual(try sha256(stored), try sha256(source))
    let played = playOffline(record.folderURL)
    XCTAssertEqual(played.end?.name, "didPlayToEnd", "\(String(describing: played.end?.error))")
    XCTAssertEqual(played.framesDecoded, 250)
  }

  func testLivePlaylist_cannotBeDownloaded() throws {
    let live = """
      #EXTM3U
      #EXT-X-TARGETDURATION:2
      #EXTINF:2,
      a.ts
      """
    let server = HTTPTestServer(files: ["/live.m3u8": Data(live.utf8)])
    try server.start()
    defer { server.stop() }
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    XCTAssertThrowsError(try manager.prepare(url: server.url("/live.m3u8"))) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .unsupportedFormat)
    }
    XCTAssertTrue(manager.downloads.isEmpty)
  }

  func testNetworkPlaylistNamingALocalFile_isRefused() throws {
    let playlist = """
      #EXTM3U
      #EXT-X-TARGETDURATION:2
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXTINF:2,
      file:///etc/hostname
      #EXT-X-ENDLIST
      """
    let server = HTTPTestServer(files: ["/evil.m3u8": Data(playlist.utf8)])
    try server.start()
    defer { server.stop() }
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    XCTAssertThrowsError(try manager.prepare(url: server.url("/evil.m3u8"))) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .unsupportedFormat, "\(error)")
      XCTAssertTrue("\(error)".contains("file"), "\(error)")
    }
    XCTAssertTrue(manager.downloads.isEmpty)
  }
}
