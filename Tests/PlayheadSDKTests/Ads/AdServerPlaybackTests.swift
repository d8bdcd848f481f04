import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Ads from a VMAP on a local ad server: pre-roll inline, a mid-roll pod reached through two
/// wrappers, a post-roll by tag; every beacon once, macros expanded.
final class AdServerPlaybackTests: XCTestCase {
  func makeServer() throws -> AdTestServer {
    let ads = try AdTestServer()
    ads.set(
      """
      <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
      <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre">
      <vmap:AdSource id="pre" allowMultipleAds="true" followRedirects="true"><vmap:VASTAdData>
      <VAST version="3.0">\(ads.inlineAd("pre1"))</VAST>
      </vmap:VASTAdData></vmap:AdSource>
      <vmap:TrackingEvents>
      <vmap:Tracking event="breakStart"><![CDATA[\(ads.beacon("pre", "breakStart"))]]></vmap:Tracking>
      <vmap:Tracking event="breakEnd"><![CDATA[\(ads.beacon("pre", "breakEnd"))]]></vmap:Tracking>
      </vmap:TrackingEvents>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="00:00:04.000" breakType="linear" breakId="mid">
      <vmap:AdSource><vmap:AdTagURI templateType="vast3"><![CDATA[BASE/wrapper1.xml]]></vmap:AdTagURI></vmap:AdSource>
      </vmap:AdBreak>
      <vmap:AdBreak timeOffset="end" breakType="linear" breakId="post">
      <vmap:AdSource><vmap:AdTagURI templateType="vast3"><![CDATA[BASE/post.xml]]></vmap:AdTagURI></vmap:AdSource>
      </vmap:AdBreak>
      </vmap:VMAP>
      """, at: "/vmap.xml")
    ads.set(ads.wrapper("w1", target: "BASE/wrapper2.xml"), at: "/wrapper1.xml")
    ads.set(ads.wrapper("w2", target: "BASE/pod.xml"), at: "/wrapper2.xml")
    ads.set(
      """
      <VAST version="3.0">\(ads.inlineAd("m1", sequence: 1, skipOffset: "00:00:01"))\(ads.inlineAd("m2", sequence: 2))</VAST>
      """, at: "/pod.xml")
    ads.set("<VAST version=\"4.1\">\(ads.inlineAd("q1"))</VAST>", at: "/post.xml")
    return ads
  }

  func run(_ ads: AdTestServer) throws -> (events: [SDKEntry], summary: AdSummary?) {
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(schedule: .adTag(ads.url("/vmap.xml"))))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "end")
    // Every beacon reports its outcome: wait for all of them (4 ads × 7 + 2 break + 4 wrapper
    // impressions).
    recorder.waitFor(lifecycle: "adBeacon", count: 34)
    return (recorder.entries.filter { $0.kind == "lifecycle" }, controller.adSummary)
  }

  func testAVMAPWithPrerollWrappedPodAndPostroll_firesEveryBeaconOnce_withMacros() throws {
    let ads = try makeServer()
    let (events, summary) = try run(ads)
    let adEvents = events.map(\.detail).filter {
      $0.hasPrefix("ad") && $0 != "adBeacon" && $0 != "adProgress"
    }
    XCTAssertEqual(
      adEvents,
      [
        "adSequenceEnter", "adEnter", "adExit", "adSequenceExit",
        "adSequenceEnter", "adEnter", "adExit", "adEnter", "adExit", "adSequenceExit",
        "adSequenceEnter", "adEnter", "adExit", "adSequenceExit",
      ])
    XCTAssertEqual(events.filter { $0.detail == "end" }.count, 1)
    XCTAssertEqual(summary?.adsCompleted, 4)
    let counts = ads.beaconCounts
    for ad in ["pre1", "m1", "m2", "q1"] {
      for event in [
        "impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile",
        "complete",
      ] {
        XCTAssertEqual(counts["/t/\(ad)/\(event)"], 1, "\(ad) \(event)")
      }
      for event in ["pause", "resume", "skip", "error"] {
        XCTAssertEqual(counts["/t/\(ad)/\(event)"], 0, "\(ad) \(event)")
      }
    }
    XCTAssertEqual(counts["/t/pre/breakStart"], 1)
    XCTAssertEqual(counts["/t/pre/breakEnd"], 1)
    // Both wrappers' impressions reach both ads of the pod they lead to.
    XCTAssertEqual(counts["/t/w1/impression"], 2)
    XCTAssertEqual(counts["/t/w2/impression"], 2)
    // Macros: the mid-roll's impression carries the content playhead at the break.
    let mid = ads.requests("/t/m1/impression").first?.queryItems
    XCTAssertEqual(mid?["c"], "00:00:04.000")
    XCTAssertEqual(mid?["b"], "2")
    XCTAssertEqual(ads.requests("/t/pre1/impression").first?.queryItems["b"], "1")
    XCTAssertEqual(ads.requests("/t/q1/impression").first?.queryItems["b"], "3")
  }

  func testTheSameSessionTwice_givesTheSameAdEvents() throws {
    // The ad events, and the content's, each in order with their times. (How the content's
    // buffering events interleave with the ads' depends on when the real HTTP answers come.)
    func names(_ events: [SDKEntry], ads: Bool) -> [String] {
      events.filter {
        $0.detail.hasPrefix("ad") == ads && $0.detail != "adBeacon" && $0.detail != "adProgress"
      }.map { "\($0.detail)@\($0.time.seconds)" }
    }
    let first = try run(try makeServer()).events
    let second = try run(try makeServer()).events
    XCTAssertEqual(names(first, ads: true), names(second, ads: true))
    XCTAssertEqual(names(first, ads: false), names(second, ads: false))
    XCTAssertFalse(names(first, ads: true).contains { $0.hasPrefix("adError") })
  }
}
