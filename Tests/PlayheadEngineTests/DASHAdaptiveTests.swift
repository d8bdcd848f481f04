import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// ABR across a DASH AdaptationSet's Representations, on a manual clock over a simulated
/// network: the same controller and rules as HLS, reached through the MPD's translation.
final class DASHAdaptiveTests: XCTestCase {
  private let base = URL(string: "http://sim.test/")!
  private let levels = ["144p", "360p"]
  private let segmentCount = 60

  /// A 120 s MPD of two Representations (80 and 300 kbit/s) over the fMP4 fixture
  /// ladder's segments (segment i is fixture i % 5), addressed by `$Number%03d$`.
  private func resources() throws -> [URL: Data] {
    var files: [URL: Data] = [:]
    let mpd = """
      <?xml version="1.0"?>
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT120S"
        minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
        <Period>
          <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
            <SegmentTemplate timescale="1" duration="2" startNumber="0"
              initialization="$RepresentationID$/init.mp4"
              media="$RepresentationID$/segment$Number%03d$.m4s"/>
            <Representation id="144p" bandwidth="100000" width="256" height="144" codecs="avc1.4d400c"/>
            <Representation id="360p" bandwidth="360000" width="640" height="360" codecs="avc1.4d401e"/>
          </AdaptationSet>
        </Period>
      </MPD>
      """
    files[base.appendingPathComponent("manifest.mpd")] = Data(mpd.utf8)
    for level in levels {
      files[base.appendingPathComponent("\(level)/init.mp4")] = try Data(
        contentsOf: try Fixtures.url("hls-fmp4/\(level)/init.mp4"))
      for index in 0..<segmentCount {
        let fixture = try Fixtures.url(
          String(format: "hls-fmp4/\(level)/segment%03d.m4s", index % 5))
        files[base.appendingPathComponent(String(format: "\(level)/segment%03d.m4s", index))] =
          try Data(contentsOf: fixture)
      }
    }
    return files
  }

  private func simulate(trace: NetworkTrace, seconds: Double, startBandwidth: Int)
    throws -> DriverSimulation.Outcome
  {
    let url = base.appendingPathComponent("manifest.mpd")
    return try DriverSimulation.simulate(
      url, resources: try resources(), trace: trace, seconds: seconds,
      startBandwidth: startBandwidth, levels: levels
    ) { configuration in
      configuration.playlistSource = DASHPlaylistSource(manifestURL: url)
    }
  }

  func testBandwidthDropSwitchesDownWithoutAStall() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 30_000, bandwidthKbps: 3_000, latencyMs: 20),
      .init(durationMs: 600_000, bandwidthKbps: 200, latencyMs: 20),
    ])
    let outcome = try simulate(trace: trace, seconds: 90, startBandwidth: 1_000_000)
    let beforeDrop = outcome.segments.filter { $0.time < 30 }
    let afterDrop = outcome.segments.filter { $0.time >= 30 }
    XCTAssertEqual(beforeDrop.last?.level, 1, "3 Mbit/s sustains 360p: \(beforeDrop)")
    XCTAssertGreaterThan(afterDrop.count, 8)
    XCTAssertTrue(
      afterDrop.dropFirst(8).allSatisfy { $0.level == 0 },
      "0.2 Mbit/s cannot sustain 360p: \(afterDrop)")
    XCTAssertEqual(outcome.stalls, 0, "stalls at \(outcome.stallTimes)")
  }

  func testBandwidthRiseSwitchesUp() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 40_000, bandwidthKbps: 150, latencyMs: 20),
      .init(durationMs: 600_000, bandwidthKbps: 3_000, latencyMs: 20),
    ])
    let outcome = try simulate(trace: trace, seconds: 100, startBandwidth: 150_000)
    let beforeRise = outcome.segments.filter { $0.time < 40 }
    XCTAssertTrue(
      beforeRise.allSatisfy { $0.level == 0 }, "150 kbit/s stays at 144p: \(beforeRise)")
    let afterRise = outcome.segments.filter { $0.time >= 40 }
    let firstTop = try XCTUnwrap(afterRise.firstIndex { $0.level == 1 }, "never 360p: \(afterRise)")
    XCTAssertLessThanOrEqual(firstTop, 8, "switches up within 8 segments: \(afterRise)")
  }
}
