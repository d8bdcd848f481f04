import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadEngine

/// Plays the part of real time for one player on a `ManualClock` whose network runs on
/// the same clock (a `SimulatedDataSource`): time moves only once the threads that wait on
/// it have settled, so the schedule does not depend on the machine's speed or load.
///
/// Time never moves past the deadline the playback loop waits for. While the player is
/// set to play, time moves only when the loop waits on the clock for a deadline still
/// ahead and the decoder is ahead of it: the item's buffer is full (every decoded queue at
/// its target, or the stream at its end), or the loop has not begun a wait for
/// `quietSeconds` of real time (each decoded delivery wakes it, so the decoder waits for
/// data that needs clock time). A loop out of its clock wait for that long waits for data
/// off the clock (before its first frame, or stalled): time then moves to the earliest
/// deadline a thread (a download) waits for. Otherwise (opening, paused, waiting) time
/// moves to that earliest deadline at once. Before each move a second waiter (a download
/// on its way to its transfer) gets a moment to settle.
final class PlaybackClockDriver {
  /// The clock the network and the wall time follow.
  let manual = ManualClock()
  /// The player's clock: `manual`, watched for the playback loop's waits.
  let clock: SpinCountingClock

  init() { clock = SpinCountingClock(manual) }

  /// How long the loop must not have begun a wait before the driver takes it as waiting
  /// for data that needs clock time (rather than busy).
  private static let quietSeconds = 0.2

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
      let quiet = Date().timeIntervalSince(lastLoopWait.since) >= Self.quietSeconds
      let blockedCount = manual.blockedWaitCount
      guard target(player, loopQuiet: quiet) != nil else {
        // Not yet: wake on the loop's next wait (it wakes at each decoded delivery) or the
        // next wait that blocks, or re-check after a moment.
        if isPlaying(player) {
          clock.waitForLoopWait(after: loopWaits, hostTimeoutSeconds: 0.005)
        } else {
          _ = manual.waitForBlockedWaits(count: blockedCount + 1, hostTimeoutSeconds: 0.005)
        }
        continue
      }
      // Let a second waiter (a download on its way to its transfer) settle a moment too.
      _ = manual.waitForBlockedWaits(count: 2, hostTimeoutSeconds: 0.002)
      // The loop may have woken meanwhile (new data): move only while it still waits in
      // the wait judged above.
      guard clock.loopWaitCount == loopWaits || !isPlaying(player) else { continue }
      if let next = target(player, loopQuiet: quiet) {
        manual.advance(to: next)
        onAdvance()
      }
    }
  }

  /// Drives `player` paused (time moves to the earliest deadline a download waits for)
  /// until its item has frames decoded ahead (likely to keep up, or its buffer full), then
  /// plays it. Playback then starts on a decoded first frame: a loop that waited off the
  /// clock for its first frame while the decoder was busy could otherwise be judged quiet,
  /// and time moved under it. Fails after `timeLimitSeconds` of real time, or when the item
  /// fails first.
  func playWhenBuffered(
    _ player: Player, timeLimitSeconds: Double = 30, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    clock.follow(player.loop)
    let limit = Date(timeIntervalSinceNow: timeLimitSeconds)
    while true {
      let item = player.currentItem
      if item?.isDecodedBufferFull == true || item?.isPlaybackLikelyToKeepUp == true { break }
      if case .failed(let error)? = item?.status {
        return XCTFail(
          "the item failed before it buffered: \(error)",
          file: file, line: line)
      }
      guard Date() < limit else {
        return XCTFail("the item never buffered while paused", file: file, line: line)
      }
      let blockedCount = manual.blockedWaitCount
      guard let next = target(player, loopQuiet: false) else {
        _ = manual.waitForBlockedWaits(count: blockedCount + 1, hostTimeoutSeconds: 0.005)
        continue
      }
      // Let a second waiter (a download on its way to its transfer) settle a moment too.
      _ = manual.waitForBlockedWaits(count: 2, hostTimeoutSeconds: 0.002)
      manual.advance(to: next)
    }
    player.play()
  }

  /// Whether the player is set to play (the loop then waits on the clock for each frame).
  private func isPlaying(_ player: Player) -> Bool {
    player.timeControlStatus == .playing
  }

  /// Where time may move to, or nil while it must not move (see the type). Never past the
  /// deadline the loop waits for.
  private func target(_ player: Player, loopQuiet: Bool) -> MediaTime? {
    let now = manual.now
    let blocked = manual.nextBlockedDeadline.flatMap { $0 > now ? $0 : nil }
    // Read once: the loop may wake (new data) and leave its wait at any moment.
    let loopWait = clock.loopDeadline.flatMap { $0 > now ? $0 : nil }
    guard isPlaying(player) else {
      return loopWait.map { wait in blocked.map { min($0, wait) } ?? wait } ?? blocked
    }
    guard let loopWait else {
      // The loop is busy, or waits off the clock for data (before its first frame, or
      // stalled): once it has been quiet, the data it waits for needs clock time.
      return loopQuiet ? blocked : nil
    }
    guard (player.currentItem?.isDecodedBufferFull ?? false) || loopQuiet else { return nil }
    return blocked.map { min($0, loopWait) } ?? loopWait
  }
}
