import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// The engine's HLS driver on a manual clock over a simulated network: the test moves
/// the clock only when the driver's threads are all waiting on it, so every run is the
/// same to the nanosecond.
final class HLSAdaptiveTests: XCTestCase {
  private let base = URL(string: "http://sim.test/")!
  private let renditions = ["144p", "360p", "720p"]
  private let segmentCount = 60

  /// A 120 s VOD ladder over the fixture ladder's segments (segment i is fixture i % 6).
  private func resources() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    let master = try String(contentsOf: try Fixtures.url("hls/master.m3u8"), encoding: .utf8)
    files[base.appendingPathComponent("master.m3u8")] = Data(master.utf8)
    for rendition in renditions {
      var playlist =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      for index in 0..<segmentCount {
        playlist += "#EXTINF:2.000000,\nsegment\(index).ts\n"
        let fixture = try Fixtures.url(String(format: "hls/\(rendition)/segment%03d.ts", index % 6))
        files[base.appendingPathComponent("\(rendition)/segment\(index).ts")] = try Data(
          contentsOf: fixture)
      }
      playlist += "#EXT-X-ENDLIST\n"
      files[base.appendingPathComponent("\(rendition)/index.m3u8")] = Data(playlist.utf8)
    }
    return files
  }

  private func openDriver(
    _ configuration: HLSConfiguration, network: SimulatedNetwork,
    request: RequestConfiguration = RequestConfiguration(), clock: ManualClock
  ) throws -> HLSDriver {
    try DriverSimulation.open(
      base.appendingPathComponent("master.m3u8"), configuration: configuration,
      network: network, request: request, clock: clock)
  }

  private func simulate(trace: NetworkTrace, seconds: Double, startBandwidth: Int = 1_000_000)
    throws -> DriverSimulation.Outcome
  {
    try DriverSimulation.simulate(
      base.appendingPathComponent("master.m3u8"), resources: try resources(), trace: trace,
      seconds: seconds, startBandwidth: startBandwidth, levels: renditions)
  }

  func testBandwidthDropSwitchesDownBeforeTheBufferEmpties() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 30_000, bandwidthKbps: 5_000, latencyMs: 20),
      .init(durationMs: 600_000, bandwidthKbps: 500, latencyMs: 20),
    ])
    let outcome = try simulate(trace: trace, seconds: 90)
    let beforeDrop = outcome.segments.filter { $0.time < 30 }
    let afterDrop = outcome.segments.filter { $0.time >= 30 }
    XCTAssertEqual(beforeDrop.last?.level, 2, "5 Mbit/s sustains the top rendition: \(beforeDrop)")
    // The controller remembers the fast network (its long-term throughput), so it may
    // spend part of the 20 s buffer on 720p first; within 10 requests it is below.
    XCTAssertGreaterThan(afterDrop.count, 10)
    XCTAssertTrue(
      afterDrop.dropFirst(10).allSatisfy { $0.level < 2 },
      "0.5 Mbit/s cannot sustain 720p: \(afterDrop)")
    XCTAssertEqual(outcome.stalls, 0, "the switch down happens before the buffer empties")
  }

  func testBandwidthRiseSwitchesUpWithinAFewSegments() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 40_000, bandwidthKbps: 300, latencyMs: 20),
      .init(durationMs: 600_000, bandwidthKbps: 5_000, latencyMs: 20),
    ])
    // Start from an estimate that matches the slow network, so the start does not stall.
    let outcome = try simulate(trace: trace, seconds: 100, startBandwidth: 300_000)
    let beforeRise = outcome.segments.filter { $0.time < 40 }
    XCTAssertTrue(
      beforeRise.allSatisfy { $0.level < 2 }, "300 kbit/s never fetches 720p: \(beforeRise)")
    XCTAssertEqual(outcome.stalls, 0, "stalls at \(outcome.stallTimes): \(beforeRise)")
    let afterRise = outcome.segments.filter { $0.time >= 40 }
    let firstTop = try XCTUnwrap(
      afterRise.firstIndex { $0.level == 2 }, "never reached 720p: \(afterRise)")
    XCTAssertLessThanOrEqual(firstTop, 8, "switches up within 8 segments of the rise: \(afterRise)")
  }

  func testCapsAndManualSelectionHoldUnderEveryBandwidth() throws {
    let trace = NetworkTrace.constant(bandwidthKbps: 20_000, latencyMs: 10)
    let clock = ManualClock()
    let files = try resources()
    for (peak, manual, allowed) in [
      (600_000, nil, 0...1), (0, 0 as Int?, 0...0), (0, 1 as Int?, 1...1),
    ] {
      var configuration = HLSConfiguration()
      configuration.preferredPeakBitRate = peak
      configuration.manualVariantIndex = manual
      let driver = try openDriver(
        configuration,
        network: SimulatedNetwork(resources: files, trace: trace, clock: clock), clock: clock)
      XCTAssertTrue(
        allowed.contains(driver.initialLevel()),
        "start level with peak \(peak), manual \(String(describing: manual))")
      for buffer in [0, 5, 20] {
        let (level, reason) = driver.chooseLevel(
          bufferAhead: MediaTime(value: Int64(buffer), timescale: 1))
        if manual != nil { XCTAssertEqual(reason, .manual) }
        XCTAssertTrue(
          allowed.contains(level),
          "level \(level) with peak \(peak), manual \(String(describing: manual))")
      }
      driver.stop()
    }
  }
}
