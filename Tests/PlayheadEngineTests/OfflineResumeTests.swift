import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Pausing, failing, resuming, cancelling and deleting downloads, and their states across
/// manager instances.
final class OfflineResumeTests: XCTestCase {
  private let segments144 = (0..<6).map { "/hls/144p/segment00\($0).ts" }

  private func isProgress(_ event: DownloadEvent, of id: DownloadID, completedFiles: Int) -> Bool {
    if case .downloadingProgress(let eventID, let progress) = event, eventID == id {
      return progress.completedFiles >= completedFiles
    }
    return false
  }

  func testStates_persistAcrossManagerInstances_andAResumeCompletes() throws {
    let server = try startFixtureServer()
    for path in segments144 { server.setFault(.slow(bytesPerSecond: 40_000), for: path) }
    let root = try makeOfflineTemporaryDirectory()
    let first = try makeDownloadManager(root: root)
    let log = DownloadEventLog(first)

    let done = try downloadAndWait(first, server.url("/hls-aes/index.m3u8"))
    XCTAssertEqual(done.state, .completed)
    let waiting = try first.prepare(url: server.url("/sample-h264-aac.mp4"))
    let paused = try first.prepare(url: server.url("/hls/master.m3u8"))
    try first.select(DownloadSelection(variantIndex: 0), for: paused.id)
    try first.start(paused.id)
    log.waitFor("a finished segment") { self.isProgress($0, of: paused.id, completedFiles: 2) }
    try first.pause(paused.id)
    XCTAssertEqual(first.record(for: paused.id)?.state, .suspended)
    XCTAssertNil(OfflineAsset.resolve(try XCTUnwrap(first.record(for: paused.id)).folderURL))

    let second = try makeDownloadManager(root: root)
    XCTAssertEqual(second.downloads.map(\.id), [done.id, waiting.id, paused.id])
    XCTAssertEqual(second.downloads.map(\.state), [.completed, .requested, .suspended])
    let restored = try XCTUnwrap(second.record(for: paused.id))
    XCTAssertEqual(restored.selection.variantIndex, 0)
    XCTAssertEqual(restored.mediaInfo?.tracks.count, 3)
    XCTAssertGreaterThanOrEqual(restored.progress.completedFiles, 2)
    XCTAssertNoThrow(try second.offlineAsset(for: done.id).verify())

    for path in segments144 { server.setFault(nil, for: path) }
    server.clearRequests()
    try second.resume(paused.id)
    let record = try XCTUnwrap(second.waitUntilStopped(paused.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertEqual(
      server.requestCount(for: "/hls/144p/segment000.ts"), 0, "kept, not fetched again")
    XCTAssertEqual(
      server.requestCount(for: "/hls/144p/segment001.ts"), 0, "kept, not fetched again")
    server.stop()
    try assertSegmentsMatch(
      folder: record.folderURL, localFolder: "video", fixturePlaylist: "hls/144p/index.m3u8",
      ext: "ts")
    XCTAssertEqual(playOffline(record.folderURL).framesDecoded, 300)
  }

  func testServerError_leavesAResumableErrorState_notACorruptFolder() throws {
    let server = try startFixtureServer(faults: ["/hls/144p/segment003.ts": .status(500)])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let log = DownloadEventLog(manager)
    let failed = try downloadAndWait(
      manager, server.url("/hls/master.m3u8"), selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(failed.state, .error)
    XCTAssertEqual(failed.failure?.code, .httpStatus)
    XCTAssertEqual(failed.failure?.httpStatusCode, 500)
    log.waitFor("failed event") { if case .failed = $0 { return true } else { return false } }
    let folder = failed.folderURL
    XCTAssertFalse(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(OfflineManifest.fileName).path))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("master.m3u8").path))
    XCTAssertNil(OfflineAsset.resolve(folder))
    XCTAssertThrowsError(try manager.offlineAsset(for: failed.id))
    let player = playOffline(folder)
    XCTAssertNotEqual(player.end?.name, "didPlayToEnd", "a half download never plays as complete")

    server.setFault(nil, for: "/hls/144p/segment003.ts")
    server.clearRequests()
    try manager.resume(failed.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    for kept in ["segment000.ts", "segment001.ts", "segment002.ts"] {
      XCTAssertEqual(server.requestCount(for: "/hls/144p/\(kept)"), 0, kept)
    }
    server.stop()
    try assertSegmentsMatch(
      folder: folder, localFolder: "video", fixturePlaylist: "hls/144p/index.m3u8", ext: "ts")
    XCTAssertEqual(playOffline(folder).framesDecoded, 300)
  }

  func testBrokenConnection_keepsThePartialFile_andResumesItByRange() throws {
    let server = try startFixtureServer(faults: [
      "/hls/144p/segment002.ts": .closeAfter(bytes: 5_000)
    ])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let failed = try downloadAndWait(
      manager, server.url("/hls/master.m3u8"), selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(failed.state, .error, "\(failed)")
    let partial = failed.folderURL.appendingPathComponent("video/seg00002.ts")
    let kept = try XCTUnwrap(
      try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int)
    XCTAssertGreaterThan(kept, 0)
    XCTAssertLessThanOrEqual(kept, 5_000)

    server.setFault(nil, for: "/hls/144p/segment002.ts")
    server.clearRequests()
    try manager.resume(failed.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    let resumed = server.requests.filter { $0.path == "/hls/144p/segment002.ts" }
    XCTAssertEqual(resumed.first?.range, "bytes=\(kept)-", "\(resumed)")
    server.stop()
    try assertSegmentsMatch(
      folder: record.folderURL, localFolder: "video", fixturePlaylist: "hls/144p/index.m3u8",
      ext: "ts")
  }

  func testServerIgnoringRanges_stillGivesAnIdenticalFile() throws {
    let server = try startFixtureServer(faults: [
      "/sample-h264-aac.mp4": .closeAfter(bytes: 60_000)
    ])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    let failed = try downloadAndWait(manager, server.url("/sample-h264-aac.mp4"))
    XCTAssertEqual(failed.state, .error, "\(failed)")
    server.setFault(.ignoreRange, for: "/sample-h264-aac.mp4")
    try manager.resume(failed.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertEqual(
      try Data(contentsOf: record.folderURL.appendingPathComponent("media.mp4")),
      try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4")))
  }

  func testRetries_getPastATransientFailure() throws {
    let server = try startFixtureServer(faults: [
      "/hls/144p/segment001.ts": .failTimes(2, status: 503)
    ])
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory(), retries: 3)
    let record = try downloadAndWait(
      manager, server.url("/hls/master.m3u8"), selection: DownloadSelection(variantIndex: 0))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertEqual(server.requestCount(for: "/hls/144p/segment001.ts"), 3)
  }

  func testCancel_removesTheFiles_andDeleteForgetsTheDownload() throws {
    let server = try startFixtureServer()
    for path in segments144 { server.setFault(.slow(bytesPerSecond: 40_000), for: path) }
    let root = try makeOfflineTemporaryDirectory()
    let manager = try makeDownloadManager(root: root)
    let log = DownloadEventLog(manager)
    let info = try manager.prepare(url: server.url("/hls/master.m3u8"))
    try manager.select(DownloadSelection(variantIndex: 0), for: info.id)
    try manager.start(info.id)
    log.waitFor("a finished segment") { self.isProgress($0, of: info.id, completedFiles: 1) }
    try manager.cancel(info.id)
    let cancelled = try XCTUnwrap(manager.record(for: info.id))
    XCTAssertEqual(cancelled.state, .cancelled)
    XCTAssertEqual(cancelled.progress.downloadedBytes, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: cancelled.folderURL.path))

    for path in segments144 { server.setFault(nil, for: path) }
    try manager.resume(info.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(info.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertThrowsError(
      try manager.cancel(info.id), "a completed download is deleted, not cancelled")

    try manager.delete(info.id)
    XCTAssertNil(manager.record(for: info.id))
    XCTAssertFalse(FileManager.default.fileExists(atPath: record.folderURL.path))
    XCTAssertTrue(try makeDownloadManager(root: root).downloads.isEmpty)
  }

  func testResume_refetchesAFileLongerThanItsRange_insteadOfFailing() throws {
    let source = try makeOfflineTemporaryDirectory()
    let playlist = """
      #EXTM3U
      #EXT-X-TARGETDURATION:2
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXT-X-BYTERANGE:4@2
      #EXTINF:2,
      a.ts
      #EXTINF:2,
      b.ts
      #EXT-X-ENDLIST
      """
    try Data(playlist.utf8).write(to: source.appendingPathComponent("v.m3u8"))
    try Data("0123456789".utf8).write(to: source.appendingPathComponent("a.ts"))
    let manager = try makeDownloadManager(root: try makeOfflineTemporaryDirectory())
    // b.ts is missing: the first run stops in an error after the first segment.
    let failed = try downloadAndWait(manager, source.appendingPathComponent("v.m3u8"))
    XCTAssertEqual(failed.state, .error)
    let first = failed.folderURL.appendingPathComponent("video/seg00000.ts")
    XCTAssertEqual(try Data(contentsOf: first), Data("2345".utf8))
    // The first segment's file has grown past its range (bytes from elsewhere).
    let handle = try FileHandle(forWritingTo: first)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("junk".utf8))
    try handle.close()
    try Data("bb".utf8).write(to: source.appendingPathComponent("b.ts"))

    try manager.resume(failed.id)
    let record = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    XCTAssertEqual(try Data(contentsOf: first), Data("2345".utf8))
  }

  func testResumeAfterCancel_withoutTheKey_neverMixesEncryptedAndClearFiles() throws {
    let source = try makeOfflineTemporaryDirectory()
    let playlist = """
      #EXTM3U
      #EXT-X-TARGETDURATION:2
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXTINF:2,
      a.ts
      #EXTINF:2,
      b.ts
      #EXT-X-ENDLIST
      """
    try Data(playlist.utf8).write(to: source.appendingPathComponent("v.m3u8"))
    try Data("aaaa".utf8).write(to: source.appendingPathComponent("a.ts"))
    let root = try makeOfflineTemporaryDirectory()
    let manager = try makeDownloadManager(root: root)
    let key = [UInt8](repeating: 7, count: 16)
    // b.ts is missing: each run stops in an error after the first segment.
    let failed = try downloadAndWait(manager, source.appendingPathComponent("v.m3u8"), key: key)
    XCTAssertEqual(failed.state, .error)
    try manager.cancel(failed.id)
    XCTAssertNil(manager.record(for: failed.id)?.encryptionKeyID)
    // Restarted without a key: the record says the download is not encrypted.
    try manager.resume(failed.id)
    let again = try XCTUnwrap(manager.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(again.state, .error)
    XCTAssertNil(again.encryptionKeyID)

    // A new process resumes it (no key anywhere) once b.ts exists.
    try Data("bb".utf8).write(to: source.appendingPathComponent("b.ts"))
    let later = try makeDownloadManager(root: root)
    try later.resume(failed.id)
    let record = try XCTUnwrap(later.waitUntilStopped(failed.id, timeoutMs: 120_000))
    XCTAssertEqual(record.state, .completed, "\(String(describing: record.failure))")
    let asset = try later.offlineAsset(for: failed.id)
    XCTAssertEqual(asset.isEncrypted, record.encryptionKeyID != nil)
    let video = record.folderURL.appendingPathComponent("video")
    XCTAssertEqual(
      try Data(contentsOf: video.appendingPathComponent("seg00000.ts")), Data("aaaa".utf8))
    XCTAssertEqual(
      try Data(contentsOf: video.appendingPathComponent("seg00001.ts")), Data("bb".utf8))
  }
}
