import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Stalls on a clock the test moves, through a network that collapses after 0.3 s for
/// 20 s: the position freezes where the media runs out, that moment starts the stall (even
/// when the loop notices it late), the loop sleeps through it, and its length is counted.
final class StallAccountingTests: XCTestCase {
  private let base = URL(string: "http://sim.test/hls/")!
  /// When the network comes back.
  private let networkBack = MediaTime(value: 20_300, timescale: 1000)

  /// The clock driver moves the clock to the earliest blocked deadline whenever the
  /// player's threads wait on it, as real time would; the loop must sleep while stalled.
  func testNetworkCollapse_clockMovedToEachDeadline_stallRunsFromMediaEndToRecovery() throws {
    let run = try PlayRun(resources: try resources(), base: base)
    defer { run.player.close() }
    run.drive { _ in false }
    try assertOneLongStall(
      run, beganBefore: .seconds(6), recoveredAfter: .seconds(20),
      // The 4 s buffer holds segments 0–2 when the network fails: media to about 5.7 s.
      why: "the stall begins where the three buffered segments run out")
    XCTAssertGreaterThan(run.stalledRounds, 0, "the driver never saw the stall")
    XCTAssertEqual(run.spinsWhileStalled, 0, "the loop spun while stalled")
  }

  /// The loop is waiting for its next frame at about 2.5 s when the clock jumps to the
  /// network's return at 20.3 s (as if the loop's thread had been descheduled): the stall
  /// must count from where the queued media ran out, not from the late wake (the loop
  /// finds the stall and, with more media already downloaded, recovers at once).
  func testNetworkCollapse_loopWakesLateAfterTheJump_stallCountsFromWhereMediaRanOut() throws {
    let run = try PlayRun(resources: try resources(), base: base)
    defer { run.player.close() }
    var jumped = false
    run.drive { manual in
      guard !jumped, (run.recorder.periodicTimes.last?.seconds ?? 0) >= 2.5,
        manual.waitForBlockedWaits(count: 2, hostTimeoutMs: 50)
      else { return false }
      // Both the loop (next frame) and the downloader (its stalled transfer) are waiting.
      jumped = true
      manual.advance(to: self.networkBack)
      return true
    }
    XCTAssertTrue(jumped, "the clock never jumped")
    try assertOneLongStall(
      run, beganBefore: .seconds(5), recoveredAfter: .seconds(20),
      why: "the stall begins where the queued media ran out, just after 2.5 s")
    let stall = try XCTUnwrap(run.recorder.events.first { $0.name == "playbackStalled" })
    XCTAssertLessThan(stall.itemTime.seconds, 5, "the position froze where the media ran out")
  }

  /// A no-progress watchdog far shorter than the 20 s stall never fires: the stalled
  /// segment transfer is pending, and its own timeout and retries bound that wait.
  func testNetworkCollapse_aWatchdogShorterThanTheStall_waitsForThePendingTransfer() throws {
    let run = try PlayRun(resources: try resources(), base: base, noProgressTimeoutMs: 1_000)
    defer { run.player.close() }
    run.drive { _ in false }
    XCTAssertFalse(run.recorder.names.contains("failedToPlayToEnd"), "\(run.recorder.names)")
    try assertOneLongStall(
      run, beganBefore: .seconds(6), recoveredAfter: .seconds(20),
      why: "the stall begins where the three buffered segments run out")
  }

  // MARK: Helpers

  /// The fixture ladder's lowest rendition (six 2 s segments), served from memory.
  private func resources() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    for name in ["master.m3u8", "144p/index.m3u8"]
      + (0..<6).map({ String(format: "144p/segment%03d.ts", $0) })
    {
      files[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/" + name))
    }
    return files
  }

  /// Checks that the item played to its end with one stall of more than 10 s that began
  /// before `beganBefore` and ended after `recoveredAfter`, that the statistics count every
  /// stall from its start to its recovery, and that the position never went back.
  private func assertOneLongStall(
    _ run: PlayRun, beganBefore: MediaTime, recoveredAfter: MediaTime, why: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let events = run.recorder.events
    let trace = Self.trace(events)
    XCTAssertEqual(
      events.last { Self.isEnd($0.name) }?.name, "didPlayToEnd", trace, file: file, line: line)
    let pairs = Self.stallPairs(events)
    XCTAssertEqual(pairs.count, events.filter { $0.name == "playbackStalled" }.count, trace)
    let long = try XCTUnwrap(
      pairs.first { ($0.recovered - $0.stalled).seconds > 10 }, "no long stall: \(trace)",
      file: file, line: line)
    XCTAssertLessThan(long.stalled, beganBefore, "\(why): \(trace)", file: file, line: line)
    XCTAssertGreaterThan(long.recovered, recoveredAfter, trace, file: file, line: line)

    let statistics = try XCTUnwrap(run.player.currentItem?.statistics)
    XCTAssertGreaterThan(statistics.totalStallTime.seconds, 10, trace, file: file, line: line)
    let counted = pairs.reduce(MediaTime.zero) { $0 + ($1.recovered - $1.stalled) }
    XCTAssertEqual(
      statistics.totalStallTime.seconds, counted.seconds, accuracy: 1e-9,
      "every stall counts from its start to its recovery: \(trace)", file: file, line: line)
    XCTAssertEqual(statistics.stallCount, pairs.count, trace, file: file, line: line)
    // Stalled time is not playing time: what was played took about the item's 12 s.
    XCTAssertEqual(statistics.playingTime.seconds, 12, accuracy: 0.5, file: file, line: line)

    let times = run.recorder.periodicTimes
    XCTAssertEqual(times, times.sorted(), "the position went back", file: file, line: line)
  }

