import Foundation
import PlayheadCore
import PlayheadNet
import XCTest

/// Records every transfer a data source reports.
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
}
