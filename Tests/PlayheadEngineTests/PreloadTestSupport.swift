import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Records a preload listener's calls, in order, and lets a test wait for them.
final class PreloadRecorder: PreloadListener, @unchecked Sendable {
  enum Event: Equatable {
    case completed(String, PreloadReport)
    case failed(String, PlayheadError)
    case canceled(String)

    var taskID: String {
      switch self {
      case .completed(let id, _), .failed(let id, _), .canceled(let id): return id
      }
    }
  }

  private let condition = NSCondition()
  private var storage: [Event] = []

  var events: [Event] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  func preloadDidComplete(taskID: String, url: URL, report: PreloadReport) {
    append(.completed(taskID, report))
  }

  func preloadDidFail(taskID: String, url: URL, error: PlayheadError) {
    append(.failed(taskID, error))
  }

  func preloadWasCanceled(taskID: String, url: URL) {
    append(.canceled(taskID))
  }

  private func append(_ event: Event) {
    condition.lock()
    storage.append(event)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (with a generous real-time guard against hangs) for the event of `taskID`.
  @discardableResult
  func waitFor(_ taskID: String, file: StaticString = #filePath, line: UInt = #line) -> Event? {
    let limit = Date(timeIntervalSinceNow: 60)
    condition.lock()
    defer { condition.unlock() }
    while !storage.contains(where: { $0.taskID == taskID }) {
      if !condition.wait(until: limit) {
        XCTFail("timed out waiting for preload \(taskID)", file: file, line: line)
        return nil
      }
    }
    return storage.first { $0.taskID == taskID }
  }

  /// The report of a completed task; fails the test otherwise.
  func report(
    _ taskID: String, file: StaticString = #filePath, line: UInt = #line
  ) -> PreloadReport? {
    guard let event = waitFor(taskID, file: file, line: line) else { return nil }
    guard case .completed(_, let report) = event else {
      XCTFail("preload \(taskID) did not complete: \(event)", file: file, line: line)
      return nil
    }
    return report
  }
}

/// A data source in front of another that can hold loads whose URL path contains a
/// pattern until released, and logs every load it passes on.
final class GateDataSource: DataSource, @unchecked Sendable {
  let upstream: any DataSource
  private let condition = NSCondition()
  private var heldPatterns: Set<String> = []
  private var waitingPaths: [String] = []
  private var log: [String] = []
  private var cancelled = false

  init(upstream: any DataSource) {
    self.upstream = upstream
  }

  /// Holds loads of paths containing `pattern`.
  func hold(_ pattern: String) {
    condition.lock()
    heldPatterns.insert(pattern)
    condition.unlock()
  }

  /// Lets held loads of `pattern` (and later ones) through.
  func release(_ pattern: String) {
    condition.lock()
    heldPatterns.remove(pattern)
    condition.broadcast()
    condition.unlock()
  }

  /// The paths of every load that arrived, in order (held ones included).
  var requestedPaths: [String] {
    condition.lock()
    defer { condition.unlock() }
    return log
  }

  /// Waits until `count` loads are being held.
  func waitForHeld(count: Int, file: StaticString = #filePath, line: UInt = #line) {
    let limit = Date(timeIntervalSinceNow: 60)
    condition.lock()
    defer { condition.unlock() }
    while waitingPaths.count < count {
      if !condition.wait(until: limit) {
        XCTFail("timed out waiting for \(count) held loads", file: file, line: line)
        return
      }
    }
  }

  func load(_ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?)
    throws(PlayheadError) -> DataResponse
  {
    let path = request.url.path
    condition.lock()
    log.append(path)
    waitingPaths.append(path)
    condition.broadcast()
    while !cancelled && heldPatterns.contains(where: { path.contains($0) }) { condition.wait() }
    if let index = waitingPaths.firstIndex(of: path) { waitingPaths.remove(at: index) }
    let wasCancelled = cancelled
    condition.unlock()
    if wasCancelled {
      throw PlayheadError(.cancelled, "load cancelled: \(path)", url: request.url)
    }
    return try upstream.load(request, progress: progress)
  }

  func cancelAll() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
    upstream.cancelAll()
  }
}

/// Servers, caches and in-memory copies of the HLS fixture ladder for preload tests.
enum PreloadFixtures {
  /// Starts a server over the fixtures folder plus `files`; stopped at teardown.
  static func server(_ test: XCTestCase, files: [String: Data] = [:]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), files: files)
    try server.start()
    test.addTeardownBlock { server.stop() }
    return server
  }

  /// A fresh cache in a temporary folder; closed and deleted at teardown.
  static func cache(_ test: XCTestCase, chunkBytes: Int = 16 * 1024) throws -> MediaCache {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-preload-\(UUID().uuidString)")
    let cache = try MediaCache.open(
      directory: folder, configuration: .init(progressiveChunkBytes: chunkBytes))
    test.addTeardownBlock {
      cache.close()
      try? FileManager.default.removeItem(at: folder)
    }
    return cache
  }

  /// The files of `Fixtures/<folder>` keyed by server path, once per prefix
  /// (`/v1/master.m3u8`, `/v1/360p/segment000.ts`, …): distinct videos with the same media.
  static func copies(of folder: String = "hls", prefixes: [String]) throws -> [String: Data] {
    let root = try Fixtures.directory().appendingPathComponent(folder)
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      let relative = String(
        url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))
      let data = try Data(contentsOf: url)
      for prefix in prefixes { files["/\(prefix)\(relative)"] = data }
    }
    return files
  }

  /// The ranges of a logged request's `Range: bytes=a-b` header.
  static func byteRange(_ request: HTTPTestServer.LoggedRequest) -> Range<Int64>? {
    guard let header = request.range, header.hasPrefix("bytes=") else { return nil }
    let bounds = header.dropFirst(6).split(separator: "-")
    guard bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]) else {
      return nil
    }
    return low..<(high + 1)
  }
}
