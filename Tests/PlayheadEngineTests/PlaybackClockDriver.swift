import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadEngine

/// Plays the part of real time for one player on a `ManualClock` whose network runs on
/// the same clock (a `SimulatedDataSource`): time moves only once the threads that wait on
/// it have settled, so the schedule does not depend on the machine's speed or load.
///
/// While the item plays, time moves only when the playback loop waits on the clock for a
/// deadline still ahead, and never past that deadline; and only when the decoder is
/// ahead: the item's buffer is full (every decoded queue at its target, or the stream at
/// its end), or the loop has not woken for a tenth of a second of real time (each decoded
/// delivery wakes it, so the decoder waits for data that needs clock time). Otherwise
/// (opening, before the first frame, stalled) time moves to the earliest deadline any
/// thread waits for. Before each move a second waiter (a download) gets a moment to
/// settle.
final class PlaybackClockDriver {
  /// The clock the network and the wall time follow.
  let manual = ManualClock()
  /// The player's clock: `manual`, watched for the playback loop's waits.
  let clock: SpinCountingClock
  /// Moves made because the loop had not woken for a while with the buffer not full.
  private(set) var starvedMoves = 0

  init() { clock = SpinCountingClock(manual) }

  private static let ends: Set<String> = ["didPlayToEnd", "failedToPlayToEnd", "failed"]

  /// Drives `player` (made with `clock`) until its item ends; `onAdvance` runs after each
  /// move. Fails after `timeLimitSeconds` of real time.
  func drive(
    _ player: Player, recorder: EventRecorder, timeLimitSeconds: Double = 60,
    file: StaticString = #filePath, line: UInt = #line, onAdvance: () -> Void = {}
  ) {
    clock.follow(player.loop)
    let limit = Date(timeIntervalSinceNow: timeLimitSeconds)
    var lastLoopWait = (count: -1, since: Date())
    while !recorder.events.contains(where: { Self.ends.contains($0.name) }) {
      guard Date() < limit else {
        return XCTFail("clock driver gave up; events: \(recorder.names)", file: file, line: line)
      }
      let loopWaits = clock.loopWaitCount
      if loopWaits != lastLoopWait.count { lastLoopWait = (loopWaits, Date()) }
      let quiet = Date().timeIntervalSince(lastLoopWait.since) >= 0.1
      let blockedCount = manual.blockedWaitCount
      guard target(player, recorder, loopQuiet: quiet) != nil else {
        // Not yet: wake on the next wait that blocks, or re-check after a moment.
        _ = manual.waitForBlockedWaits(count: blockedCount + 1, hostTimeoutSeconds: 0.005)
        continue
      }
      // Let a second waiter (the downloader) settle too before time moves.
      _ = manual.waitForBlockedWaits(count: 2, hostTimeoutSeconds: 0.02)
      // The loop may have woken meanwhile (new data): move only while it still waits.
      if let next = target(player, recorder, loopQuiet: quiet && clock.loopWaitCount == loopWaits)
      {
        if quiet && !(player.currentItem?.isPlaybackBufferFull ?? true) { starvedMoves += 1 }
        manual.advance(to: next)
        onAdvance()
      }
    }
  }

  /// Where time may move to, or nil while it must not move (see the type).
  private func target(_ player: Player, _ recorder: EventRecorder, loopQuiet: Bool) -> MediaTime?
  {
    let now = manual.now
    let blocked = manual.nextBlockedDeadline.flatMap { $0 > now ? $0 : nil }
    let playing =
      player.timeControlStatus == .playing && recorder.names.contains("firstFrame")
    guard playing else { return blocked }
    // Read once: the loop may wake (new data) and leave its wait at any moment.
    guard let loopWait = clock.loopDeadline, loopWait > now else { return nil }
    guard (player.currentItem?.isPlaybackBufferFull ?? false) || loopQuiet else { return nil }
    return blocked.map { min($0, loopWait) } ?? loopWait
  }
}
