import Foundation
import PlayheadCore

@testable import PlayheadEngine

/// Forwards to a `ManualClock`, tells what the playback loop waits for, and counts the
/// loop's waits that return at once (a deadline already reached): a loop that spins makes
/// thousands of them.
final class SpinCountingClock: Clock, @unchecked Sendable {
  // Unchecked Sendable: the `var`s are guarded by `lock` (a condition signalled at each
  // loop wait); `inner` is thread-safe.
  private let inner: ManualClock
  private let lock = NSCondition()
  private var count = 0
  private var loopWaits = 0
  private var waiting: MediaTime?
  private var loopSignal: WakeSignal?

  init(_ inner: ManualClock) { self.inner = inner }

  /// Tells the clock which waits are the playback loop's: those on its wake signal.
  func follow(_ loop: PlaybackLoop) {
    lock.lock()
    loopSignal = loop.wake
    lock.unlock()
  }

  var now: MediaTime { inner.now }

  /// Waits of the playback thread whose deadline had already been reached.
  var immediateLoopWaits: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  /// How many waits the playback thread has begun: it changes whenever the loop woke
  /// (each decoded delivery wakes it).
  var loopWaitCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return loopWaits
  }

  /// Blocks until the playback thread has begun more than `count` waits (see
  /// `loopWaitCount`); false after `hostTimeoutMs` of real time.
  @discardableResult
  func waitForLoopWait(after count: Int, hostTimeoutMs: Int) -> Bool {
    let limit = Date(timeIntervalSinceNow: Double(hostTimeoutMs) / 1000)
    lock.lock()
    defer { lock.unlock() }
    while loopWaits <= count {
      if !lock.wait(until: limit) { return loopWaits > count }
    }
    return true
  }

  /// The deadline the playback thread is waiting for, if it is in a wait.
  var loopDeadline: MediaTime? {
    lock.lock()
    defer { lock.unlock() }
    return waiting
  }

  @discardableResult
  func wait(until deadline: MediaTime, orUntil signal: WakeSignal) -> Bool {
    lock.lock()
    guard signal === loopSignal else {
      lock.unlock()
      return inner.wait(until: deadline, orUntil: signal)
    }
    if deadline <= inner.now { count += 1 }
    loopWaits += 1
    lock.broadcast()
    waiting = deadline
    lock.unlock()
    defer {
      lock.lock()
      waiting = nil
      lock.unlock()
    }
    return inner.wait(until: deadline, orUntil: signal)
  }
}
