import Foundation

/// A source of time for the engine: every timer, timeout, retry delay and bandwidth
/// measurement reads one.
///
/// Times are `MediaTime` values in nanoseconds (timescale 1,000,000,000) from an
/// arbitrary origin. `HostClock` follows the machine's monotonic clock; `ManualClock`
/// moves only when it is advanced, by a test or by the engine in fast mode.
public protocol Clock: AnyObject, Sendable {
  /// The current time, in nanoseconds since the clock's origin.
  var now: MediaTime { get }

  /// Blocks the calling thread until the clock reaches `deadline` or `signal` is raised,
  /// whichever comes first.
  ///
  /// Returns `true` when the deadline was reached and `false` when the signal woke the
  /// caller first. A raised signal is consumed by the call it wakes. A deadline already
  /// in the past returns `true` at once.
  @discardableResult
  func wait(until deadline: MediaTime, orUntil signal: WakeSignal) -> Bool

  /// Whether the clock moves on its own, whatever its waiters do (`HostClock`); false for
  /// a clock that moves only when advanced (`ManualClock`, and by default any other), where
  /// a deadline that a thread waits for may be where time next jumps.
  var advancesByItself: Bool { get }
}

extension Clock {
  public var advancesByItself: Bool { false }

  /// Blocks until `deadline` with nothing that can wake the caller early.
  public func sleep(until deadline: MediaTime) {
    wait(until: deadline, orUntil: WakeSignal())
  }

  /// Waits for `duration` from now on this clock, asynchronously.
  ///
  /// Runs the blocking wait on a background thread so that a `ManualClock` can be
  /// advanced by the awaiting test without deadlocking it.
  public func sleep(for duration: MediaTime) async {
    let deadline = now + duration
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        self.sleep(until: deadline)
        continuation.resume()
      }
    }
  }
}

/// A flag that one thread raises to wake another that waits on a `Clock`.
///
/// The flag stays raised until a wait consumes it, so a signal sent just before the wait
/// starts is not lost.
public final class WakeSignal: @unchecked Sendable {
  private let condition = NSCondition()
  private var raised = false

  public init() {}

