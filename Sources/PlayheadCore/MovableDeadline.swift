import Foundation

/// A deadline that may move while a thread waits for it, without waking that thread: a
/// stall watch that every arriving byte postpones (`Clock.wait(until:orUntil:)`).
///
/// On a scheduling `ManualClock` the scheduler reads the deadline whenever it decides
/// which worker is due, so a postponed watch costs its waiter no turn. On any other clock
/// the waiter wakes at the old time, sees the new one and waits again.
public final class MovableDeadline: Sendable {
  private let stored: Locked<MediaTime>

  /// A deadline at `time`.
  public init(_ time: MediaTime) {
    stored = Locked(time)
  }

  /// The time the deadline stands at now.
  public var time: MediaTime { stored.value }

  /// Moves the deadline to `time`, earlier or later. A wait released at the old time but
  /// not yet returned waits on for the new one.
  public func move(to time: MediaTime) {
    stored.withLock { $0 = time }
  }
}

extension Clock {
  /// Blocks until the clock reaches `deadline`'s time (as it stands when the clock gets
  /// there) or `signal` is raised; returns `true` for the deadline, `false` for the signal.
  @discardableResult
  public func wait(until deadline: MovableDeadline, orUntil signal: WakeSignal) -> Bool {
    if let manual = self as? ManualClock {
      return manual.waitScheduled(until: deadline, orUntil: signal)
    }
    return Clocks.waitRechecking(self, until: deadline, orUntil: signal)
  }
}

extension Clocks {
  /// Waits for `deadline`'s time, and again whenever it moved while the wait slept.
  static func waitRechecking(
    _ clock: any Clock, until deadline: MovableDeadline, orUntil signal: WakeSignal
  ) -> Bool {
    while true {
      let time = deadline.time
      if !clock.wait(until: time, orUntil: signal) { return false }
      if clock.now >= deadline.time { return true }
    }
  }
}
