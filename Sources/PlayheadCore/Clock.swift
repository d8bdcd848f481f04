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

  /// How the clock's time moves: in real time, as a test moves it, or as fast as the
  /// work of the threads that run on it allows (docs/decisions/0028).
  var timing: PlaybackTiming { get }

  /// Starts a thread named `name` that runs `body` as one of the clock's workers.
  ///
  /// On a clock that schedules its workers (`ManualClock` in fast mode) the thread runs
  /// only while every other worker waits, and time moves only once all of them wait; on
  /// any other clock this is a plain thread.
  func startThread(named name: String, stackSize: Int?, _ body: @escaping @Sendable () -> Void)

  /// Runs `body` on the calling thread as one of the clock's workers: no other worker runs
  /// and time does not move until `body` returns, so the commands it gives a player reach
  /// the player's thread together, at one clock time.
  ///
  /// On a clock that does not schedule its workers this simply runs `body`. Never call it
  /// from a thread that is already a worker of the clock (a player's own threads).
  func runAsWorker<T>(_ body: () throws -> T) rethrows -> T
}

extension Clock {
  public var advancesByItself: Bool { false }

  public var timing: PlaybackTiming { advancesByItself ? .realTime : .manual }

  public func startThread(
    named name: String, stackSize: Int?, _ body: @escaping @Sendable () -> Void
  ) {
    Clocks.startPlainThread(named: name, stackSize: stackSize, body)
  }

  /// Starts a worker thread with the default stack size (see
  /// `startThread(named:stackSize:_:)`).
  public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    startThread(named: name, stackSize: nil, body)
  }

  public func runAsWorker<T>(_ body: () throws -> T) rethrows -> T { try body() }

  /// Blocks until `signal` is raised; on a scheduling clock the wait lets the other
  /// workers run (and time move) meanwhile.
  public func wait(for signal: WakeSignal) {
    wait(until: .positiveInfinity, orUntil: signal)
  }

  /// Blocks until `deadline` with nothing that can wake the caller early.
  public func sleep(until deadline: MediaTime) {
    wait(until: deadline, orUntil: WakeSignal())
  }

  /// Waits for `duration` from now on this clock, asynchronously.
  ///
  /// Runs the blocking wait on a thread of the clock's own (`startThread`) so that a
  /// `ManualClock` can be advanced by the awaiting test without deadlocking it.
  public func sleep(for duration: MediaTime) async {
    let deadline = now + duration
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      startThread(named: "playhead.sleep") {
        self.sleep(until: deadline)
        continuation.resume()
      }
    }
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

/// Helpers shared by the clocks.
enum Clocks {
  /// Starts a plain `Thread` running `body`.
  static func startPlainThread(
    named name: String, stackSize: Int?, _ body: @escaping @Sendable () -> Void
  ) {
    let thread = Thread { body() }
    thread.name = name
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
  }
}
