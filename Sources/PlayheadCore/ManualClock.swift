import Foundation

/// A clock that moves only when advanced: by a test, or by the engine in fast mode.
///
/// With `advancesOnWait` set (fast mode, `timing == .fast`) the clock schedules its
/// workers, the threads started with `startThread(named:stackSize:_:)` (a player's
/// threads) or running `runAsWorker(_:)`: one runs at a time, and once all of them wait
/// the clock jumps to the earliest deadline they wait for (see `ClockScheduler`). A
/// pipeline then runs as fast as its work allows, every timestamp it sees stays
/// consistent, and the same input gives the same events every run. A wait on another
/// thread moves the clock straight to its deadline. Without `advancesOnWait` a wait blocks
/// until another thread advances the clock past the deadline (or the wait's signal is
/// raised).
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
  /// Runs the workers in fast mode.
  private let scheduler: ClockScheduler?

  /// Creates a clock at `start` (default zero).
  public init(start: MediaTime = .zero, advancesOnWait: Bool = false) {
    self.nanoseconds =
      start.convertScale(1_000_000_000, rounding: .roundTowardNegativeInfinity).value
    self.advancesOnWait = advancesOnWait
    self.scheduler = advancesOnWait ? ClockScheduler() : nil
    scheduler?.clock = self
  }

  public var timing: PlaybackTiming { advancesOnWait ? .fast : .manual }

  /// Whether the clock runs its workers one at a time (fast mode): a worker's wait on a
  /// `MovableDeadline` then follows every move of it without being woken.
  public var schedulesWorkers: Bool { scheduler != nil }

  public func startThread(
    named name: String, stackSize: Int?, _ body: @escaping @Sendable () -> Void
  ) {
    if let scheduler {
      scheduler.spawn(named: name, stackSize: stackSize, body)
    } else {
      Clocks.startPlainThread(named: name, stackSize: stackSize, body)
    }
  }

  public func runAsWorker<T>(_ body: () throws -> T) rethrows -> T {
    guard let scheduler else { return try body() }
    return try scheduler.participate(body)
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
    setTime(to: target)
    scheduler?.clockMoved()
  }

  /// Moves the clock for its scheduler, which then releases the workers due itself.
  func moveForScheduler(to time: MediaTime) {
    setTime { _ in time }
  }

  private func setTime(to target: (Int64) -> MediaTime) {
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
    if let scheduler, let worker = scheduler.currentWorker() {
      return scheduler.wait(worker, until: deadline, orUntil: signal)
    }
    if advancesOnWait {
      // Consume a pending signal first so that commands are never starved.
      if signal.consumeIfRaised() { return false }
      // No deadline to jump to: wait for the signal.
      if !deadline.isNumeric {
        signal.waitUntilRaised()
        return false
      }
      advance(to: deadline)
      return true
    }
    // One key per wait, not per signal: two threads may wait on the same signal.
    lock.lock()
    let key = nextWaiterKey
    nextWaiterKey += 1
    waiters[key] = signal
    // A wait for a signal alone (an infinite deadline) is not blocked on a deadline.
    if deadline.isNumeric && deadline > MediaTime(value: nanoseconds, timescale: 1_000_000_000) {
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

  /// `wait(until:orUntil:)` for a movable deadline: a worker of the scheduler waits
  /// without a turn while the deadline moves; any other thread re-checks.
  func waitScheduled(until deadline: MovableDeadline, orUntil signal: WakeSignal) -> Bool {
    if let scheduler, let worker = scheduler.currentWorker() {
      return scheduler.wait(worker, until: deadline, orUntil: signal)
    }
    return Clocks.waitRechecking(self, until: deadline, orUntil: signal)
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
  /// false after `hostTimeoutMs` of real time (a guard against hangs in tests).
  ///
  /// A test that drives the clock uses this to advance only when the threads under test
  /// are all waiting, which makes their timing exact and repeatable.
  @discardableResult
  public func waitForBlockedWaits(count: Int, hostTimeoutMs: Int = 30_000) -> Bool {
    let limit = Date(timeIntervalSinceNow: Double(hostTimeoutMs) / 1000)
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