  /// Raises the flag and wakes every waiter.
  public func raise() {
    condition.lock()
    raised = true
    condition.broadcast()
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

/// The machine's monotonic clock (`CLOCK_MONOTONIC` through `DispatchTime`).
public final class HostClock: Clock {
  public init() {}

  /// The one host clock every real-time player shares by default.
  public static let shared = HostClock()

  public var advancesByItself: Bool { true }

  public var now: MediaTime {
    MediaTime(value: Int64(DispatchTime.now().uptimeNanoseconds), timescale: 1_000_000_000)
  }

  @discardableResult
  public func wait(until deadline: MediaTime, orUntil signal: WakeSignal) -> Bool {
    // Waits in slices of at most a day: Foundation's timed wait traps on a limit beyond
    // Int64 nanoseconds since 1970 (a `+inf` deadline, for one).
    while true {
      let remaining = (deadline - now).seconds
      if !(remaining > 0) { return true }
      let due = signal.block(hostTimeoutSeconds: min(remaining, 86_400)) {
        !((deadline - now).seconds > 0)
      }
      if !due { return false }
      if !((deadline - now).seconds > 0) { return true }
    }
  }
}

/// A clock that moves only when advanced: by a test, or by the engine in fast mode.
///
/// With `advancesOnWait` set, a wait moves the clock straight to its deadline instead
/// of blocking, so a pipeline runs as fast as its work allows while every timestamp it
/// sees stays consistent. Otherwise a wait blocks until another thread advances the
/// clock past the deadline (or the wait's signal is raised).
public final class ManualClock: Clock, @unchecked Sendable {
  private let lock = NSLock()
  private var nanoseconds: Int64
  private var waiters: [Int: WakeSignal] = [:]
  /// The deadline of each wait still blocked: a wait leaves this set as soon as an
  /// advance reaches its deadline, before its thread has even woken.
  private var blockedDeadlines: [Int: MediaTime] = [:]
  private let blockedChanged = NSCondition()
  private var nextWaiterKey = 0
  /// Whether a wait jumps the clock to its deadline (fast mode) instead of blocking.
  public let advancesOnWait: Bool

  /// Creates a clock at `start` (default zero).
  public init(start: MediaTime = .zero, advancesOnWait: Bool = false) {
    self.nanoseconds =
      start.convertScale(1_000_000_000, rounding: .roundTowardNegativeInfinity).value
    self.advancesOnWait = advancesOnWait
  }

  public var now: MediaTime {
    lock.lock()
    defer { lock.unlock() }
    return MediaTime(value: nanoseconds, timescale: 1_000_000_000)
  }

  /// Moves the clock forward by `duration`; a negative duration is ignored.
  public func advance(by duration: MediaTime) {
    move { current in MediaTime(value: current, timescale: 1_000_000_000) + duration }
  }

  /// Moves the clock to `time` if that is later than now; never moves it backwards.
  public func advance(to time: MediaTime) {
    move { _ in time }
  }

  /// Moves the clock to `target(now)` if that is later, computing it under the lock so that
  /// concurrent advances never lose one another, then wakes every waiter.
  private func move(to target: (Int64) -> MediaTime) {
    lock.lock()
    let time = target(nanoseconds)
    let scaled = time.convertScale(1_000_000_000, rounding: .roundTowardPositiveInfinity)
    if scaled.isNumeric && scaled.value > nanoseconds { nanoseconds = scaled.value }
    let reached = MediaTime(value: nanoseconds, timescale: 1_000_000_000)
    blockedDeadlines = blockedDeadlines.filter { $0.value > reached }
    let toWake = Array(waiters.values)
    lock.unlock()
    for signal in toWake { signal.poke() }
  }

  @discardableResult
  public func wait(until deadline: MediaTime, orUntil signal: WakeSignal) -> Bool {
    if advancesOnWait {
      // Consume a pending signal first so that commands are never starved.
      if signal.consumeIfRaised() { return false }
      advance(to: deadline)
      return true
    }
    // One key per wait, not per signal: two threads may wait on the same signal.
    lock.lock()
    let key = nextWaiterKey
    nextWaiterKey += 1
    waiters[key] = signal
    if deadline > MediaTime(value: nanoseconds, timescale: 1_000_000_000) {
      blockedDeadlines[key] = deadline
    }
    lock.unlock()
    blockedChanged.lock()
    blockedChanged.broadcast()
    blockedChanged.unlock()
    defer {
      lock.lock()
      waiters[key] = nil
      blockedDeadlines[key] = nil
      lock.unlock()
    }
    return signal.block(hostTimeoutSeconds: nil) { self.now >= deadline }
  }

  /// How many waits are blocked on a deadline the clock has not reached.
  public var blockedWaitCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return blockedDeadlines.count
  }

  /// The earliest deadline a blocked wait is waiting for, if any.
  public var nextBlockedDeadline: MediaTime? {
    lock.lock()
    defer { lock.unlock() }
    return blockedDeadlines.values.min()
  }

  /// Blocks the caller until at least `count` waits are blocked on the clock; returns
  /// false after `hostTimeoutSeconds` of real time (a guard against hangs in tests).
  ///
  /// A test that drives the clock uses this to advance only when the threads under test
  /// are all waiting, which makes their timing exact and repeatable.
  @discardableResult
  public func waitForBlockedWaits(count: Int, hostTimeoutSeconds: Double = 30) -> Bool {
    let limit = Date(timeIntervalSinceNow: hostTimeoutSeconds)
    blockedChanged.lock()
    defer { blockedChanged.unlock() }
    while blockedWaitCount < count {
      if !blockedChanged.wait(until: min(limit, Date(timeIntervalSinceNow: 0.01)))
        && Date() >= limit
      {
        return false
      }
    }
    return true
  }
}
