import Foundation
import PlayheadAds
import PlayheadCore
import XCTest

/// Breaks added to a timeline at a place the caller knows, and slots made playable again.
final class AdTimelineInsertTests: XCTestCase {
  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  private func ad(_ id: String) -> LinearAd {
    LinearAd(id: id, mediaFiles: [VASTMediaFile(url: "https://ads.example/\(id).m3u8")])
  }

  func testInsert_keepsPlayOrder_refusesADuplicateId_andIgnoresTheContentDuration() {
    var timeline = AdTimeline(
      breaks: [
        AdBreak(id: "pre", offset: .start, source: .ads([ad("a")])),
        AdBreak(id: "mid", offset: .time(seconds(10)), source: .ads([ad("b")])),
      ], contentDuration: seconds(20))
    let at5 = timeline.insert(
      AdBreak(id: "i5", offset: .time(seconds(5)), source: .assetList(URL(string: "https://x/l")!)),
      at: .midroll(seconds(5)))
    XCTAssertEqual(at5, 1)
    // Past the content's duration, but placed as a mid-roll all the same (a live timeline).
    let at30 = timeline.insert(
      AdBreak(id: "i30", offset: .time(seconds(30)), source: .ads([ad("c")])),
      at: .midroll(seconds(30)))
    XCTAssertEqual(at30, 3)
    XCTAssertNil(
      timeline.insert(AdBreak(id: "mid", offset: .start, source: .ads([])), at: .preroll))
    XCTAssertEqual(timeline.slots.map(\.id), ["pre", "i5", "mid", "i30"])
    XCTAssertFalse(timeline.slots[1].isLoaded, "an asset list is fetched when its turn comes")
    XCTAssertEqual(timeline.slots[3].position, .midroll(seconds(30)))
    // Placing again (a duration change) keeps the order and so the indices.
    timeline.place(contentDuration: seconds(40))
    XCTAssertEqual(timeline.slots.map(\.id), ["pre", "i5", "mid", "i30"])
  }

  func testRearm_makesAPlayedOrFailedSlotPlayableAgain() {
    var timeline = AdTimeline(
      breaks: [
        AdBreak(id: "uri", offset: .time(seconds(4)), source: .ads([ad("a")])),
        AdBreak(
          id: "list", offset: .time(seconds(8)), source: .assetList(URL(string: "https://x/l")!)),
      ])
    timeline.setState(.played, ofAd: 0, inSlot: 0)
    timeline.setAds([ad("b"), ad("c")], forSlot: 1)
    timeline.setState(.failed, ofAd: 0, inSlot: 1)
    timeline.failSlot(1, errorCode: 101)
    XCTAssertTrue(timeline.slots.allSatisfy(\.isFinished))
    timeline.rearm(0)
    timeline.rearm(1)
    timeline.rearm(7)
    XCTAssertEqual(timeline.slots[0].adStates, [.available])
    XCTAssertFalse(timeline.slots[0].isFinished)
    XCTAssertFalse(timeline.slots[1].isLoaded, "the list is fetched anew")
    XCTAssertEqual(timeline.slots[1].ads, [])
    XCTAssertNil(timeline.slots[1].errorCode)
    XCTAssertFalse(timeline.slots[1].isFinished)
  }
}
