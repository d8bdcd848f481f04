import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Stitched ads (seed 000's SSAI plug-in): a VMAP whose break lines up with the stream's
/// ad markers gives the period its ads, their events and their beacons at the period's own
/// times; nothing is played from the ads' media files.
final class StitchedAdTests: XCTestCase {
  /// A VMAP with a pod of two 2 s ads at 4 s (the marked period, 4–8 s) and a break at 1 s
  /// that lines up with no marker.
  private func vmap(_ ads: AdTestServer) -> URL {
    let pod = ads.inlineAd("s1", sequence: 1) + ads.inlineAd("s2", sequence: 2)
    let tracking = ["breakStart", "breakEnd"].map {
      "<vmap:Tracking event=\"\($0)\"><![CDATA[\(ads.beacon("mid", $0))]]></vmap:Tracking>"
    }.joined()
    ads.set(
      """
      <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      <vmap:AdBreak timeOffset="00:00:01.000" breakType="linear" breakId="early">
      <vmap:AdSource id="e" allowMultipleAds="true"><vmap:VASTAdData><VAST version="3.0">
      \(ads.inlineAd("e1"))</VAST></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
      <vmap:AdBreak timeOffset="00:00:04.000" breakType="linear" breakId="mid">
      <vmap:AdSource id="m" allowMultipleAds="true"><vmap:VASTAdData><VAST version="3.0">
      \(pod)</VAST></vmap:VASTAdData></vmap:AdSource>
      <vmap:TrackingEvents>\(tracking)</vmap:TrackingEvents></vmap:AdBreak>
      </vmap:VMAP>
      """, at: "/vmap.xml")
    return ads.url("/vmap.xml")
  }

  private func play(_ folder: String, ads: AdTestServer) throws -> (SDKRecorder, AdSummary?) {
    let (server, url) = try MarkedPlaylist.serve(folder)
    defer { server.stop() }
    var configuration = AdsConfiguration(schedule: .adTag(vmap(ads)))
    configuration.adsAreStitched = true
    let (controller, recorder) = SDKTesting.makeController(
      provider: AdsSessionProvider(configuration: configuration))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "ssai", url: url)])
    recorder.waitFor(lifecycle: "end")
    // Beacons go out off the playback path: wait for all 16 (7 per ad, break start and end).
    recorder.waitFor(lifecycle: "adBeacon", count: 16)
    return (recorder, controller.adSummary)
  }

  func testTheVMAPsPod_tracksTheMarkedPeriod_adByAd_inTSAndFMP4() throws {
    for folder in ["hls/144p", "hls-fmp4/144p"] {
      let ads = try AdTestServer()
      let (recorder, summary) = try play(folder, ads: ads)
      let events = recorder.entries.filter {
        $0.kind == "lifecycle" && $0.detail.hasPrefix("ad") && $0.detail != "adBeacon"
          && $0.detail != "adProgress"
      }
      XCTAssertEqual(
        events.map { "\($0.detail)@\($0.time.seconds)" },
        [
          "adSequenceEnter@4.0", "adEnter@4.0", "adExit@6.0", "adEnter@6.0", "adExit@8.0",
          "adSequenceExit@8.0",
        ], folder)
      XCTAssertEqual(
        events.filter { $0.detail == "adEnter" }.map { $0.properties["adId"] },
        [.string("s1"), .string("s2")])
      XCTAssertEqual(events.first?.properties["breakId"], .string("mid"))
      XCTAssertEqual(events.first?.properties["serverSide"], .bool(true))
      // Every beacon once, none for the break that lines up with no marker, no media fetched.
      let counts = ads.beaconCounts
      for ad in ["s1", "s2"] {
        for event in [
          "impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile",
          "complete",
        ] {
          XCTAssertEqual(counts["/t/\(ad)/\(event)"], 1, "\(folder) \(ad) \(event)")
        }
        XCTAssertEqual(counts["/t/\(ad)/pause"], 0)
      }
      XCTAssertEqual(counts["/t/mid/breakStart"], 1)
      XCTAssertEqual(counts["/t/mid/breakEnd"], 1)
      XCTAssertEqual(counts["/t/e1/impression"], 0, "the early break is not in the stream")
      XCTAssertEqual(ads.server.requestCount(for: "/ad.mp4"), 0, "stitched: nothing to fetch")
      // Macros: the impression names the content's playhead at the break and its position.
      let impression = try XCTUnwrap(ads.requests("/t/s1/impression").first?.queryItems)
      XCTAssertEqual(impression["b"], "2", "a mid-roll")
      XCTAssertEqual(impression["c"], "00:00:04.000", "the content's playhead at the break")
      XCTAssertEqual(summary?.adsStarted, 2)
      XCTAssertEqual(summary?.adsCompleted, 2)
      XCTAssertEqual(summary?.breaks, 1)
    }
  }

  func testPausingAStitchedAd_sendsItsPauseAndResume_andTheStatusNamesIt() throws {
    let ads = try AdTestServer()
    let (server, url) = try MarkedPlaylist.serve("hls/144p")
    defer { server.stop() }
    var configuration = AdsConfiguration(schedule: .adTag(vmap(ads)))
    configuration.adsAreStitched = true
    let clock = ManualClock()
    let (controller, recorder) = SDKTesting.makeController(
      provider: AdsSessionProvider(configuration: configuration),
      configuration: PlayerConfiguration(clock: clock, videoSink: DiscardVideoSink()))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "ssai", url: url)])
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adEnter" }
    }
    let status = try XCTUnwrap(controller.adPlaybackStatus)
    XCTAssertEqual(status.adNumber, 1)
    XCTAssertEqual(status.adCount, 2)
    XCTAssertEqual(status.adID, "s1")
    XCTAssertTrue(status.isServerSide)
    XCTAssertEqual(status.duration, SDKTesting.seconds(2))
    XCTAssertNil(status.skippableFrom, "a stitched ad cannot be skipped")
    controller.pause()
    recorder.waitFor(lifecycle: "adPaused")
    controller.play()
    recorder.waitFor(lifecycle: "adResumed")
    SDKTesting.drive(clock, recorder: recorder) { entries in
      entries.contains { $0.detail == "adSequenceExit" }
    }
    recorder.waitFor("the pause and resume beacons") { entries in
      entries.filter { entry in
        entry.detail == "adBeacon"
          && ["pause", "resume"].contains(entry.properties["event"]?.stringValue ?? "")
      }.count >= 2
    }
    let counts = ads.beaconCounts
    XCTAssertEqual(counts["/t/s1/pause"], 1)
    XCTAssertEqual(counts["/t/s1/resume"], 1)
    XCTAssertEqual(counts["/t/s2/pause"], 0)
  }
}
