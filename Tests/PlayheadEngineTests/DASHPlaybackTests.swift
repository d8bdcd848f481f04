import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// DASH sources made by FFmpeg's `dash` muxer (scripts/make-dash-fixtures.sh), played
/// through the public API: every addressing form plays every frame.
final class DASHPlaybackTests: XCTestCase {
  private func startServer(faults: [String: HTTPTestServer.Fault] = [:]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func playToEnd(
    _ url: URL, configuration: PlayerConfiguration = .fast()
  ) -> (Player, EventRecorder, PlayerEvent?) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    player.play()
    return (player, recorder, recorder.waitForEnd())
  }

  /// 10 s at 25 fps.
  private let frames = 250

  func testSegmentTimelinePlaysEveryFrameOverHTTP() throws {
    let server = try startServer()
    let (player, _, end) = playToEnd(server.url("/dash-vod/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
    XCTAssertTrue(
      server.requests.contains { $0.path == "/dash-vod/chunk-stream2-00006.m4s" },
      "the audio set's last segment was fetched")
  }

  func testNumberTemplatePlaysEveryFrame() throws {
    let (player, _, end) = playToEnd(try Fixtures.url("dash-number/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }

  func testSegmentListPlaysEveryFrame() throws {
    let (player, _, end) = playToEnd(try Fixtures.url("dash-list/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }

  func testByteRangeSegmentListPlaysWithRangedRequests() throws {
    let server = try startServer()
    let (player, _, end) = playToEnd(server.url("/dash-single/manifest.mpd"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
    let ranged = server.requests.filter { $0.path.hasSuffix(".mp4") && $0.range != nil }
    XCTAssertGreaterThanOrEqual(ranged.count, 10, "segments are byte ranges of one file")
  }

  func testManifestUnderAnotherNameIsSniffed() throws {
    let server = try startServer()
    let (player, _, end) = playToEnd(server.url("/dash-vod/manifest.mpd?format=any"))
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, frames)
  }
}
