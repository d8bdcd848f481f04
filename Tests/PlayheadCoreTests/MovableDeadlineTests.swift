import Foundation
import PlayheadCore
import XCTest

private func ms(_ value: Int) -> MediaTime { .fromMilliseconds(value) }

final class MovableDeadlineTests: XCTestCase {
  /// Fast mode: a worker due at the same time as the waiter runs first and postpones the
  /// deadline, so the waiter returns once, at the new time.
  func testFastClock_aMoveAtTheDeadlinesTimePostponesTheWaiter() {
    let clock = ManualClock(advancesOnWait: true)
    let deadline = MovableDeadline(ms(100))
    let returns = Locked<[MediaTime]>([])
    let done = DispatchSemaphore(value: 0)
    clock.runAsWorker {
      clock.startThread(named: "waiter") {
        XCTAssertTrue(clock.wait(until: deadline, orUntil: WakeSignal()))
        returns.withLock { $0.append(clock.now) }
        done.signal()
      }
      clock.startThread(named: "mover") {
        clock.sleep(until: ms(100))
        deadline.move(to: ms(250))
        clock.sleep(until: ms(400))
        done.signal()
      }
    }
    done.wait()
    done.wait()
    XCTAssertEqual(returns.value, [ms(250)])
    XCTAssertEqual(clock.now, ms(400))
  }

  /// Fast mode: a deadline moved earlier while the waiter sleeps is where time next jumps.
  func testFastClock_aDeadlineMovedEarlierIsWhereTimeJumps() {
    let clock = ManualClock(advancesOnWait: true)
    let deadline = MovableDeadline(.positiveInfinity)
    let returned = Locked<MediaTime?>(nil)
    let done = DispatchSemaphore(value: 0)
    clock.runAsWorker {
      clock.startThread(named: "waiter") {
        XCTAssertTrue(clock.wait(until: deadline, orUntil: WakeSignal()))
        returned.withLock { $0 = clock.now }
        done.signal()
      }
      clock.startThread(named: "mover") {
        clock.sleep(until: ms(10))
        deadline.move(to: ms(70))
        clock.sleep(until: ms(500))
        done.signal()
      }
    }
    done.wait()
    done.wait()
    XCTAssertEqual(returned.value, ms(70))
  }

  /// A test-driven clock: the waiter released at the old time waits on for the new one.
  func testManualClock_aWaiterReleasedAtTheOldTimeWaitsForTheNewOne() {
    let clock = ManualClock()
    let deadline = MovableDeadline(ms(100))
    let returned = Locked<MediaTime?>(nil)
    let done = expectation(description: "wait returned")
    Thread.detachNewThread {
      XCTAssertTrue(clock.wait(until: deadline, orUntil: WakeSignal()))
      returned.withLock { $0 = clock.now }
      done.fulfill()
    }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    deadline.move(to: ms(200))
    clock.advance(to: ms(100))
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(clock.nextBlockedDeadline, ms(200))
    XCTAssertNil(returned.value)
    clock.advance(to: ms(200))
    wait(for: [done], timeout: 10)
    XCTAssertEqual(returned.value, ms(200))
  }

  func testSignal_endsTheWaitFirst() {
    let clock = ManualClock(advancesOnWait: true)
    let signal = WakeSignal()
    signal.raise()
    XCTAssertFalse(clock.wait(until: MovableDeadline(ms(100)), orUntil: signal))
    XCTAssertEqual(clock.now, .zero)
    XCTAssertTrue(HostClock().wait(until: MovableDeadline(.zero), orUntil: WakeSignal()))
  }
}
