import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadHLS
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Collects a download manager's events for one test.
final class DownloadEventLog: @unchecked Sendable {
  // Unchecked Sendable: `storage` is guarded by `condition`.
  private let condition = NSCondition()
  private var storage: [DownloadEvent] = []

  init(_ manager: DownloadManager) {
    manager.addObserver { [self] event in
      condition.lock()
      storage.append(event)
      condition.broadcast()
      condition.unlock()
    }
  }

  var events: [DownloadEvent] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  /// Waits until an event satisfies `predicate`; fails the test after a generous limit.
  @discardableResult
  func waitFor(
    _ description: String, file: StaticString = #filePath, line: UInt = #line,
    _ predicate: (DownloadEvent) -> Bool
  ) -> DownloadEvent? {
    let limit = Date(timeIntervalSinceNow: 120)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let found = storage.first(where: predicate) { return found }
      if !condition.wait(until: limit) {
        XCTFail("timed out waiting for \(description)", file: file, line: line)
        return nil
      }
    }
  }
}

extension XCTestCase {
  /// Serves `Fixtures/` on 127.0.0.1 until the test ends.
  func startFixtureServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// A fresh folder under the temporary directory, removed when the test ends.
  func makeOfflineTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-offline-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return directory
  }

  /// A manager with no retries (so that faults show at once).
  func makeDownloadManager(root: URL, retries: Int = 0) throws -> DownloadManager {
    try DownloadManager(
      rootDirectory: root,
      configuration: DownloadConfiguration(
        request: RequestConfiguration(timeoutMs: 5_000, retryCount: retries, retryBaseDelayMs: 10)
      ))
  }

  /// Prepares, selects and starts a download of `url` and waits for it to stop.
  func downloadAndWait(
    _ manager: DownloadManager, _ url: URL, selection: DownloadSelection = DownloadSelection(),
    key: [UInt8]? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> DownloadRecord {
    let info = try manager.prepare(url: url)
    try manager.select(selection, for: info.id)
    try manager.start(info.id, encryptionKey: key)
    return try XCTUnwrap(
      manager.waitUntilStopped(info.id, timeoutMs: 120_000), file: file, line: line)
  }

  /// Plays `url` (a download folder) to its end in fast mode; returns the end event's name
  /// and the frames decoded.
  func playOffline(_ url: URL) -> (end: PlayerEvent?, framesDecoded: Int, audioSamples: Int) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: .fast())
    defer { player.close() }
    player.play()
    let end = recorder.waitForEnd()
    let stats = player.currentItem?.statistics
    return (end, stats?.framesDecoded ?? 0, Int(stats?.audioSamplesDecoded ?? 0))
  }

  /// The hex SHA-256 of `data`.
  func sha256(_ data: Data) throws -> String {
    SHA256.hex(try SHA256.digest(data))
  }

  /// Asserts that `folder/<localFolder>/segNNNNN.<ext>` holds exactly the bytes of each
  /// segment of the fixture media playlist `playlist` (byte ranges cut from their file).
  func assertSegmentsMatch(
    folder: URL, localFolder: String, fixturePlaylist playlist: String, ext: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let playlistURL = try Fixtures.url(playlist)
    guard
      case .media(let media) = try PlaylistParser.parse(
        Data(contentsOf: playlistURL), url: playlistURL)
    else {
      XCTFail("\(playlist) is not a media playlist", file: file, line: line)
      return
    }
    XCTAssertFalse(media.segments.isEmpty, file: file, line: line)
    for (index, segment) in media.segments.enumerated() {
      var expected = try Data(contentsOf: segment.uri)
      if let range = segment.byteRange {
        let start = Int(range.offset)
        expected = expected.subdata(in: start..<(start + Int(range.length ?? 0)))
      }
      let local = folder.appendingPathComponent(localFolder)
        .appendingPathComponent("seg" + String(format: "%05d", index) + "." + ext)
      let stored = try Data(contentsOf: local)
      XCTAssertEqual(
        try sha256(stored), try sha256(expected),
        "\(local.lastPathComponent) differs from \(segment.uriString)",
        file: file, line: line)
    }
  }
}
