import Foundation
import PlayheadCore
import XCTest

/// A value written by one thread and read by another after an expectation.
private final class Box<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value?
  var value: Value? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

final class ClockTests: XCTestCase {
  private let second = MediaTime(value: 1, timescale: 1)

  /// Runs `clock.wait` on a new thread; the expectation is fulfilled when it returns.
  private func waitOnThread(
    _ clock: any Clock, until deadline: MediaTime, signal: WakeSignal, result: Box<Bool>
  ) -> XCTestExpectation {
    let done = expectation(description: "wait until \(deadline) returned")
    Thread.detachNewThread {
      result.value = clock.wait(until: deadline, orUntil: signal)
      done.fulfill()
    }
    return done
  }

  func testManualClock_startsAtStartTime() {
    XCTAssertEqual(ManualClock().now, .zero)
    XCTAssertEqual(ManualClock(start: time(3, 2)).now, time(3, 2))
    XCTAssertEqual(ManualClock().now.timescale, 1_000_000_000)
  }

  func testManualClock_advanceNeverGoesBackward() {
    let clock = ManualClock()
    clock.advance(to: time(5, 1))
    XCTAssertEqual(clock.now, time(5, 1))
    clock.advance(to: time(3, 1))
    XCTAssertEqual(clock.now, time(5, 1))
    clock.advance(by: time(-1, 1))
    XCTAssertEqual(clock.now, time(5, 1))
    clock.advance(by: second)
    XCTAssertEqual(clock.now, time(6, 1))
    clock.advance(to: .negativeInfinity)
    clock.advance(to: .invalid)
    clock.advance(to: .indefinite)
    XCTAssertEqual(clock.now, time(6, 1))
  }

  func testManualClock_advanceToNonNumericTimeNeverMovesANegativeClock() {
    let clock = ManualClock(start: time(-5, 1))
    clock.advance(to: .invalid)
    clock.advance(by: .invalid)
    XCTAssertEqual(clock.now, time(-5, 1))
  }

  func testManualClock_advanceRoundsUpToWholeNanoseconds() {
    let clock = ManualClock()
    clock.advance(to: time(1, 3))
    XCTAssertEqual(clock.now, MediaTime(nanoseconds: 333_333_334))
    XCTAssertGreaterThanOrEqual(clock.now, time(1, 3))
  }

  func testManualClock_concurrentAdvancesAreNotLost() {
    let clock = ManualClock()
    let step = MediaTime(nanoseconds: 1)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 { clock.advance(by: step) }
    }
    XCTAssertEqual(clock.now, MediaTime(nanoseconds: 4_000))
  }

  func testManualClock_waitReturnsTrueOnceAnotherThreadAdvancesPastDeadline() {
    let clock = ManualClock()
    let result = Box<Bool>()
    let done = waitOnThread(clock, until: time(2, 1), signal: WakeSignal(), result: result)
    clock.advance(by: second)
    clock.advance(to: time(5, 2))
    wait(for: [done], timeout: 10)
    XCTAssertEqual(result.value, true)
  }

  func testManualClock_deadlineAlreadyPassedReturnsTrue() {
    let clock = ManualClock(start: time(10, 1))
    XCTAssertTrue(clock.wait(until: time(3, 1), orUntil: WakeSignal()))
    XCTAssertTrue(clock.wait(until: time(10, 1), orUntil: WakeSignal()))
  }

  func testManualClock_twoWaitersOnOneSignalBothWake() {
    let clock = ManualClock()
    let signal = WakeSignal()
    let first = Box<Bool>()
    let second = Box<Bool>()
    let firstDone = waitOnThread(clock, until: time(1, 1), signal: signal, result: first)
    let secondDone = waitOnThread(clock, until: time(2, 1), signal: signal, result: second)
    clock.advance(to: time(1, 1))
    wait(for: [firstDone], timeout: 10)
    clock.advance(to: time(2, 1))
    wait(for: [secondDone], timeout: 10)
    XCTAssertEqual(first.value, true)
    XCTAssertEqual(second.value, true)
  }

  func testManualClock_raisedSignalEndsWaitWithFalse() {
    let clock = ManualClock()
    let signal = WakeSignal()
    let result = Box<Bool>()
    let done = waitOnThread(clock, until: time(10, 1), signal: signal, result: result)
    signal.raise()
    wait(for: [done], timeout: 10)
    XCTAssertEqual(result.value, false)
    XCTAssertFalse(signal.consumeIfRaised(), "the wait consumes the signal")
    XCTAssertEqual(clock.now, .zero)
  }

  func testManualClock_signalRaisedBeforeWaitIsNotLost() {
    let clock = ManualClock()
    let signal = WakeSignal()
    signal.raise()
    XCTAssertFalse(clock.wait(until: time(10, 1), orUntil: signal))
    XCTAssertFalse(signal.consumeIfRaised())
  }

  func testManualClock_advancesOnWait_jumpsToDeadline() {
    let clock = ManualClock(advancesOnWait: true)
    XCTAssertTrue(clock.wait(until: time(5, 2), orUntil: WakeSignal()))
    XCTAssertEqual(clock.now, time(5, 2))
    XCTAssertTrue(clock.wait(until: time(1, 1), orUntil: WakeSignal()))
    XCTAssertEqual(clock.now, time(5, 2), "a past deadline never moves the clock back")
  }

  func testManualClock_advancesOnWait_pendingSignalWinsAndClockStays() {
    let clock = ManualClock(advancesOnWait: true)
    let signal = WakeSignal()
    signal.raise()
    XCTAssertFalse(clock.wait(until: time(5, 1), orUntil: signal))
    XCTAssertEqual(clock.now, .zero)
    XCTAssertTrue(clock.wait(until: time(5, 1), orUntil: signal))
    XCTAssertEqual(clock.now, time(5, 1))
  }

  func testManualClock_sleepForDuration_resumesAfterAdvance() async {
    let clock = ManualClock(advancesOnWait: true)
    await clock.sleep(for: time(3, 1))
    XCTAssertEqual(clock.now, time(3, 1))
  }

  func testHostClock_pastDeadlineReturnsTrueImmediately() {
    let clock = HostClock()
    XCTAssertTrue(clock.wait(until: clock.now - second, orUntil: WakeSignal()))
    XCTAssertTrue(clock.wait(until: clock.now, orUntil: WakeSignal()))
    XCTAssertTrue(clock.wait(until: .negativeInfinity, orUntil: WakeSignal()))
  }

  func testHostClock_isMonotonic() {
    let clock = HostClock.shared
    let first = clock.now
    let second = clock.now
    XCTAssertTrue(first.isNumeric)
    XCTAssertLessThanOrEqual(first, second)
  }

  func testHostClock_raisedSignalEndsFarWaitWithFalse() {
    let clock = HostClock()
    let signal = WakeSignal()
    signal.raise()
    XCTAssertFalse(clock.wait(until: clock.now + time(3_600, 1), orUntil: signal))
  }

  func testHostClock_infiniteDeadlineWaitsForSignal() {
    let clock = HostClock()
    let signal = WakeSignal()
    let result = Box<Bool>()
    let done = waitOnThread(clock, until: .positiveInfinity, signal: signal, result: result)
    signal.raise()
    wait(for: [done], timeout: 10)
    XCTAssertEqual(result.value, false)
  }

  func testHostClock_shortWaitReachesDeadline() {
    let clock = HostClock()
    let deadline = clock.now + MediaTime(milliseconds: 5)
    XCTAssertTrue(clock.wait(until: deadline, orUntil: WakeSignal()))
    XCTAssertGreaterThanOrEqual(clock.now, deadline)
  }
}
