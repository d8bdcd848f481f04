import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Server-side ads marked in HLS streams (`EXT-X-CUE-OUT` … `EXT-X-CUE-IN`): the same ad
/// events as client-side breaks, snapback over unwatched periods, and the content's own
/// time with the ads taken out.
final class ServerSideAdTests: XCTestCase {
  func serveMarkedPlaylist(_ folder: String) throws -> (HTTPTestServer, URL) {
    try MarkedPlaylist.serve(folder)
  }

  func makeController() -> (PlaybackController, SDKRecorder) {
    SDKTesting.makeController(
      provider: AdsSessionProvider(configuration: AdsConfiguration(schedule: .breaks([]))))
  }

  func adEvents(_ recorder: SDKRecorder) -> [String] {
    recorder.entries.filter {
      $0.kind == "lifecycle" && ($0.detail.hasPrefix("ad") || $0.detail == "end")
    }.map { $0.detail == "end" ? "end" : "\($0.detail)@\($0.time.seconds)" }
  }

  func testMarkersInTSAndFMP4_giveTheAdEventsAtThePeriod_andTheContentMapTakesItOut() throws {
    for (folder, length) in [("hls/144p", 12.0), ("hls-fmp4/144p", 10.0)] {
      let (server, url) = try serveMarkedPlaylist(folder)
      defer { server.stop() }
      let (controller, recorder) = makeController()
      defer { controller.close() }
      controller.autoPlay = true
      controller.setVideos([SDKTesting.video(id: "ssai", url: url)])
      recorder.waitFor(lifecycle: "end")
      XCTAssertEqual(
        adEvents(recorder),
        ["adSequenceEnter@4.0", "adEnter@4.0", "adExit@8.0", "adSequenceExit@8.0", "end"],
        folder)
      let enter = recorder.entries.first { $0.detail == "adSequenceEnter" }
      XCTAssertEqual(enter?.properties["serverSide"], .bool(true))
      XCTAssertEqual(enter?.properties["duration"], .number(4))
      let map = try XCTUnwrap(controller.contentTimeMap, folder)
      XCTAssertEqual(map.contentDuration, SDKTesting.seconds(length - 4))
      XCTAssertEqual(map.contentTime(forPlaylistTime: SDKTesting.seconds(9)), SDKTesting.seconds(5))
    }
  }

  func testASeekPastTheUnwatchedPeriod_playsItFirst_thenLandsAtTheTarget() throws {
    let (server, url) = try serveMarkedPlaylist("hls/144p")
    defer { server.stop() }
    let (controller, recorder) = makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "ssai", url: url)])
    recorder.waitFor(lifecycle: "ready")
    controller.seek(to: SDKTesting.seconds(10))
    recorder.waitFor("the seek to land") { $0.contains { $0.kind == "progress" } }
    controller.play()
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(
      adEvents(recorder),
      ["adSequenceEnter@4.0", "adEnter@4.0", "adExit@8.0", "adSequenceExit@8.0", "end"])
    // After the period the content went to 10 s, not on from 8 s.
    let exit = try XCTUnwrap(recorder.entries.firstIndex { $0.detail == "adSequenceExit" })
    let after = recorder.entries[(exit + 1)...].filter { $0.kind == "progress" }.map(\.time)
    XCTAssertFalse(after.isEmpty)
    XCTAssertFalse(
      after.contains { $0 > SDKTesting.seconds(8.5) && $0 < SDKTesting.seconds(9.9) }, "\(after)")
  }

  func testSeekWithoutAds_skipsThePeriod_andASeekIntoItStartsItFromItsStart() throws {
    let (server, url) = try serveMarkedPlaylist("hls/144p")
    defer { server.stop() }
    let (controller, recorder) = makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "ssai", url: url)])
    recorder.waitFor(lifecycle: "ready")
    let landed = expectation(description: "seek")
    controller.seekWithoutAds(to: SDKTesting.seconds(10)) { _ in landed.fulfill() }
    wait(for: [landed], timeout: 60)
    XCTAssertFalse(adEvents(recorder).contains { $0.hasPrefix("ad") })
    let intoPeriod = expectation(description: "seek into the period")
    controller.seek(to: SDKTesting.seconds(6)) { _ in intoPeriod.fulfill() }
    wait(for: [intoPeriod], timeout: 60)
    recorder.waitFor(lifecycle: "adSequenceEnter")
    XCTAssertEqual(adEvents(recorder).first, "adSequenceEnter@4.0")
    XCTAssertEqual(
      controller.currentSession?.playerItem?.currentTime(), SDKTesting.seconds(4),
      "a seek into an unwatched period starts it from its start")
  }
}
