import Foundation

/// A flag that one thread raises to wake another that waits on a `Clock`.
///
/// The flag stays raised until a wait consumes it, so a signal sent just before the wait
/// starts is not lost.
public final class WakeSignal: @unchecked Sendable {
  private let condition = NSCondition()
  private var raised = false
  /// Workers of a scheduling clock that wait on this signal (see `ClockScheduler`).
  private var scheduledWaiters: [ClockWorker] = []

  public init() {}

  /// Raises the flag and wakes every waiter.
  public func raise() {
    condition.lock()
    raised = true
    let waiters = scheduledWaiters
    condition.broadcast()
    condition.unlock()
    for worker in waiters { worker.scheduler.signalRaised(self, for: worker) }
  }

  /// Whether the flag is raised, without lowering it.
  var isRaised: Bool {
    condition.lock()
    defer { condition.unlock() }
    return raised
  }

  /// Registers a scheduled worker that waits on this signal; returns whether the flag is
  /// already raised (the worker then need not wait).
  func addScheduledWaiter(_ worker: ClockWorker) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    scheduledWaiters.append(worker)
    return raised
  }

  func removeScheduledWaiter(_ worker: ClockWorker) {
    condition.lock()
    scheduledWaiters.removeAll { $0 === worker }
    condition.unlock()
  }

  /// Blocks until the flag is raised, then lowers it.
  public func waitUntilRaised() {
    _ = block(hostTimeoutSeconds: nil) { false }
  }

  /// Lowers the flag if it is raised; returns whether it was.
  public func consumeIfRaised() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let wasRaised = raised
    raised = false
    return wasRaised
  }

  /// Blocks until the flag is raised or `isDue()` returns true, re-checking whenever
  /// `poke()` is called or `hostTimeout` seconds elapse (nil = no timeout).
  /// Returns `true` when `isDue` ended the wait, `false` when the raised flag did.
  func block(hostTimeoutSeconds: Double?, isDue: () -> Bool) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let limit = hostTimeoutSeconds.map { Date(timeIntervalSinceNow: max(0, $0)) }
    while true {
      if raised {
        raised = false
        return false
      }
      if isDue() { return true }
      if let limit {
        if !condition.wait(until: limit) {
          if raised {
            raised = false
            return false
          }
          return true
        }
      } else {
        condition.wait()
      }
    }
  }

  /// Wakes a waiter so that it re-checks its deadline, without raising the flag.
  func poke() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }
}
