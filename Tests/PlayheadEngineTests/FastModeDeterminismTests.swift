import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Fast mode is deterministic (decision 0028): the same item (HLS or progressive) over the
/// same simulated network gives the same events, at the same clock and item times, on every
/// run, however the machine schedules the player's threads.
final class FastModeDeterminismTests: XCTestCase {
  private let base = URL(string: "http://sim.test/hls/")!
  private let runs = 10

  /// The fixture ladder over a link that falls from 3 Mbit/s to 300 kbit/s and recovers:
  /// start-up, rendition switches up and down, a stall, a seek and the end, ten times.
  func testLadderOverAChangingLink_tenRuns_giveTheSameEvents() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 3_000, bandwidthKbps: 3_000, latencyMs: 20),
      .init(durationMs: 4_000, bandwidthKbps: 300, latencyMs: 60),
      .init(durationMs: 60_000, bandwidthKbps: 3_000, latencyMs: 20),
    ])
    let resources = try FixtureLadder.resources(base: base)
    let first = assertRunsGiveTheSameEvents(runs) {
      try play(
        base.appendingPathComponent("master.m3u8"), resources: resources, trace: trace,
        seekAt: .seconds(4), to: .seconds(1)
      ).events
    }
    guard let first else { return }
    // The run must exercise what could race: switches, a stall, a seek.
    XCTAssertTrue(first.contains { $0.hasPrefix("trackChanged") }, "\(first)")
    XCTAssertTrue(first.contains { $0.hasPrefix("seekCompleted") }, "\(first)")
    assertNoBufferStateFlipsWithinAnInstant(first)
  }

  /// A progressive MP4 over a simulated network plugged in as the player's network (which
  /// serves every source kind, not only HLS): the file arrives at the trace's pace, and a
  /// seek past what has arrived opens a range request that waits out a slow stretch. Two
  /// runs give the same events.
  func testDASHOverAChangingLink_withASeek_threeRunsGiveTheSameEvents() throws {
    let dashBase = URL(string: "http://sim.test/dash-vod/")!
    let folder = try Fixtures.url("dash-vod")
    var resources: [URL: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      resources[dashBase.appendingPathComponent(name)] = try Data(
        contentsOf: folder.appendingPathComponent(name))
    }
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 2_000, bandwidthKbps: 2_000, latencyMs: 20),
      .init(durationMs: 3_000, bandwidthKbps: 150, latencyMs: 60),
      .init(durationMs: 60_000, bandwidthKbps: 2_000, latencyMs: 20),
    ])
    let first = assertRunsGiveTheSameEvents(3) {
      try play(
        dashBase.appendingPathComponent("manifest.mpd"), resources: resources, trace: trace,
        seekAt: .seconds(3), to: .seconds(7)
      ).events
    }
    guard let first else { return }
    XCTAssertTrue(first.contains { $0.hasPrefix("seekCompleted") }, "\(first)")
    XCTAssertTrue(first.contains { $0.hasPrefix("didPlayToEnd") }, "\(first)")
  }

  func testProgressiveFileOverASimulatedNetwork_withASeek_twoRunsGiveTheSameEvents() throws {
    let url = URL(string: "http://sim.test/progressive/sample-h264-aac.mp4")!
    let resources = [url: try Data(contentsOf: try Fixtures.url("sample-h264-aac.mp4"))]
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 2_000, latencyMs: 30),
      .init(durationMs: 4_000, bandwidthKbps: 60, latencyMs: 80),
      .init(durationMs: 60_000, bandwidthKbps: 2_000, latencyMs: 30),
    ])
    let seekAt = MediaTime.seconds(3)
    var requests: [SimulatedNetwork.LogEntry] = []
    let first = assertRunsGiveTheSameEvents(2) {
      let run = try play(url, resources: resources, trace: trace, seekAt: seekAt, to: .seconds(7))
      requests = run.requests
      return run.events
    }
    guard let first else { return }
    // The seek at 3 s waits for its bytes over the slow stretch, which ends at 5 s.
    let completed = try XCTUnwrap(first.first { $0.hasPrefix("seekCompleted ") }, "\(first)")
    XCTAssertEqual(completed, "seekCompleted 5000000 7000000", "\(first)")
    // Every byte came over the simulated network, on the player's clock: the first request
    // waited its latency, and the seek opened a range past the start once it came.
    XCTAssertFalse(requests.isEmpty)
    XCTAssertTrue(requests.allSatisfy { $0.request.url == url }, "\(requests.map(\.request))")
    XCTAssertGreaterThanOrEqual(
      try XCTUnwrap(requests.first?.endClock), MediaTime(value: 30, timescale: 1000))
    XCTAssertTrue(
      requests.contains { $0.startClock >= seekAt && ($0.request.range?.offset ?? 0) > 0 },
      "no range request after the seek: \(requests.map { ($0.startClock.seconds, $0.request.range) })"
    )
  }

  // MARK: Helpers

  /// Buffer-state events report changes of state: none turns back at the clock time it
  /// was reported (a flag set and cleared within one instant).
  private func assertNoBufferStateFlipsWithinAnInstant(
    _ events: [String], file: StaticString = #filePath, line: UInt = #line
  ) {
    let opposite = [
      "playbackBufferFull": "playbackBufferNotFull", "playbackBufferNotFull": "playbackBufferFull",
      "playbackBufferEmpty": "playbackBufferNotEmpty",
      "playbackBufferNotEmpty": "playbackBufferEmpty",
      "playbackLikelyToKeepUp": "playbackUnlikelyToKeepUp",
      "playbackUnlikelyToKeepUp": "playbackLikelyToKeepUp",
    ]
    var lastClock: [String: String] = [:]
    for event in events {
      let fields = event.split(separator: " ").map(String.init)
      guard fields.count == 3, let other = opposite[fields[0]] else { continue }
      XCTAssertNotEqual(
        lastClock[other], fields[1], "\(fields[0]) turned \(other) back at clock \(fields[1])",
        file: file, line: line)
      lastClock[fields[0]] = fields[1]
      lastClock[other] = nil
    }
  }

  /// Runs `play` `count` times and asserts that every run gives the events of the first
  /// (naming the first difference); returns the first run's events (nil when it threw).
  private func assertRunsGiveTheSameEvents(
    _ count: Int, file: StaticString = #filePath, line: UInt = #line,
    _ play: () throws -> [String]
  ) -> [String]? {
    var first: [String]?
    for run in 1...count {
      let events: [String]
      do {
        events = try play()
      } catch {
        XCTFail("run \(run): \(error)", file: file, line: line)
        return nil
      }
      XCTAssertTrue(
        events.contains { $0.hasPrefix("didPlayToEnd") }, "run \(run): \(events)", file: file,
        line: line)
      guard let first else {
        first = events
        continue
      }
      let firstDifference =
        zip(events, first).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(events.count, first.count)
      XCTAssertEqual(
        events, first,
        "run \(run) differs from run 1 from event \(firstDifference) on: "
          + "\(events.dropFirst(firstDifference).prefix(4)) against \(first.dropFirst(firstDifference).prefix(4))",
        file: file, line: line)
    }
    return first
  }

  /// Plays `url` to its end over `trace` from a simulated network serving `resources`,
  /// seeking to `target` at clock time `seekAt`; returns each event as "name clock item" in
  /// microseconds, and the network's transfers.
  private func play(
    _ url: URL, resources: [URL: Data], trace: NetworkTrace, seekAt: MediaTime,
    to target: MediaTime
  ) throws -> (events: [String], requests: [SimulatedNetwork.LogEntry]) {
    var configuration = PlayerConfiguration.fast()
    let network = SimulatedNetwork(resources: resources, trace: trace, clock: configuration.clock)
    configuration.network = network
    // Set up as one of the clock's workers: the player starts at clock time 0 with the
    // recorder and the seek thread in place. The seek comes from a thread of the clock's
    // own, at a clock time, so the scheduler runs it at the same point of every run (an
    // observer's queue would not be).
    let clock = configuration.clock
    let (player, recorder) = clock.runAsWorker {
      let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
      clock.startThread(named: "test.seek") {
        clock.wait(until: seekAt, orUntil: WakeSignal())
        player.seek(to: target)
      }
      player.play()
      return (player, recorder)
    }
    defer { player.close() }
    _ = recorder.waitForEnd()
    // Every event the player sent before it closed, and none that is still on its way.
    player.close()
    recorder.queue.sync {}
    let events = recorder.events.map { event in
      "\(event.name) \(event.clockTime.microseconds) \(event.itemTime.microseconds)"
    }
    return (events, network.requestLog)
  }
}

extension MediaTime {
  /// The time in whole microseconds (for comparing runs exactly), or -1 when not numeric.
  fileprivate var microseconds: Int64 {
    isNumeric ? Int64((seconds * 1_000_000).rounded()) : -1
  }
}
