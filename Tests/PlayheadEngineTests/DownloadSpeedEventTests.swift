import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// The download speed (SPEC S9): `PlayerItem.currentDownloadSpeed` and the
/// `downloadSpeedChanged` event, for HLS and for progressive HTTP media.
final class DownloadSpeedEventTests: XCTestCase {
  /// The speeds the item's `downloadSpeed` events carried, in order.
  private func speeds(_ recorder: EventRecorder) -> [Double] {
    recorder.events.compactMap { event in
      if case .downloadSpeedChanged(_, let speed) = event.kind { return speed }
      return nil
    }
  }

  func testHLS_reportsEachSegmentsSpeed_onTheSimulatedNetwork() throws {
    let base = URL(string: "http://sim.test/")!
    var resources: [URL: Data] = [:]
    for name in ["index.m3u8"] + (0..<6).map({ String(format: "segment%03d.ts", $0) }) {
      resources[base.appendingPathComponent(name)] = try Data(
        contentsOf: try Fixtures.url("hls/144p/" + name))
    }
    var configuration = PlayerConfiguration.fast()
    configuration.network = SimulatedNetwork(
      resources: resources, trace: .constant(bandwidthKbps: 2_000), clock: configuration.clock)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: base.appendingPathComponent("index.m3u8"), configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let reported = speeds(recorder)
    XCTAssertFalse(reported.isEmpty, "a downloadSpeed event: \(recorder.names)")
    // A 2 Mbit/s link with no latency: no segment arrives faster (a transfer timed on the
    // shared fast clock may look slower, never faster), and none is the 1 Mbit/s default.
    for speed in reported {
      XCTAssertLessThanOrEqual(speed, 2_000_000 * 1.001)
      XCTAssertGreaterThan(speed, 0)
    }
    XCTAssertTrue(reported.contains { abs($0 - 2_000_000) < 2_000 }, "\(reported)")
    XCTAssertEqual(player.currentItem?.currentDownloadSpeed, reported.last)
  }

  func testProgressiveHTTP_reportsTheMeasuredSpeed_asAnEvent() throws {
    let path = "/sample-h264-aac.ts"
    let server = HTTPTestServer(
      directory: try Fixtures.directory(), faults: [path: .slow(bytesPerSecond: 400_000)])
    try server.start()
    defer { server.stop() }
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url(path), configuration: .fast())
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let reported = speeds(recorder)
    XCTAssertFalse(reported.isEmpty, "a downloadSpeed event: \(recorder.names)")
    // The server paces its writes at 3.2 Mbit/s: a stretch cannot arrive faster by more
    // than one write; the lower bound only rules out nonsense on a loaded machine.
    for speed in reported {
      XCTAssertLessThanOrEqual(speed, 3_200_000 * 1.5)
      XCTAssertGreaterThan(speed, 3_200_000 / 20)
    }
    XCTAssertEqual(player.currentItem?.currentDownloadSpeed, reported.last)
  }

  func testLocalFiles_reportNoDownloadSpeed() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertTrue(speeds(recorder).isEmpty)
    XCTAssertNil(player.currentItem?.currentDownloadSpeed)
  }
}
