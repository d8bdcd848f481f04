import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// HLS Interstitials in a VOD stream, through the public API in fast mode: the breaks they
/// make, their assets, failures that skip one asset and not the break, and where the
/// content resumes.
final class InterstitialPlaybackTests: XCTestCase {
  typealias Server = InterstitialTestServer

  /// Plays `url` to its end and returns the flattened events.
  func playToEnd(
    _ url: URL, configuration: AdsConfiguration = .interstitialsOnly
  ) -> (PlaybackController, SDKRecorder) {
    let (controller, recorder) = InterstitialTesting.makeController(configuration: configuration)
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "primary", url: url)])
    recorder.waitFor(lifecycle: "end")
    return (controller, recorder)
  }

  func testAnAssetURIMidroll_playsAtItsStart_andTheContentResumesAfterThePlayedTime() throws {
    let server = try Server()
    let url = server.primary(
      "uri", [Server.dateRange("ad1", at: 4, "DURATION=2.0,X-ASSET-URI=\"ad-a.m3u8\"")])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      ["adSequenceEnter:ad1@4.0", "adEnter:ad1", "adExit:ad1:played", "adSequenceExit", "end"])
    XCTAssertEqual(server.requests("/hls/144p/ad-a.m3u8").count, 1)
    // No X-RESUME-OFFSET: the content resumes after the time the interstitial played (its
    // one TS segment: 2.02 s), the content it replaced (4 s to 6 s) not shown.
    let after = InterstitialTesting.progress(recorder)
    let first = try XCTUnwrap(after.first)
    XCTAssertGreaterThanOrEqual(first, SDKTesting.seconds(6), "\(after)")
    XCTAssertLessThan(first, SDKTesting.seconds(6.1), "\(after)")
    XCTAssertFalse(after.contains { $0 < SDKTesting.seconds(6) }, "\(after)")
    let summary = try XCTUnwrap(controller.adSummary)
    XCTAssertEqual(summary.breaks, 1)
    XCTAssertEqual(summary.adsCompleted, 1)
    XCTAssertEqual(controller.adTimeline?.slots.first?.adStates, [.played])
  }

  func testAResumeOffsetOfZero_resumesWhereTheContentLeft() throws {
    let server = try Server()
    let url = server.primary(
      "zero",
      [Server.dateRange("ad1", at: 4, "DURATION=2.0,X-ASSET-URI=\"ad-a.m3u8\",X-RESUME-OFFSET=0")])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      ["adSequenceEnter:ad1@4.0", "adEnter:ad1", "adExit:ad1:played", "adSequenceExit", "end"])
    let after = InterstitialTesting.progress(recorder)
    let first = try XCTUnwrap(after.first)
    XCTAssertGreaterThanOrEqual(first, SDKTesting.seconds(4))
    XCTAssertLessThan(first, SDKTesting.seconds(5), "\(after)")
    // Every content frame from 4 s on played: progress passes through 4 s to 6 s.
    XCTAssertTrue(after.contains { $0 > SDKTesting.seconds(4.5) && $0 < SDKTesting.seconds(6) })
  }

  func testARangeInterstitialWithoutResumeOffset_resumesAfterTheRangeItCovers() throws {
    let server = try Server()
    let url = server.primary(
      "range",
      [
        Server.dateRange(
          "range", at: 4, "DURATION=4.0,X-ASSET-URI=\"ad-a.m3u8\",X-TIMELINE-OCCUPIES=\"RANGE\"")
      ])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:range@4.0", "adEnter:range", "adExit:range:played", "adSequenceExit",
        "end",
      ])
    // The 2 s asset replaced the 4 s range: the content goes on at 8 s.
    let after = InterstitialTesting.progress(recorder)
    XCTAssertEqual(after.first, SDKTesting.seconds(8), "\(after)")
  }

  func testAnAssetListOfThree_whoseSecondIs404_playsTheFirstAndThird_andTheContentResumes() throws {
    let server = try Server()
    server.assetList(
      "pod",
      [
        (server.asset("ad-a.m3u8"), 2), (server.asset("missing.m3u8"), 2),
        (server.asset("ad-a.m3u8"), 2),
      ])
    let list = server.server.url("/lists/pod.json").absoluteString
    let url = server.primary(
      "list",
      [Server.dateRange("pod", at: 4, "DURATION=6.0,X-ASSET-LIST=\"\(list)\",X-RESUME-OFFSET=0")])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:pod@4.0", "adEnter:pod-1", "adExit:pod-1:played", "adEnter:pod-2",
        "adError:pod-2:401", "adExit:pod-2:failed", "adEnter:pod-3", "adExit:pod-3:played",
        "adSequenceExit", "end",
      ])
    // The list came through the player's stack once, with the session's primary id and no
    // start offset (playback did not join late).
    let requests = server.requests("/lists/pod.json")
    XCTAssertEqual(requests.count, 1)
    XCTAssertNotNil(requests.first?.queryItems["_HLS_primary_id"])
    XCTAssertNil(requests.first?.queryItems["_HLS_start_offset"])
    XCTAssertEqual(server.requests("/hls/144p/missing.m3u8").count, 1)
    XCTAssertEqual(controller.adTimeline?.slots.first?.adStates, [.played, .failed, .played])
    XCTAssertEqual(controller.adSummary?.errors, 1)
    // The content went on after the break (offset 0: from 4 s).
    XCTAssertTrue(InterstitialTesting.progress(recorder).contains { $0 > SDKTesting.seconds(11) })
  }

  func testAnAssetListThatFails_skipsTheBreakWithAnError_andTheContentContinues() throws {
    let server = try Server()
    let missing = server.server.url("/lists/none.json").absoluteString
    server.server.setFile(Data("not json".utf8), at: "/lists/bad.json")
    let bad = server.server.url("/lists/bad.json").absoluteString
    let url = server.primary(
      "badlist",
      [
        Server.dateRange("gone", at: 4, "X-ASSET-LIST=\"\(missing)\",X-RESUME-OFFSET=0"),
        Server.dateRange("junk", at: 8, "X-ASSET-LIST=\"\(bad)\",X-RESUME-OFFSET=0"),
      ])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder), ["adError:gone:301", "adError:junk:100", "end"])
    XCTAssertEqual(controller.adSummary?.breaks, 0)
    XCTAssertEqual(controller.adSummary?.errors, 2)
  }

  func testAPlayoutLimit_endsTheBreakWhenThatMuchHasPlayed() throws {
    let server = try Server()
    server.assetList("long", [(server.asset("ad-b.m3u8"), 4), (server.asset("ad-a.m3u8"), 2)])
    let list = server.server.url("/lists/long.json").absoluteString
    let url = server.primary(
      "limit",
      [
        Server.dateRange(
          "cut", at: 4, "X-ASSET-LIST=\"\(list)\",X-PLAYOUT-LIMIT=1.5,X-RESUME-OFFSET=0")
      ])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      ["adSequenceEnter:cut@4.0", "adEnter:cut-1", "adExit:cut-1:played", "adSequenceExit", "end"])
    let exit = try XCTUnwrap(recorder.entries.first { $0.detail == "adExit" })
    XCTAssertEqual(exit.time, SDKTesting.seconds(1.5), "the first asset stops at the limit")
    XCTAssertEqual(controller.adTimeline?.slots.first?.adStates, [.played, .skipped])
    XCTAssertEqual(server.requests("/hls/144p/ad-a.m3u8").count, 0, "the rest is not played")
  }

  func testCuePreAndPost_playBeforeAndAfterTheContent() throws {
    let server = try Server()
    let url = server.primary(
      "cues",
      [
        Server.dateRange("pre", at: 6, "CUE=\"PRE\",X-ASSET-URI=\"ad-a.m3u8\""),
        Server.dateRange("post", at: 6, "CUE=\"POST\",X-ASSET-URI=\"ad-a.m3u8\""),
      ])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:pre@0.0", "adEnter:pre", "adExit:pre:played", "adSequenceExit",
        "adSequenceEnter:post@-1.0", "adEnter:post", "adExit:post:played", "adSequenceExit",
        "end",
      ])
    // The pre-roll resumes the content at its start (a VOD pre-roll replaces nothing).
    let after = InterstitialTesting.progress(recorder)
    XCTAssertLessThan(try XCTUnwrap(after.first), SDKTesting.seconds(1), "\(after)")
  }

  func testSnapOut_movesTheBreakToTheNearestSegmentBoundary() throws {
    let server = try Server()
    let url = server.primary(
      "snap",
      [
        Server.dateRange(
          "snap", at: 4.6, "X-ASSET-URI=\"ad-a.m3u8\",X-SNAP=\"OUT,IN\",X-RESUME-OFFSET=0.3")
      ])
    let (controller, recorder) = playToEnd(url)
    defer { controller.close() }
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      ["adSequenceEnter:snap@4.0", "adEnter:snap", "adExit:snap:played", "adSequenceExit", "end"])
    // Leaves at 4 s; returns at 4.3 s, snapped in to 4 s.
    let first = try XCTUnwrap(InterstitialTesting.progress(recorder).first)
    XCTAssertLessThan(first, SDKTesting.seconds(4.3))
  }

  func testInterstitialsOff_playNone() throws {
    let server = try Server()
    let url = server.primary(
      "off", [Server.dateRange("ad1", at: 4, "X-ASSET-URI=\"ad-a.m3u8\"")])
    var configuration = AdsConfiguration.interstitialsOnly
    configuration.playsInterstitials = false
    let (controller, recorder) = playToEnd(url, configuration: configuration)
    defer { controller.close() }
    XCTAssertEqual(InterstitialTesting.events(recorder), ["end"])
    XCTAssertEqual(server.requests("/hls/144p/ad-a.m3u8").count, 0)
  }

  func testTheSameStreamTwice_givesTheSameEvents() throws {
    let server = try Server()
    server.assetList(
      "pod", [(server.asset("ad-a.m3u8"), 2), (server.asset("missing.m3u8"), 2)])
    let list = server.server.url("/lists/pod.json").absoluteString
    let url = server.primary(
      "twice",
      [
        Server.dateRange("pre", at: 0, "CUE=\"PRE\",X-ASSET-URI=\"ad-a.m3u8\""),
        Server.dateRange("pod", at: 6, "X-ASSET-LIST=\"\(list)\""),
      ])
    var runs: [[String]] = []
    for _ in 0..<2 {
      let (controller, recorder) = playToEnd(url)
      runs.append(
        recorder.entries.filter { $0.kind == "lifecycle" && $0.detail.hasPrefix("ad") }.map {
          "\($0.detail)@\($0.time.seconds)"
        })
      controller.close()
    }
    XCTAssertEqual(runs[0], runs[1])
    XCTAssertTrue(runs[0].contains { $0.hasPrefix("adError@") }, "\(runs[0])")
    XCTAssertEqual(runs[0].filter { $0.hasPrefix("adSequenceEnter") }.count, 2)
  }
}
