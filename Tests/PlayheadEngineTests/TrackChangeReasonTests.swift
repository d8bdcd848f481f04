import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// `trackChanged` names what moved the level: the first rendition is `initial`, a new cap
/// that rules out the level being loaded is `cap`, a hand-picked level is `manual`, and
/// the controller's own choices are `throughput` or `buffer` (never a catch-all).
final class TrackChangeReasonTests: XCTestCase {
  /// A 50 Mbit/s start estimate (the fixture ladder starts at 720p) and one segment of
  /// forward buffer, on the fast clock.
  private static func topStartConfiguration() -> PlayerConfiguration {
    var configuration = PlayerConfiguration.fast()
    configuration.hls.defaultBandwidthEstimate = 50_000_000
    configuration.hls.forwardBufferDuration = MediaTime(value: 2, timescale: 1)
    return configuration
  }

  /// A player that starts the fixture ladder at 720p (a 50 Mbit/s start estimate) and
  /// loads one segment ahead, not yet playing.
  private func startedAtTheTop() throws -> (Player, PlayerItem, EventRecorder) {
    let configuration = Self.topStartConfiguration()
    let item = PlayerItem(url: try Fixtures.url("hls/master.m3u8"))
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    let first = changes(recorder.waitFor(event: "trackChanged").map { [$0] } ?? [])
    XCTAssertEqual(first.first?.height, 720)
    XCTAssertEqual(first.first?.reason, .initial)
    return (player, item, recorder)
  }

  private func changes(_ events: [PlayerEvent]) -> [(height: Int?, reason: VariantChangeReason)] {
    events.compactMap { event in
      guard case .variantChanged(_, let variant, let reason) = event.kind else { return nil }
      return (variant.height, reason)
    }
  }

  func testANewCapThatRulesOutTheLevel_isReportedAsCap() throws {
    let (player, item, recorder) = try startedAtTheTop()
    defer { player.close() }
    item.preferredPeakBitRate = 600_000
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let all = changes(recorder.events)
    XCTAssertEqual(all.count, 2, "\(all)")
    XCTAssertEqual(all.last?.height, 360)
    XCTAssertEqual(all.last?.reason, .cap)
  }

  func testAHandPickedLevel_isReportedAsManual() throws {
    let (player, item, recorder) = try startedAtTheTop()
    defer { player.close() }
    item.preferredVariantIndex = 0
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let all = changes(recorder.events)
    XCTAssertEqual(all.last?.height, 144)
    XCTAssertEqual(all.last?.reason, .manual)
  }

  func testBackToAutomatic_isTheControllersChoice() throws {
    let configuration = Self.topStartConfiguration()
    let item = PlayerItem(url: try Fixtures.url("hls/master.m3u8"))
    item.preferredVariantIndex = 0
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    defer { player.close() }
    recorder.waitFor(event: "trackChanged")
    item.preferredVariantIndex = nil
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let all = changes(recorder.events)
    XCTAssertEqual(all.first?.reason, .initial)
    XCTAssertGreaterThan(all.count, 1, "never left the hand-picked 144p: \(all)")
    for change in all.dropFirst() {
      XCTAssertTrue(
        [.throughput, .buffer].contains(change.reason), "\(change.reason) for a step up: \(all)")
    }
  }
}

extension TrackChangeReasonTests {
  func testASegmentFailingOverToTheRedundantCopy_isReportedAsFailover() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(),
      faults: ["/hls-redundant/primary/segment002.ts": .status(404)])
    try server.start()
    defer { server.stop() }
    var configuration = PlayerConfiguration.fast()
    configuration.request.retryCount = 0
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/hls-redundant/master.m3u8"), configuration: configuration)
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let all = recorder.events.compactMap { event -> (uri: String, reason: VariantChangeReason)? in
      guard case .variantChanged(_, let variant, let reason) = event.kind else { return nil }
      return (variant.uri, reason)
    }
    XCTAssertEqual(all.map(\.reason), [.initial, .failover], "\(all)")
    XCTAssertTrue(all.last?.uri.contains("backup") ?? false, "\(all)")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250, "frames lost at the switch")
  }
}
