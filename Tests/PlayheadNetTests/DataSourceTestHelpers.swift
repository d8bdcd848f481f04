import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Records every transfer a loader or a meter reports.
final class RecordingListener: TransferListener, @unchecked Sendable {
  // Unchecked Sendable: `entries` is only touched under `lock`.
  struct Entry: Equatable {
    var url: URL
    var bytes: Int
    var duration: MediaTime
  }

  private let lock = NSLock()
  private var entries: [Entry] = []

  func transferEnded(request: DataRequest, bytes: Int, duration: MediaTime) {
    lock.lock()
    entries.append(Entry(url: request.url, bytes: bytes, duration: duration))
    lock.unlock()
  }

  var transfers: [Entry] {
    lock.lock()
    defer { lock.unlock() }
    return entries
  }
}

/// Collects progress reports and answers each with `decide` (default: keep going).
final class ProgressRecorder: @unchecked Sendable {
  // Unchecked Sendable: `reports` is only touched under `lock`; `decide` is immutable.
  private let lock = NSLock()
  private var collected: [TransferProgress] = []
  private let decide: @Sendable (TransferProgress) -> Bool

  init(decide: @escaping @Sendable (TransferProgress) -> Bool = { _ in true }) {
    self.decide = decide
  }

  var callback: @Sendable (TransferProgress) -> Bool {
    { [self] progress in
      lock.lock()
      collected.append(progress)
      lock.unlock()
      return decide(progress)
    }
  }

  var reports: [TransferProgress] {
    lock.lock()
    defer { lock.unlock() }
    return collected
  }
}

/// Passes everything to `upstream` and logs the requests it opens; `failNextRead(with:)`
/// makes the next read throw instead of reading. With `hidesLength`, heads say nothing of
/// the length (as a decrypting or a live source).
final class LoggingDataSource: DataSource, Sendable {
  let upstream: any DataSource
  let hidesLength: Bool
  private let state = Locked(State())

  private struct State: Sendable {
    var opened: [DataRequest] = []
    var readCount = 0
    var failure: PlayheadError?
  }

  init(_ upstream: any DataSource, hidesLength: Bool = false) {
    self.upstream = upstream
    self.hidesLength = hidesLength
  }

  /// Every request opened, in order.
  var requests: [DataRequest] { state.withLock { $0.opened } }
  /// The ranges opened, in order (nil: the whole resource).
  var ranges: [ByteRange?] { requests.map(\.range) }
  /// How many reads reached this source.
  var readCount: Int { state.withLock { $0.readCount } }

  func failNextRead(with error: PlayheadError) { state.withLock { $0.failure = error } }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    state.withLock { $0.opened.append(request) }
    var head = try upstream.open(request)
    if hidesLength {
      head.length = nil
      head.totalLength = nil
    }
    return head
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let failure = state.withLock { state -> PlayheadError? in
      state.readCount += 1
      defer { state.failure = nil }
      return state.failure
    }
    if let failure { throw failure }
    return try upstream.read(into: buffer)
  }

  func close() { upstream.close() }
  func cancel() { upstream.cancel() }
  var bufferState: DataBufferState? { upstream.bufferState }
  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }
}

/// Passes everything to `upstream`, but holds its first open until the test lets it go.
final class HoldingDataSource: DataSource, @unchecked Sendable {
  // Unchecked Sendable: the flags are guarded by `condition`.
  let upstream: any DataSource
  private let condition = NSCondition()
  private var held = false
  private var released = false

  init(_ upstream: any DataSource) { self.upstream = upstream }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    condition.lock()
    held = true
    condition.broadcast()
    while !released { condition.wait() }
    condition.unlock()
    return try upstream.open(request)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    try upstream.read(into: buffer)
  }

  func close() { upstream.close() }
  func cancel() { upstream.cancel() }

  /// Returns once an open is held.
  func waitUntilHeld() {
    condition.lock()
    while !held { condition.wait() }
    condition.unlock()
  }

  /// Lets the held open (and every later one) go on.
  func letGo() {
    condition.lock()
    released = true
    condition.broadcast()
    condition.unlock()
  }
}

/// A time of `milliseconds` in nanoseconds, the clocks' timescale.
func ms(_ milliseconds: Int64) -> MediaTime {
  MediaTime(nanoseconds: milliseconds * 1_000_000)
}

extension XCTestCase {
  /// Runs `body` on a new thread; the returned box holds its result once `done` is fulfilled.
  func runInBackground<T: Sendable>(
    _ description: String, _ body: @escaping @Sendable () throws -> T
  ) -> (done: XCTestExpectation, result: LockedBox<Result<T, PlayheadError>?>) {
    let done = expectation(description: description)
    let box = LockedBox<Result<T, PlayheadError>?>(nil)
    Thread.detachNewThread {
      do {
        box.value = .success(try body())
      } catch let error as PlayheadError {
        box.value = .failure(error)
      } catch {
        box.value = .failure(PlayheadError(.invalidState, "not a PlayheadError: \(error)"))
      }
      done.fulfill()
    }
    return (done, box)
  }

  /// The error a background run ended with; fails the test when it succeeded or did not end.
  func failure<T>(
    of run: (done: XCTestExpectation, result: LockedBox<Result<T, PlayheadError>?>),
    timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
  ) -> PlayheadError? {
    wait(for: [run.done], timeout: timeout)
    guard case .failure(let error)? = run.result.value else {
      XCTFail(
        "the run did not fail: \(String(describing: run.result.value))", file: file, line: line)
      return nil
    }
    return error
  }

  /// Waits until `source` stops loading at its read-ahead limit (or has every byte), as its
  /// buffer change handler tells.
  func waitUntilHoldingBack(_ source: any DataSource, timeout: TimeInterval = 10) {
    let held = expectation(description: "the source holds back")
    held.assertForOverFulfill = false
    source.setBufferChangeHandler { [source] in
      if source.bufferState?.isHoldingBack == true { held.fulfill() }
    }
    if source.bufferState?.isHoldingBack == true { held.fulfill() }
    wait(for: [held], timeout: timeout)
    source.setBufferChangeHandler(nil)
  }

  /// Waits (polling, never sleeping the test's logic) until `condition` holds.
  func waitUntil(
    _ description: String, timeout: TimeInterval = 10,
    _ condition: @escaping @Sendable () -> Bool
  ) {
    let predicate = NSPredicate { _, _ in condition() }
    let satisfied = XCTNSPredicateExpectation(predicate: predicate, object: nil)
    satisfied.expectationDescription = description
    wait(for: [satisfied], timeout: timeout)
  }

  /// A started server over `files` with `faults`, stopped by the test's teardown.
  func startServer(
    _ files: [String: Data], faults: [String: HTTPTestServer.Fault] = [:]
  ) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: files, faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }
}
