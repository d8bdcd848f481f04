import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// The recorder the engine tests use: `PlayheadTesting`'s, with waits that fail the test
/// (naming the events seen so far) instead of returning a timeout.
typealias EventRecorder = PlayerEventRecorder

extension PlayerEventRecorder {
  /// Waits until `predicate` holds for the recorded events; fails the test after a
  /// generous real-time limit that only guards against hangs.
  @discardableResult
  func waitFor(
    _ description: String, timeoutMs: Int = 60_000, file: StaticString = #filePath,
    line: UInt = #line,
    _ predicate: ([PlayerEvent]) -> Bool
  ) -> Bool {
    guard waitUntil(timeoutMs: timeoutMs, predicate) else {
      XCTFail(
        "timed out waiting for \(description); events: \(names)", file: file, line: line)
      return false
    }
    return true
  }

  /// Waits for the `count`-th event with `name`.
  @discardableResult
  func waitFor(
    event name: String, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
  ) -> PlayerEvent? {
    guard let event = waitForEvent(named: name, count: count) else {
      XCTFail(
        "timed out waiting for \(count)× \(name); events: \(names)", file: file, line: line)
      return nil
    }
    return event
  }

  /// Waits for the periodic observer to have reported at least `count` times.
  func waitForPeriodic(count: Int, file: StaticString = #filePath, line: UInt = #line) {
    if !waitForPeriodic(count: count) {
      XCTFail("timed out waiting for \(count) periodic reports", file: file, line: line)
    }
  }

  /// Waits for the item to play to its end or fail.
  @discardableResult
  func waitForEnd(file: StaticString = #filePath, line: UInt = #line) -> PlayerEvent? {
    guard let event = waitForItemEnd() else {
      XCTFail("timed out waiting for end of item; events: \(names)", file: file, line: line)
      return nil
    }
    return event
  }
}

extension MediaTime {
  static func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1_000_000)
  }
}
