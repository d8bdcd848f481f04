import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// The steadiness and safety rules of the default controller, played by the engine's HLS
/// driver (`HLSPlaybackSimulator`) on a fast manual clock over `SimulatedNetwork`: the
/// ladder of the real-network benchmark (3.4 / 1.2 / 0.55 Mbit/s, 4 s segments, 120 s)
/// with a 25 s buffer.
final class ABRNetworkRuleTests: XCTestCase {
  private let base = URL(string: "http://steady.test/")!
  private let bitrates = [550_000, 1_200_000, 3_400_000]
  private let segmentCount = 30
  private let segmentSeconds = 4.0

  private var master: URL { base.appendingPathComponent("master.m3u8") }

  private func resources() -> [URL: Data] {
    SyntheticLadder.resources(
      base: base, bitrates: bitrates, segmentCount: segmentCount, segmentSeconds: segmentSeconds)
  }

  private func play(_ trace: NetworkTrace) throws -> HLSSimulationReport {
    try playSteadyLadder(master: master, resources: resources(), trace: trace)
  }

  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// When the link collapses: while a top-level segment is downloading.
  private let collapseSeconds = 41.5

  /// 4.2 Mbit/s (the top level's downloads take most of each segment's time), then
  /// `kbps` (0.8 Mbit/s, the benchmark's dip, unless told) from `collapseSeconds` on.
  private func collapse(toKbps kbps: Double = 800) throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: collapseSeconds * 1000, bandwidthKbps: 4_200, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: kbps, latencyMs: 40),
    ])
  }

  func testAConstantLinkBetweenTwoLevels_doesNotFlap() throws {
    // 2 Mbit/s carries 1.2 Mbit/s with room, never 3.4 Mbit/s: one step up after the
    // start, and at most one more at the end, where the buffer is spent on quality.
    let report = try play(.constant(bandwidthKbps: 2_000, latencyMs: 40))
    let levels = report.segments.map(\.level)
    XCTAssertEqual(levels.count, segmentCount)
    let beforeTheEnd = levels.dropLast(Int(25 / segmentSeconds))
    XCTAssertFalse(
      beforeTheEnd.contains(2), "fetched 3.4 Mbit/s on a 2 Mbit/s link: \(levels)")
    XCTAssertLessThanOrEqual(report.levelSwitchCount, 2, "\(levels)")
    XCTAssertEqual(levels.dropFirst(3).dropLast(Int(25 / segmentSeconds)).min(), 1, "\(levels)")
    XCTAssertTrue(report.stalls.isEmpty, "\(report.stalls)")
  }

  func testAMidDownloadCollapse_abandonsTheDownload() throws {
    // 0.3 Mbit/s (the benchmark's outage): the rest of the top-level segment cannot
    // arrive before the buffer runs out.
    let report = try play(try collapse(toKbps: 300))
    let drop = report.startClock + seconds(collapseSeconds)
    let first = try XCTUnwrap(report.abandonments.first, "nothing was abandoned")
    XCTAssertLessThan(first.requestClock, drop, "the abandoned download began after the collapse")
    XCTAssertEqual(first.level, 2)
    // The refetch is at a level that the bytes arriving over the last second carry (the
    // second began before the collapse); the next request steps down again if needed.
    XCTAssertLessThan(first.targetLevel, 2)
    // Due about a second after the fall (once the recent speed shows it), then the two
    // seconds of confirmation (`abandonConfirmSeconds`).
    XCTAssertLessThanOrEqual(
      (first.abandonClock - drop).seconds, 3.5,
      "abandoned \((first.abandonClock - drop).seconds) s after the collapse")
  }

  func testAStepDown_reachesASustainableLevelWithinOneSegmentPlusTheDetection() throws {
    let report = try play(try collapse())
    let drop = report.startClock + seconds(collapseSeconds)
    XCTAssertEqual(
      report.segments.last { $0.arrivalClock < drop }?.level, 2, "4.2 Mbit/s carries the top")
    // Detection: the abandonment grace (1 s of bytes) and a progress report.
    let settled = drop + seconds(segmentSeconds + 1.2)
    // The endgame included: a level just left is not retried to spend the buffer.
    let late = report.segments.filter { $0.requestClock >= settled && $0.level > 0 }
    XCTAssertTrue(late.isEmpty, "above 0.55 Mbit/s after the step down: \(late)")
    XCTAssertTrue(report.stalls.isEmpty, "\(report.stalls)")
  }

  func testADipTheBufferCanRide_finishesTheDownload_thenStepsDown() throws {
    // 1 Mbit/s: the rest of the top-level segment arrives with time left in the buffer
    // to fetch a lowest-level one, so the bytes already loaded are kept; the next request
    // is at the level the link carries.
    let report = try play(try collapse(toKbps: 1_000))
    let drop = report.startClock + seconds(collapseSeconds)
    XCTAssertTrue(report.abandonments.isEmpty, "\(report.abandonments)")
    let straddling = try XCTUnwrap(
      report.segments.last { $0.requestClock < drop }, "no request before the drop")
    XCTAssertEqual(straddling.level, 2)
    XCTAssertGreaterThan(straddling.arrivalClock, drop)
    let after = report.segments.filter { $0.requestClock >= straddling.arrivalClock }
    XCTAssertEqual(after.first?.level, 0, "\(after.map(\.level))")
    XCTAssertTrue(report.stalls.isEmpty, "\(report.stalls)")
  }
}

