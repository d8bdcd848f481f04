import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// What a player logs about a streaming session (docs/logging.md), played on a fast manual
/// clock over `SimulatedDataSource` with an `InMemoryLogHandler` as
/// `PlayerConfiguration.logger`: the fixture ladder over a link that falls from 3 Mbit/s
/// to 300 kbit/s and recovers, with a seek back to 1 s.
final class ABRDecisionLogTests: XCTestCase {
  private let base = URL(string: "http://sim.test/hls/")!
  private let reasons = Set(
    ["initial", "throughput", "buffer", "abandoned", "manual", "failover", "cap"])

  func testDebug_logsOneDecisionPerSegmentLoad_withItsReasonAndInputs() throws {
    let run = try play(level: .debug)
    let segmentLevels = run.segmentRequests.map(level(of:))
    let decisions = run.log.entries.filter { $0.message == "ABR decision" }
    // Six segments, and those loaded again after the seek and the abandonment.
    XCTAssertGreaterThanOrEqual(segmentLevels.count, 12, "the session loaded too little")
    // One decision before each segment request, for the level requested, in order.
    XCTAssertEqual(decisions.map { Int($0["level"] ?? "") }, segmentLevels.map(Optional.some))
    for decision in decisions {
      XCTAssertEqual(decision.level, .debug)
      XCTAssertEqual(decision.label, "playhead.player")
      XCTAssertTrue(reasons.contains(decision["reason"] ?? ""), decision.description)
      for key in [
        "previous", "sequence", "throughput", "bufferAhead", "phase", "bandwidth", "item",
      ] {
        XCTAssertNotNil(decision[key], "\(key) missing: \(decision)")
      }
    }
    XCTAssertEqual(decisions.first?["reason"], "initial")
    XCTAssertEqual(decisions.first?["phase"], "starting")
    XCTAssertTrue(decisions.contains { $0["phase"] == "seeking" }, "no decision after the seek")
    let rules = Set(decisions.compactMap { $0["reason"] })
    XCTAssertTrue(
      rules.contains("throughput") && rules.contains("buffer"), "the rules decided: \(rules)")
    // A switch at info for each change of level once playback has begun.
    let changes = decisions.filter { $0["phase"] != "starting" && $0["level"] != $0["previous"] }
    XCTAssertFalse(changes.isEmpty, "the link never moved the level: \(segmentLevels)")
    let switches = run.log.entries.filter { $0.message == "rendition switch" }
    XCTAssertEqual(switches.map { $0["to"] }, changes.map { $0["level"] })
    XCTAssertEqual(switches.map { $0["reason"] }, changes.map { $0["reason"] })
    XCTAssertTrue(switches.allSatisfy { $0.level == .info })
    XCTAssertEqual(run.log.entries.filter { $0.message == "seek requested" }.count, 1)
  }

  func testInfo_logsTheSessionsMilestonesOnly_nothingPerSegmentOrFrame() throws {
    let run = try play(level: .info)
    let entries = run.log.entries
    let milestones: Set<String> = [
      "item opening", "item ready", "rendition switch", "stall began", "stall ended",
      "segment download abandoned",
    ]
    XCTAssertTrue(
      entries.allSatisfy { $0.level >= .info && milestones.contains($0.message) },
      entries.map(\.description).joined(separator: "\n"))
    XCTAssertEqual(entries.filter { $0.message == "item opening" }.count, 1)
    XCTAssertEqual(entries.filter { $0.message == "item ready" }.count, 1)
    // A stall entry for each stall event, and the link made one.
    let stalls = run.eventNames.filter { $0 == "playbackStalled" }.count
    XCTAssertGreaterThan(stalls, 0, "the session never stalled: \(run.eventNames)")
    XCTAssertEqual(entries.filter { $0.message == "stall began" }.count, stalls)
    XCTAssertEqual(
      entries.filter { $0.message == "stall ended" }.count,
      run.eventNames.filter { $0 == "playbackRecovered" }.count)
  }

  func testWarning_logsNothingForASessionThatRecovers() throws {
    let run = try play(level: .warning)
    XCTAssertEqual(run.log.entries, [])
  }

  // MARK: Helpers

  private struct Run {
    var log: InMemoryLogHandler
    var segmentRequests: [URL]
    var eventNames: [String]
  }

  /// The index of the variant a segment URL belongs to (its folder).
  private func level(of url: URL) -> Int {
    FixtureLadder.variants.firstIndex(of: url.deletingLastPathComponent().lastPathComponent) ?? -1
  }

  /// Plays the ladder to its end, seeking back to 1 s at clock time 4 s, with the player
  /// logging at `level` into a fresh in-memory handler.
  private func play(level: Logger.Level) throws -> Run {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 3_000, bandwidthKbps: 3_000, latencyMs: 20),
      .init(durationMs: 4_000, bandwidthKbps: 300, latencyMs: 60),
      .init(durationMs: 60_000, bandwidthKbps: 3_000, latencyMs: 20),
    ])
    let log = InMemoryLogHandler()
    var configuration = PlayerConfiguration.fast()
    configuration.logger = log.logger(label: "playhead.player", level: level)
    let source = SimulatedNetwork(
      resources: try FixtureLadder.resources(base: base), trace: trace, clock: configuration.clock)
    configuration.network = source
    let clock = configuration.clock
    let (player, recorder) = clock.runAsWorker {
      let (player, recorder) = EventRecorder.recordingPlayer(
        url: base.appendingPathComponent("master.m3u8"), configuration: configuration)
      clock.startThread(named: "test.seek") {
        clock.wait(until: .seconds(4), orUntil: WakeSignal())
        player.seek(to: .seconds(1))
      }
      player.play()
      return (player, recorder)
    }
    defer { player.close() }
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    player.close()
    let segments = source.requestLog.filter { $0.request.purpose == .segment }
    recorder.queue.sync {}
    return Run(
      log: log, segmentRequests: segments.map(\.request.url), eventNames: recorder.names)
  }

}
