import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Fast mode is deterministic (decision 0028): the same item over the same simulated
/// network gives the same events, at the same clock and item times, on every run, however
/// the machine schedules the player's threads.
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
    let resources = try ladder()
    var first: [String]?
    for run in 1...runs {
      let events = try play(resources: resources, trace: trace, seekAt: .seconds(4))
      XCTAssertTrue(events.contains { $0.hasPrefix("didPlayToEnd") }, "run \(run): \(events)")
      if let first {
        let firstDifference =
          zip(events, first).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          ?? min(events.count, first.count)
        XCTAssertEqual(
          events, first,
          "run \(run) differs from run 1 from event \(firstDifference) on: "
            + "\(events.dropFirst(firstDifference).prefix(4)) against \(first.dropFirst(firstDifference).prefix(4))"
        )
      } else {
        first = events
        // The run must exercise what could race: switches, a stall, a seek.
        XCTAssertTrue(events.contains { $0.hasPrefix("trackChanged") }, "\(events)")
        XCTAssertTrue(events.contains { $0.hasPrefix("seekCompleted") }, "\(events)")
        assertNoBufferStateFlipsWithinAnInstant(events)
      }
    }
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

  /// Plays the ladder to its end over `trace`, seeking back to 1 s at clock time `seekAt`,
  /// and returns each event as "name clock item" in microseconds.
  private func play(resources: [URL: Data], trace: NetworkTrace, seekAt: MediaTime) throws
    -> [String]
  {
    var configuration = PlayerConfiguration.fast()
    configuration.network = SimulatedNetwork(
      resources: resources, trace: trace, clock: configuration.clock)
    // Set up as one of the clock's workers: the player starts at clock time 0 with the
    // recorder and the seek thread in place. The seek comes from a thread of the clock's
    // own, at a clock time, so the scheduler runs it at the same point of every run (an
    // observer's queue would not be).
    let clock = configuration.clock
    let (player, recorder) = clock.runAsWorker {
      let (player, recorder) = EventRecorder.recordingPlayer(
        url: base.appendingPathComponent("master.m3u8"), configuration: configuration)
      clock.startThread(named: "test.seek") {
        clock.wait(until: seekAt, orUntil: WakeSignal())
        player.seek(to: .seconds(1))
      }
      player.play()
      return (player, recorder)
    }
    defer { player.close() }
    _ = recorder.waitForEnd()
    // Every event the player sent before it closed, and none that is still on its way.
    player.close()
    recorder.queue.sync {}
    return recorder.events.map { event in
      "\(event.name) \(event.clockTime.microseconds) \(event.itemTime.microseconds)"
    }
  }

  /// The fixture ladder (master, three variants, six segments each), served from memory.
  private func ladder() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    var names = ["master.m3u8"]
    for variant in ["144p", "360p", "720p"] {
      names.append(variant + "/index.m3u8")
      names += (0..<6).map { String(format: "\(variant)/segment%03d.ts", $0) }
    }
    for name in names {
      files[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/" + name))
    }
    return files
  }
}

extension MediaTime {
  /// The time in whole microseconds (for comparing runs exactly), or -1 when not numeric.
  fileprivate var microseconds: Int64 {
    isNumeric ? Int64((seconds * 1_000_000).rounded()) : -1
  }
}
