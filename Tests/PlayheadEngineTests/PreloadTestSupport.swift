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

/// A network in front of another that can hold transfers whose URL path contains a
/// pattern at their open until released, and logs every open it passes on.
final class GateNetwork: DataSourceFactory, @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`.
  let upstream: any DataSourceFactory
  private let condition = NSCondition()
  private var heldPatterns: Set<String> = []
  private var waitingPaths: [String] = []
  private var log: [String] = []
  private var cancelled = false
  private var sources: [GatedSource] = []

  init(upstream: any DataSourceFactory) {
    self.upstream = upstream
  }

  func makeDataSource() -> any DataSource {
    let source = GatedSource(gate: self, upstream: upstream.makeDataSource())
    condition.lock()
    sources.append(source)
    condition.unlock()
    return source
  }

  /// Holds opens of paths containing `pattern`.
  func hold(_ pattern: String) {
    condition.lock()
    heldPatterns.insert(pattern)
    condition.unlock()
  }

  /// Lets held opens of `pattern` (and later ones) through.
  func release(_ pattern: String) {
    condition.lock()
    heldPatterns.remove(pattern)
    condition.broadcast()
    condition.unlock()
  }

  /// The paths of every open that arrived, in order (held ones included).
  var requestedPaths: [String] {
    condition.lock()
    defer { condition.unlock() }
    return log
  }

  /// Waits until `count` opens are being held.
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

  /// Logs the open of `request` and holds it while its path is held; throws `.cancelled`
  /// once the gate or `source` is cancelled.
  fileprivate func pass(_ request: DataRequest, for source: GatedSource) throws(PlayheadError) {
    let path = request.url.path
    condition.lock()
    log.append(path)
    waitingPaths.append(path)
    condition.broadcast()
    while !cancelled && !source.isCancelled
      && heldPatterns.contains(where: { path.contains($0) })
    {
      condition.wait()
    }
    if let index = waitingPaths.firstIndex(of: path) { waitingPaths.remove(at: index) }
    let wasCancelled = cancelled || source.isCancelled
    condition.unlock()
    if wasCancelled {
      throw PlayheadError(.cancelled, "load cancelled: \(path)", url: request.url)
    }
  }

  /// Wakes held opens so that they see a cancellation.
  fileprivate func wake() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// Makes every held and later open, and every transfer under way, throw `.cancelled`.
  func cancelAll() {
    condition.lock()
    cancelled = true
    let current = sources
    condition.broadcast()
    condition.unlock()
    for source in current { source.cancel() }
  }
}

/// One transfer through a `GateNetwork`: its open passes the gate, then the upstream's.
private final class GatedSource: DataSource, Sendable {
  let gate: GateNetwork
  let upstream: any DataSource
  private let cancelled = Locked(false)

  init(gate: GateNetwork, upstream: any DataSource) {
    self.gate = gate
    self.upstream = upstream
  }

  var isCancelled: Bool { cancelled.value }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    try gate.pass(request, for: self)
    return try upstream.open(request)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    try upstream.read(into: buffer)
  }

  func close() { upstream.close() }

  func cancel() {
    cancelled.withLock { $0 = true }
    upstream.cancel()
    gate.wake()
  }

  var bufferState: DataBufferState? { upstream.bufferState }

  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
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
