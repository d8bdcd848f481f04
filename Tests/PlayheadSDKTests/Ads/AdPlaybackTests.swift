import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Client-side ad breaks given as a list, played in fast mode: order of events, the
/// content's exact stop and resume, the single end.
final class AdPlaybackTests: XCTestCase {
  static let adEvents: Set<String> = [
    "adSequenceEnter", "adSequenceExit", "adEnter", "adExit", "adError", "adSkipped", "end",
  ]

  func ad(_ id: String, file: String = "alpha-left.mp4", sequence: Int? = nil) throws -> LinearAd {
    LinearAd(
      id: id, sequence: sequence, duration: SDKTesting.seconds(2),
      mediaFiles: [VASTMediaFile(url: try Fixtures.url(file).absoluteString, type: "video/mp4")])
  }

  func makeAdsController(_ breaks: [AdBreak], seekMode: AdSeekMode = .last) -> (
    PlaybackController, SDKRecorder
  ) {
    let provider = AdsSessionProvider(
      configuration: AdsConfiguration(schedule: .breaks(breaks), seekMode: seekMode))
    return SDKTesting.makeController(provider: provider)
  }

  func testPreMidAndPostRolls_playInOrder_theContentStopsAndResumesAtTheBreak_andEndsOnce()
    throws
  {
    let (controller, recorder) = makeAdsController([
      AdBreak(id: "pre", offset: .start, source: .ads([try ad("p1")])),
      AdBreak(
        id: "mid", offset: .time(SDKTesting.seconds(4)),
        source: .ads([try ad("m2", sequence: 2), try ad("m1", sequence: 1)])),
      AdBreak(id: "post", offset: .end, source: .ads([try ad("q1")])),
    ])
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "content", url: try Fixtures.url("sample-h264-aac.mp4"))
    ])
    recorder.waitFor(lifecycle: "end")
    let entries = recorder.entries.filter { $0.kind == "lifecycle" }
    let names = entries.map(\.detail).filter(Self.adEvents.contains)
    XCTAssertEqual(
      names,
      [
        "adSequenceEnter", "adEnter", "adExit", "adSequenceExit",
        "adSequenceEnter", "adEnter", "adExit", "adEnter", "adExit", "adSequenceExit",
        "adSequenceEnter", "adEnter", "adExit", "adSequenceExit", "end",
      ])
    let enters = entries.filter { $0.detail == "adEnter" }.map { $0.properties["adId"] }
    XCTAssertEqual(enters, [.string("p1"), .string("m1"), .string("m2"), .string("q1")])
    // The content stopped exactly at 4 s for the mid-roll and went on from there.
    let midEnter = entries.filter { $0.detail == "adSequenceEnter" }[1]
    XCTAssertEqual(midEnter.time, SDKTesting.seconds(4))
    XCTAssertEqual(midEnter.properties["breakId"], .string("mid"))
    let midExit = entries.filter { $0.detail == "adSequenceExit" }[1]
    XCTAssertEqual(midExit.time, SDKTesting.seconds(4))
    // No pause or second play for the content around the breaks.
    XCTAssertEqual(entries.filter { $0.detail == "pause" }.count, 0)
    XCTAssertEqual(entries.filter { $0.detail == "play" }.count, 1)
    XCTAssertEqual(entries.filter { $0.detail == "end" }.count, 1)
    // Progress of the content never went backwards across the break.
    let progress = recorder.entries.filter { $0.kind == "progress" }.map(\.time)
    XCTAssertEqual(progress, progress.sorted())
    let summary = controller.adSummary
    XCTAssertEqual(summary?.breaks, 3)
    XCTAssertEqual(summary?.adsStarted, 4)
    XCTAssertEqual(summary?.adsCompleted, 4)
    XCTAssertEqual(summary?.errors, 0)
  }
}
