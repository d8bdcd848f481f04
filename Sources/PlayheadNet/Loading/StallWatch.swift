import Foundation
import PlayheadCore

/// Reports the stalls of one `DataLoader`'s watched transfers from a single worker of the
/// loader's clock, started with the first watched load and stopped when the loader goes.
///
/// The worker waits on a `MovableDeadline`, the earliest time a transfer would stall;
/// bytes that arrive postpone it without waking the worker, so a transfer that flows costs
/// no thread switch (on a fast-mode clock) and no thread of its own.
final class StallWatch: Sendable {
  private let clock: any Clock
  private let state = Locked(State())
  /// Raised when the earliest stall time moved earlier or went away, if the worker's wait
  /// must then re-read it, and when the loader goes.
  private let wake = WakeSignal()
  private let earliest = MovableDeadline(.positiveInfinity)
  /// Whether a move of `earliest` needs `wake` to reach the worker: on a scheduling clock
  /// the scheduler reads it live.
  private let movesNeedWake: Bool

  private struct Entry: Sendable {
    let transfer: LoadTransfer
    /// When the transfer stalls if nothing arrives first.
    var due: MediaTime
    /// The order transfers joined in: stalls at one time are reported in it.
    let order: UInt64
  }

  private struct State: Sendable {
    var entries: [ObjectIdentifier: Entry] = [:]
    var nextOrder: UInt64 = 0
    var workerStarted = false
    var stopped = false
  }

  init(clock: any Clock) {
    self.clock = clock
    movesNeedWake = !((clock as? ManualClock)?.schedulesWorkers ?? false)
  }

  /// Watches `transfer`, which stalls at `due` unless reports postpone it.
  func add(_ transfer: LoadTransfer, due: MediaTime) {
    let (startWorker, moved) = state.withLock { state -> (Bool, Bool) in
      state.entries[ObjectIdentifier(transfer)] = Entry(
        transfer: transfer, due: due, order: state.nextOrder)
      state.nextOrder += 1
      let startWorker = !state.workerStarted
      state.workerStarted = true
      return (startWorker, Self.moveEarliest(earliest, to: state.entries))
    }
    if startWorker {
      clock.startThread(named: "playhead.load-watch") { [self] in run() }
    } else if moved && movesNeedWake {
      wake.raise()
    }
  }

  /// `transfer` received something: it stalls at `due` now.
  func postpone(_ transfer: LoadTransfer, to due: MediaTime) {
    state.withLock { state in
      let key = ObjectIdentifier(transfer)
      guard state.entries[key] != nil else { return }
      state.entries[key]!.due = due
      _ = Self.moveEarliest(earliest, to: state.entries)
    }
  }

  /// Stops watching `transfer`.
  func remove(_ transfer: LoadTransfer) {
    let moved = state.withLock { state -> Bool in
      guard state.entries.removeValue(forKey: ObjectIdentifier(transfer)) != nil else {
        return false
      }
      return Self.moveEarliest(earliest, to: state.entries)
    }
    if moved && movesNeedWake { wake.raise() }
  }

  /// Ends the worker; the loader is going.
  func stop() {
    state.withLock { $0.stopped = true }
    wake.raise()
  }

  private func run() {
    while true {
      clock.wait(until: earliest, orUntil: wake)
      let stalled = state.withLock { state -> [LoadTransfer]? in
        if state.stopped { return nil }
        let now = clock.now
        var stalled: [Entry] = []
        for (key, entry) in state.entries where entry.due <= now {
          stalled.append(entry)
          // Reported now: the next report is one interval on, unless the callback
          // postpones it first.
          state.entries[key]!.due = .positiveInfinity
        }
        _ = Self.moveEarliest(earliest, to: state.entries)
        return stalled.sorted { $0.order < $1.order }.map(\.transfer)
      }
      guard let stalled else { return }
      for transfer in stalled { transfer.reportStall() }
    }
  }

  /// Moves `earliest` to the first due time among `entries`; returns whether that is an
  /// earlier time than before, or none (so a non-scheduling wait must re-read it).
  private static func moveEarliest(
    _ earliest: MovableDeadline, to entries: [ObjectIdentifier: Entry]
  ) -> Bool {
    let first = entries.values.map(\.due).min() ?? .positiveInfinity
    let before = earliest.time
    earliest.move(to: first)
    return first < before || (!first.isNumeric && before.isNumeric)
  }
}
