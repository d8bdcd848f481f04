import Foundation
import PlayheadCore
import XCTest

final class ClockSchedulerTests: XCTestCase {
  func testWorkerWaitIsScheduled() {
    let clock = ManualClock(advancesOnWait: true)
    let done = DispatchSemaphore(value: 0)
    let log = Locked<[String]>([])
    // Started from one of the clock's workers: time cannot move before both wait (a
    // thread outside the schedule is not waited for, so "a" could run to its end before
    // "b" exists).
    clock.runAsWorker {
      clock.startThread(named: "a") {
        for i in 0..<3 {
          clock.sleep(until: MediaTime(value: Int64(i * 2 + 1), timescale: 1))
          log.withLock { $0.append("a\(i)@\(clock.now.seconds)") }
        }
        done.signal()
      }
      clock.startThread(named: "b") {
        for i in 0..<3 {
          clock.sleep(until: MediaTime(value: Int64(i * 2 + 2), timescale: 1))
          log.withLock { $0.append("b\(i)@\(clock.now.seconds)") }
        }
        done.signal()
      }
    }
    done.wait()
    done.wait()
    XCTAssertEqual(
      log.withLock { $0 }, ["a0@1.0", "b0@2.0", "a1@3.0", "b1@4.0", "a2@5.0", "b2@6.0"])
  }
}
