import Foundation
import PlayheadCore
import XCTest

final class LockedTests: XCTestCase {
  /// Many threads incrementing one `Locked` counter lose no increment.
  func testConcurrentIncrementsGiveTheExactTotal() {
    let counter = Locked(0)
    let threads = 16
    let incrementsPerThread = 10_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<incrementsPerThread {
        counter.withLock { $0 += 1 }
      }
    }
    XCTAssertEqual(counter.value, threads * incrementsPerThread)
  }

  /// A read-modify-write inside one `withLock` is atomic: every thread sees a distinct
  /// value before its own increment.
  func testWithLockReturnsTheValueSeenUnderTheLock() {
    let counter = Locked(0)
    let seen = Locked([Int]())
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
      let before = counter.withLock { value in
        defer { value += 1 }
        return value
      }
      seen.withLock { $0.append(before) }
    }
    XCTAssertEqual(seen.value.sorted(), Array(0..<1_000))
  }

  /// What the closure throws passes through, and the value keeps what was done before the
  /// throw.
  func testWithLockRethrowsTheClosuresError() {
    struct Failure: Error, Equatable {}
    let value = Locked(1)
    XCTAssertThrowsError(
      try value.withLock { (stored: inout Int) throws(Failure) -> Void in
        stored = 2
        throw Failure()
      }
    ) { error in
      XCTAssertEqual(error as? Failure, Failure())
    }
    XCTAssertEqual(value.value, 2)
  }

  /// Identifiers taken from many threads at once are all different, and each thread's are
  /// increasing.
  func testProcessUniqueIDsAreUniqueAndIncreasingAcrossThreads() {
    let threads = 8
    let idsPerThread = 5_000
    let perThread = Locked([[UInt64]]())
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      var ids: [UInt64] = []
      ids.reserveCapacity(idsPerThread)
      for _ in 0..<idsPerThread { ids.append(ProcessUniqueID.next()) }
      perThread.withLock { $0.append(ids) }
    }
    let lists = perThread.value
    XCTAssertEqual(lists.count, threads)
    for ids in lists {
      XCTAssertEqual(ids, ids.sorted(), "one thread's identifiers are not increasing")
      XCTAssertEqual(Set(ids).count, ids.count)
    }
    let all = lists.flatMap { $0 }
    XCTAssertEqual(Set(all).count, threads * idsPerThread, "an identifier was handed out twice")
    XCTAssertFalse(all.contains(0), "identifiers start at 1")
    XCTAssertGreaterThan(ProcessUniqueID.next(), all.max() ?? 0)
  }
}