  private static func isEnd(_ name: String) -> Bool {
    ["didPlayToEnd", "failedToPlayToEnd", "failed"].contains(name)
  }

  /// Each stall's clock time with the clock time of the recovery that ended it.
  private static func stallPairs(_ events: [PlayerEvent]) -> [(
    stalled: MediaTime, recovered: MediaTime
  )] {
    var pairs: [(stalled: MediaTime, recovered: MediaTime)] = []
    var open: MediaTime?
    for event in events {
      if event.name == "playbackStalled" { open = event.clockTime }
      if event.name == "playbackRecovered", let stalled = open {
        pairs.append((stalled, event.clockTime))
        open = nil
      }
    }
    return pairs
  }

  private static func trace(_ events: [PlayerEvent]) -> String {
    events.filter { ["playbackStalled", "playbackRecovered", "didPlayToEnd"].contains($0.name) }
      .map { String(format: "%@@%.3f/%.3f", $0.name, $0.clockTime.seconds, $0.itemTime.seconds) }
      .joined(separator: " ")
  }
}

/// One player on a manual clock over the collapsing network, with its recorder and the
/// clock driver's observations.
private final class PlayRun {
  let manual = ManualClock()
  let clock: SpinCountingClock
  let player: Player
  let recorder: EventRecorder
  /// Loop waits that returned at once while the recorder showed a stall.
  private(set) var spinsWhileStalled = 0
  /// Driver rounds that found the item stalled.
  private(set) var stalledRounds = 0

  init(resources: [URL: Data], base: URL, noProgressTimeoutMs: Int? = nil) throws {
    clock = SpinCountingClock(manual)
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 300, bandwidthKbps: 20_000),
      .init(durationMs: 20_000, bandwidthKbps: 8),
      .init(durationMs: 600_000, bandwidthKbps: 20_000),
    ])
    var configuration = PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink())
    configuration.network = SimulatedNetwork(
      resources: resources, trace: trace, clock: manual)
    configuration.hls.manualVariantIndex = 0
    configuration.hls.bufferSettings = BufferSettings(
      maximumBuffer: MediaTime(value: 4, timescale: 1))
    if let noProgressTimeoutMs { configuration.noProgressTimeoutMs = noProgressTimeoutMs }
    (player, recorder) = EventRecorder.recordingPlayer(
      url: base.appendingPathComponent("master.m3u8"), configuration: configuration)
    clock.follow(player.loop)
    player.addPeriodicTimeObserver(forInterval: .seconds(0.5), queue: recorder.queue) {
      [recorder] time in recorder.recordPeriodic(time)
    }
    player.play()
  }

  /// Plays the part of real time until the item ends: once the threads that must wait have
  /// all settled, `intervene` may move the clock itself (returning true); otherwise the
  /// clock jumps to the earliest deadline any thread waits for.
  ///
  /// While the item plays, the loop must be waiting on the clock first, so that it never
  /// wakes late; otherwise (stalled, waiting to start, or holding for its first frame) one
  /// waiting thread is enough.
  /// Each round that finds the item stalled counts the loop's waits that returned at once.
  func drive(
    file: StaticString = #filePath, line: UInt = #line, intervene: (ManualClock) -> Bool
  ) {
    let limit = Date(timeIntervalSinceNow: 120)
    while !recorder.events.contains(where: { Self.isEnd($0.name) }) {
      guard Date() < limit else {
        return XCTFail("clock driver gave up; events: \(recorder.names)", file: file, line: line)
      }
      let blockedCount = manual.blockedWaitCount
      guard settledTarget() != nil else {
        // Not yet: wake on the next wait that blocks, or re-check after a moment.
        _ = manual.waitForBlockedWaits(count: blockedCount + 1, hostTimeoutMs: 5)
        continue
      }
      // Let a second waiter (the downloader) settle too before time moves.
      _ = manual.waitForBlockedWaits(count: 2, hostTimeoutMs: 20)
      if intervene(manual) { continue }
      if isStalled {
        // Hold the clock still for a moment: a loop that sleeps through the stall makes
        // no wait at all in it, one that spins makes thousands (a third blocked wait
        // never comes; this only bounds the moment).
        let spinsBefore = clock.immediateLoopWaits
        _ = manual.waitForBlockedWaits(count: 3, hostTimeoutMs: 50)
        stalledRounds += 1
        spinsWhileStalled += clock.immediateLoopWaits - spinsBefore
      }
      // The loop may have woken meanwhile (new data): move only while it waits.
      if let target = settledTarget() { manual.advance(to: target) }
    }
  }

  private static func isEnd(_ name: String) -> Bool {
    ["didPlayToEnd", "failedToPlayToEnd", "failed"].contains(name)
  }

  /// Where time may move to, or nil while it must not move: while the item plays, only
  /// when the loop waits on the clock for a deadline still ahead, and never past that
  /// deadline (its wait may not be registered with the manual clock yet); otherwise (before
  /// its first frame the loop waits for data off the clock, without a stall) to the earliest
  /// deadline some thread waits for.
  private func settledTarget() -> MediaTime? {
    let now = manual.now
    let blocked = manual.nextBlockedDeadline.flatMap { $0 > now ? $0 : nil }
    let loopOnClock =
      player.timeControlStatus == .playing && recorder.names.contains("firstFrame")
    guard loopOnClock else { return blocked }
    // Read once: the loop may wake (new data) and leave its wait at any moment.
    guard let loopWait = clock.loopDeadline, loopWait > now else { return nil }
    return blocked.map { min($0, loopWait) } ?? loopWait
  }

  /// Whether the player waits after a stall (published by the loop as it stalls, before
  /// its events reach the recorder).
  private var isStalled: Bool {
    player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.toMinimizeStalls)
  }
}