/// The deep-buffer rules (decision 0043), played the same way.
final class ABRDeepBufferRuleTests: XCTestCase {
  private let base = URL(string: "http://deep.test/")!
  private let bitrates = [550_000, 1_200_000, 3_400_000]

  private func play(
    _ trace: NetworkTrace, configuration abr: DefaultABRController.Configuration = .init(),
    bitrates: [Int]? = nil
  ) throws -> HLSSimulationReport {
    try playSteadyLadder(
      master: base.appendingPathComponent("master.m3u8"),
      resources: SyntheticLadder.resources(
        base: base, bitrates: bitrates ?? self.bitrates, segmentCount: 30, segmentSeconds: 4),
      trace: trace, abr: abr)
  }

  /// 6 Mbit/s, 2 Mbit/s (0.59 of the top level) from 50 s to 62 s, then 6 again.
  private func wobble() throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: 50_000, bandwidthKbps: 6_000, latencyMs: 40),
      .init(durationMs: 12_000, bandwidthKbps: 2_000, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: 6_000, latencyMs: 40),
    ])
  }

  func testASlowerLinkForAFewSegments_isRiddenOnADeepBuffer() throws {
    let report = try play(try wobble(), configuration: .init())
    let levels = report.segments.map(\.level)
    // Up to the top once, and never down: the buffer absorbs the slower segments.
    XCTAssertEqual(levels.dropFirst(2).min(), 2, "\(levels)")
    XCTAssertLessThanOrEqual(report.levelSwitchCount, 2, "\(levels)")
    XCTAssertTrue(report.stalls.isEmpty, "\(report.stalls)")
    // Without the hold, the first slow transfer (under 70 % of its level) steps down.
    let stepping = try play(try wobble(), configuration: .init(deepHoldSpeedShare: 1))
    XCTAssertLessThan(
      stepping.segments.dropFirst(2).map(\.level).min() ?? 2, 2,
      "\(stepping.segments.map(\.level))")
  }

  func testAFallTheHoldCannotRide_stepsDownOneLevel_notToTheThroughputRulesLevel() throws {
    // 1.5 Mbit/s for 12 s is under half of 3.4 Mbit/s (no hold) and takes the throughput
    // rule (0.9 × 1.5) to 1.2 Mbit/s; it carries 75 % of 2 Mbit/s, which is where the
    // step stops on the deep buffer.
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 50_000, bandwidthKbps: 6_000, latencyMs: 40),
      .init(durationMs: 12_000, bandwidthKbps: 1_500, latencyMs: 40),
      .init(durationMs: 3_600_000, bandwidthKbps: 6_000, latencyMs: 40),
    ])
    let report = try play(trace, bitrates: [550_000, 1_200_000, 2_000_000, 3_400_000])
    let levels = report.segments.map(\.level)
    let top = try XCTUnwrap(levels.firstIndex(of: 3), "never reached the top: \(levels)")
    XCTAssertEqual(levels[top...].min(), 2, "\(levels)")
    // The start's climb, then down one level and back up.
    XCTAssertLessThanOrEqual(report.levelSwitchCount, 3, "\(levels)")
    XCTAssertTrue(report.stalls.isEmpty, "\(report.stalls)")
  }
}

/// Plays `master` over `trace` on a fast manual clock with a 25 s buffer (resuming below
/// 20 s), no retries, and the engine's default controller (built with `abr` when given).
private func playSteadyLadder(
  master: URL, resources: [URL: Data], trace: NetworkTrace,
  abr: DefaultABRController.Configuration? = nil
) throws -> HLSSimulationReport {
  let clock = ManualClock(advancesOnWait: true)
  let source = SimulatedNetwork(
    resources: resources, trace: trace, clock: clock, progressIntervalMs: 100)
  var configuration = HLSConfiguration()
  let buffer = MediaTime(value: 25, timescale: 1)
  configuration.bufferSettings = BufferSettings(
    lowWaterMark: MediaTime(value: 20, timescale: 1), highWaterMark: buffer,
    maximumBuffer: buffer, optimizer: BufferOptimizer.none)
  if let abr { configuration.makeABRController = { DefaultABRController(configuration: abr) } }
  return try HLSPlaybackSimulator.run(
    url: master, configuration: configuration, request: RequestConfiguration(retryCount: 0),
    network: source, clock: clock)
}
