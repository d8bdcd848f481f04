import Foundation

/// One thread taking part in a `ClockScheduler`: it runs only while it holds the
/// scheduler's turn.
final class ClockWorker: @unchecked Sendable {
  // Unchecked Sendable: `deadline`, `signal` and `order` are guarded by the scheduler's
  // lock; `permit` is thread-safe.
  let scheduler: ClockScheduler
  /// Signalled when the worker is given the turn.
  let permit = DispatchSemaphore(value: 0)
  /// What the worker waits for while it is blocked: a fixed time, or a movable deadline
  /// read each time the scheduler looks.
  var fixedDeadline: MediaTime = .positiveInfinity
  var movableDeadline: MovableDeadline?
  var signal: WakeSignal?
  /// Whether it became runnable because time reached its deadline (not a signal or a
  /// yield).
  var releasedByDeadline = false
  /// When it began to wait, for a stable order among equal deadlines.
  var order: UInt64 = 0

  init(scheduler: ClockScheduler) { self.scheduler = scheduler }

  /// The time the worker waits for now.
  var deadline: MediaTime { movableDeadline?.time ?? fixedDeadline }
}

/// Runs the worker threads of a fast-mode `ManualClock` one at a time, and moves time
/// only when every one of them waits (docs/decisions/0028).
///
/// A worker gives up its turn only by waiting on the clock (a deadline, a `WakeSignal`
/// or both); the turn then passes to the worker that became runnable first. Workers
/// become runnable in a fixed order: a raised signal wakes its waiter at once, a deadline
/// once time reaches it (ties in the order the waits began). When no worker can run,
/// time jumps to the earliest deadline a worker waits for. So the interleaving, and with
/// it every decision the workers take, depends only on what they do, not on the machine's
/// speed or load; and no deadline comes due while a worker still has work to do, so a
/// decoder is never behind the clock.
///
/// A thread that is not a worker is not held: it may raise signals (a command from the
/// application) and advance the clock at any moment.
final class ClockScheduler: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `lock`.
  private let lock = NSLock()
  /// The clock whose time the scheduler moves; set once, right after both are made.
  weak var clock: ManualClock?
  private var running: ClockWorker?
  private var runnable: [ClockWorker] = []
  private var blocked: [ClockWorker] = []
  private var nextOrder: UInt64 = 0
  /// Workers that gave up their turn to wait for something outside the clock (a network
  /// transfer); time does not move while any does.
  private var outside: [ClockWorker] = []

  private static let threadKey = "playhead.clockWorker"

  /// The worker of this scheduler that runs on the calling thread, if any.
  func currentWorker() -> ClockWorker? {
    guard let worker = Self.callingWorker(), worker.scheduler === self else { return nil }
    return worker
  }

  /// The worker of any scheduler that runs on the calling thread, if any.
  static func callingWorker() -> ClockWorker? {
    Thread.current.threadDictionary[threadKey] as? ClockWorker
  }

  /// `worker` waits for something outside the clock: the other workers may run meanwhile,
  /// but time does not move.
  func releaseTurn(_ worker: ClockWorker) {
    lock.lock()
    if running === worker { running = nil }
    outside.append(worker)
    dispatchLocked()
    lock.unlock()
  }

  /// `worker`'s outside wait is over: it runs again once the turn reaches it.
  func reacquireTurn(_ worker: ClockWorker) {
    lock.lock()
    guard let index = outside.firstIndex(where: { $0 === worker }) else {
      lock.unlock()
      return
    }
    outside.remove(at: index)
    yieldLocked(worker)
  }

  /// Starts a worker thread; it runs once the turn reaches it.
  func spawn(named name: String, stackSize: Int?, _ body: @escaping @Sendable () -> Void) {
    let worker = ClockWorker(scheduler: self)
    lock.lock()
    runnable.append(worker)
    dispatchLocked()
    lock.unlock()
    Clocks.startPlainThread(named: name, stackSize: stackSize) { [self] in
      Thread.current.threadDictionary[Self.threadKey] = worker
      worker.permit.wait()
      body()
      Thread.current.threadDictionary[Self.threadKey] = nil
      leave(worker)
    }
  }

  /// Runs `body` on the calling thread as a worker.
  func participate<T>(_ body: () throws -> T) rethrows -> T {
    if currentWorker() != nil { return try body() }
    let worker = ClockWorker(scheduler: self)
    lock.lock()
    runnable.append(worker)
    dispatchLocked()
    lock.unlock()
    Thread.current.threadDictionary[Self.threadKey] = worker
    worker.permit.wait()
    defer {
      Thread.current.threadDictionary[Self.threadKey] = nil
      leave(worker)
    }
    return try body()
  }

  private func leave(_ worker: ClockWorker) {
    lock.lock()
    if running === worker { running = nil }
    runnable.removeAll { $0 === worker }
    blocked.removeAll { $0 === worker }
    outside.removeAll { $0 === worker }
    dispatchLocked()
    lock.unlock()
  }

  /// The scheduled form of `Clock.wait(until:orUntil:)` with a movable deadline: the
  /// worker is released once time reaches the deadline as it then stands.
  func wait(_ worker: ClockWorker, until deadline: MovableDeadline, orUntil signal: WakeSignal)
    -> Bool
  {
    while true {
      let reached = wait(worker, until: deadline.time, movable: deadline, orUntil: signal)
      if !reached { return false }
      // Moved while the worker waited for the turn: wait on.
      if (clock?.now ?? .zero) >= deadline.time { return true }
    }
  }

  /// The scheduled form of `Clock.wait(until:orUntil:)` for `worker`, which holds the turn.
  func wait(_ worker: ClockWorker, until deadline: MediaTime, orUntil signal: WakeSignal)
    -> Bool
  {
    wait(worker, until: deadline, movable: nil, orUntil: signal)
  }

  private func wait(
    _ worker: ClockWorker, until deadline: MediaTime, movable: MovableDeadline?,
    orUntil signal: WakeSignal
  ) -> Bool {
    // A worker waiting outside the clock (a transfer's progress callback) takes its turn
    // back first, and gives it up again after.
    let wasOutside = lock.withLock { outside.contains { $0 === worker } }
    if wasOutside { reacquireTurn(worker) }
    defer { if wasOutside { releaseTurn(worker) } }
    if signal.consumeIfRaised() { return false }
    lock.lock()
    let now = clock?.now ?? .zero
    if deadline <= now {
      // Due already: the worker goes on, after any other that can run.
      guard !runnable.isEmpty else {
        lock.unlock()
        return true
      }
      yieldLocked(worker)
      return true
    }
    worker.fixedDeadline = deadline
    worker.movableDeadline = movable
    worker.signal = signal
    worker.order = nextOrder
    nextOrder += 1
    if signal.addScheduledWaiter(worker) {
      // Raised since the check above, by a thread that is not a worker.
      signal.removeScheduledWaiter(worker)
      lock.unlock()
      _ = signal.consumeIfRaised()
      return false
    }
    blocked.append(worker)
    if running === worker { running = nil }
    dispatchLocked()
    lock.unlock()
    worker.permit.wait()
    signal.removeScheduledWaiter(worker)
    return !signal.consumeIfRaised()
  }

  /// Puts `worker` behind the runnable ones and waits for its turn; called with the lock
  /// held, returns with it released.
  private func yieldLocked(_ worker: ClockWorker) {
    runnable.append(worker)
    if running === worker { running = nil }
    dispatchLocked()
    lock.unlock()
    worker.permit.wait()
  }

  /// `signal` was raised: its waiter `worker` becomes runnable.
  func signalRaised(_ signal: WakeSignal, for worker: ClockWorker) {
    lock.lock()
    if worker.signal === signal, let index = blocked.firstIndex(where: { $0 === worker }) {
      blocked.remove(at: index)
      runnable.append(worker)
      dispatchLocked()
    }
    lock.unlock()
  }

  /// Time was moved by a thread that is not a worker: the workers it reached run.
  func clockMoved() {
    lock.lock()
    releaseDueLocked()
    dispatchLocked()
    lock.unlock()
  }

  /// Gives the turn to the next runnable worker if none holds it; when none can run, time
  /// first jumps to the earliest deadline a worker waits for.
  ///
  /// A worker released by a movable deadline that has since moved past now goes back to
  /// waiting without taking the turn (a stall watch postponed by the bytes that arrived at
  /// its time).
  private func dispatchLocked() {
    guard running == nil else { return }
    while true {
      if runnable.isEmpty {
        guard outside.isEmpty else { return }
        let timed = blocked.filter { $0.deadline.isNumeric }
        guard let earliest = timed.min(by: Self.comesFirst), let clock else { return }
        clock.moveForScheduler(to: earliest.deadline)
        releaseDueLocked()
      }
      guard !runnable.isEmpty else { return }
      let next = runnable.removeFirst()
      if next.releasedByDeadline {
        next.releasedByDeadline = false
        if next.movableDeadline != nil, let now = clock?.now, next.deadline > now,
          !(next.signal?.isRaised ?? false)
        {
          blocked.append(next)
          continue
        }
      }
      running = next
      next.permit.signal()
      return
    }
  }

  /// Moves every blocked worker whose deadline time has reached to the runnable ones, in
  /// deadline order (ties: fixed deadlines before movable ones, so that what arrives at a
  /// stall watch's time postpones it first; then the order their waits began).
  private func releaseDueLocked() {
    guard let now = clock?.now else { return }
    let due = blocked.filter { $0.deadline.isNumeric && $0.deadline <= now }
    guard !due.isEmpty else { return }
    blocked.removeAll { worker in due.contains { $0 === worker } }
    for worker in due { worker.releasedByDeadline = true }
    runnable.append(contentsOf: due.sorted(by: Self.comesFirst))
  }

  private static func comesFirst(_ a: ClockWorker, _ b: ClockWorker) -> Bool {
    let (aTime, bTime) = (a.deadline, b.deadline)
    if aTime != bTime { return aTime < bTime }
    let (aMovable, bMovable) = (a.movableDeadline != nil, b.movableDeadline != nil)
    if aMovable != bMovable { return bMovable }
    return a.order < b.order
  }
}

/// A fast-mode worker's turn, given up while it waits for something outside the clock.
public struct ClockTurn {
  fileprivate let worker: ClockWorker

  /// Gives up the calling thread's turn if it is a worker of a scheduling clock (nil
  /// otherwise): the clock's other workers may run while it waits for a network transfer
  /// or another thread, though time does not move until it takes the turn back.
  ///
  /// Call `reacquire()` once the wait is over, holding no lock another worker may need.
  public static func release() -> ClockTurn? {
    guard let worker = ClockScheduler.callingWorker() else { return nil }
    worker.scheduler.releaseTurn(worker)
    return ClockTurn(worker: worker)
  }

  /// Waits for the turn again.
  public func reacquire() {
    worker.scheduler.reacquireTurn(worker)
  }
}
