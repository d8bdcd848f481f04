import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadEngine

/// Plays the part of real time for one player whose network runs on the same clock (a
/// `SimulatedNetwork`): a fast-mode `ManualClock`, whose scheduler moves time only
/// once every thread of the player waits on it (decision 0028), so the schedule depends
/// neither on the machine's speed nor on its load, and no heuristic decides when the
/// player is idle.
final class PlaybackClockDriver {
  /// The clock the network and the wall time follow, and the player's clock.
  let manual = ManualClock(advancesOnWait: true)
  /// The player's clock (the same clock as `manual`).
  var clock: ManualClock { manual }

  /// Waits until `player`'s item ends; fails after `timeLimitSeconds` of real time (a
  /// guard against hangs only).
  func drive(
    _ player: Player, recorder: EventRecorder, timeLimitSeconds: Double = 60,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    _ = recorder.waitForEnd(file: file, line: line)
  }

  /// Plays `player`: it starts on its own once its load control has the startup buffer.
  func playWhenBuffered(_ player: Player) {
    player.play()
  }
}
