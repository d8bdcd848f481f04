import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Seeking past mid-rolls in each mode, `seekWithoutAds`, `adsDisabled`, and ads that fail.
final class AdSeekAndFailureTests: XCTestCase {
  func ad(_ id: String, url: URL? = nil, type: String = "video/mp4", api: String? = nil) throws
    -> LinearAd
  {
    LinearAd(
      id: id, duration: SDKTesting.seconds(2),
      mediaFiles: [
        VASTMediaFile(
          url: (try url ?? Fixtures.url("alpha-left.mp4")).absoluteString, type: type,
          apiFramework: api)
      ])
  }

  /// Mid-rolls at 4 s and 6 s: seeks to 8 s before the first play, then play.
  func seekPastTwoMidrolls(
    mode: AdSeekMode, withoutAds: Bool = false, adsDisabled: Bool = false
  ) throws -> (breaks: [JSONValue?], landing: MediaTime?, events: [SDKEntry]) {
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([
          AdBreak(id: "at4", offset: .time(SDKTesting.seconds(4)), source: .ads([try ad("a4")])),
          AdBreak(id: "at6", offset: .time(SDKTesting.seconds(6)), source: .ads([try ad("a6")])),
        ]), seekMode: mode))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.adsDisabled = adsDisabled
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "ready")
    let seeked = expectation(description: "seek")
    if withoutAds {
      controller.seekWithoutAds(to: SDKTesting.seconds(8)) { _ in seeked.fulfill() }
    } else {
      controller.seek(to: SDKTesting.seconds(8)) { _ in seeked.fulfill() }
    }
    wait(for: [seeked], timeout: 60)
    controller.play()
    recorder.waitFor(lifecycle: "end")
    let events = recorder.entries.filter { $0.kind == "lifecycle" }
    let breaks = events.filter { $0.detail == "adSequenceEnter" }.map { $0.properties["breakId"] }
    let firstProgress = recorder.entries.first { $0.kind == "progress" && $0.time > .zero }
    return (breaks, firstProgress?.time, events)
  }

  func testSeekModeLast_playsTheLastBreakJumpedOver_thenTheContentFromTheTarget() throws {
    let result = try seekPastTwoMidrolls(mode: .last)
    XCTAssertEqual(result.breaks, [.string("at6")])
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(result.landing), SDKTesting.seconds(7.9))
  }

  func testSeekModeAll_playsEveryBreakJumpedOver_inOrder() throws {
    let result = try seekPastTwoMidrolls(mode: .all)
    XCTAssertEqual(result.breaks, [.string("at4"), .string("at6")])
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(result.landing), SDKTesting.seconds(7.9))
  }

  func testSeekModeNone_seekWithoutAds_andAdsDisabled_playNoBreak() throws {
    XCTAssertEqual(try seekPastTwoMidrolls(mode: .none).breaks, [])
    XCTAssertEqual(try seekPastTwoMidrolls(mode: .last, withoutAds: true).breaks, [])
    let disabled = try seekPastTwoMidrolls(mode: .all, adsDisabled: true)
    XCTAssertEqual(disabled.breaks, [])
    XCTAssertEqual(disabled.events.filter { $0.detail == "end" }.count, 1)
  }

  func testAFailingAd_endsWithItsErrorCode_andTheNextAdPlays_andTheContentToo() throws {
    let missing = URL(fileURLWithPath: "/nonexistent/ad.mp4")
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([
          AdBreak(
            id: "pre", offset: .start,
            source: .ads([
              try ad("vpaid", type: "application/javascript", api: "VPAID"),
              try ad("gone", url: missing),
              try ad("good"),
            ]))
        ])))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "end")
    let events = recorder.entries.filter { $0.kind == "lifecycle" }
    let errors = events.filter { $0.detail == "adError" }
    XCTAssertEqual(errors.map { $0.properties["adId"] }, [.string("vpaid"), .string("gone")])
    XCTAssertEqual(errors.map { $0.properties["code"] }, [.number(403), .number(401)])
    XCTAssertEqual(errors.first?.error?.code, .adFailed)
    XCTAssertEqual(
      events.filter { $0.detail == "adExit" }.map { $0.properties["adId"] },
      [.string("vpaid"), .string("gone"), .string("good")])
    XCTAssertEqual(controller.adSummary?.adsCompleted, 1)
    XCTAssertEqual(controller.adSummary?.errors, 2)
    XCTAssertEqual(
      controller.adTimeline?.slots.first?.adStates, [.failed, .failed, .played])
    XCTAssertEqual(events.filter { $0.detail == "play" }.count, 1, "the content played")
  }

  func testAnEmptyPod_failsTheBreakWith303_andTheContentPlays() throws {
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(
        schedule: .breaks([AdBreak(id: "pre", offset: .start, source: .ads([]))])))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "end")
    let events = recorder.entries.filter { $0.kind == "lifecycle" }
    XCTAssertEqual(events.filter { $0.detail == "adSequenceEnter" }.count, 0)
    XCTAssertEqual(
      events.filter { $0.detail == "adError" }.map { $0.properties["code"] }, [.number(303)])
  }
}
