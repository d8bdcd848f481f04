import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// HLS Interstitials from `EXT-X-DATERANGE`, and the asset-list request URL.
final class InterstitialTests: XCTestCase {
  private let date = "2024-01-01T00:00:00Z"

  private func list(_ ranges: [Int: String], live: Bool = false, dated: Bool = true) throws
    -> InterstitialList
  {
    try AdPlaylist.parse(
      AdPlaylist.text(count: 6, markers: ranges, live: live, date: dated ? date : nil)
    ).interstitials()
  }

  private func range(_ id: String, _ attributes: String) -> String {
    "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",\(attributes)"
  }

  func testAssetURI_everyAttribute() throws {
    let result = try list([
      2: range(
        "ad1",
        "START-DATE=\"2024-01-01T00:00:10Z\",DURATION=15.5,PLANNED-DURATION=16,"
          + "X-ASSET-URI=\"ads/one.m3u8\",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=20.5,"
          + "X-SNAP=\"OUT,IN\",X-RESTRICT=\"SKIP,JUMP\",X-TIMELINE-OCCUPIES=\"RANGE\","
          + "X-CONTENT-MAY-VARY=\"NO\",X-COM-EXAMPLE-BEACON=\"b\"")
    ])
    XCTAssertEqual(result.issues, [])
    let interstitial = try XCTUnwrap(result.interstitials.first)
    XCTAssertEqual(interstitial.id, "ad1")
    XCTAssertEqual(
      interstitial.asset, .uri(URL(string: "https://example.com/live/ads/one.m3u8")!))
    XCTAssertEqual(interstitial.start, time(10))
    XCTAssertEqual(interstitial.duration, time(155, 10))
    XCTAssertEqual(interstitial.plannedDuration, time(16))
    XCTAssertEqual(interstitial.resumeOffset, .zero)
    XCTAssertEqual(interstitial.effectiveResumeOffset, .zero)
    XCTAssertEqual(interstitial.playoutLimit, time(205, 10))
    XCTAssertEqual(interstitial.snap, [.out, .in])
    XCTAssertEqual(interstitial.restrictions, [.skip, .jump])
    XCTAssertEqual(interstitial.timelineOccupies, .range)
    XCTAssertFalse(interstitial.contentMayVary)
    XCTAssertEqual(interstitial.clientAttributes["X-COM-EXAMPLE-BEACON"], "b")
    XCTAssertNil(interstitial.assetListRequestURL(primaryID: "p"), "an X-ASSET-URI has no list")
  }

  func testAssetList_cuesAndDefaults() throws {
    let result = try list([
      0: range(
        "pre",
        "START-DATE=\"2024-01-01T00:00:00Z\",CUE=\"PRE,ONCE\",X-ASSET-LIST=\"https://ads.example.com/list.json\""
      ),
      6: range(
        "post",
        "START-DATE=\"2024-01-01T00:00:24Z\",CUE=\"POST\",DURATION=5,X-ASSET-LIST=\"/post.json\""),
    ])
    XCTAssertEqual(result.issues, [])
    XCTAssertEqual(result.interstitials.map(\.id), ["pre", "post"])
    let pre = result.interstitials[0]
    XCTAssertEqual(pre.cue, [.pre, .once])
    XCTAssertEqual(pre.start, .zero)
    XCTAssertEqual(pre.asset, .list(URL(string: "https://ads.example.com/list.json")!))
    XCTAssertEqual(pre.timelineOccupies, .point)
    XCTAssertTrue(pre.contentMayVary)
    XCTAssertNil(pre.effectiveResumeOffset, "no offset, no duration: the assets decide")
    let post = result.interstitials[1]
    XCTAssertEqual(post.start, time(24))
    XCTAssertEqual(post.asset, .list(URL(string: "https://example.com/post.json")!))
    XCTAssertEqual(post.effectiveResumeOffset, time(5), "absent X-RESUME-OFFSET: the duration")
  }

  func testInvalidInterstitials_areReportedNotFatal() throws {
    let result = try list([
      1: range(
        "both", "START-DATE=\"2024-01-01T00:00:04Z\",X-ASSET-URI=\"a.m3u8\",X-ASSET-LIST=\"l.json\""
      ),
      2: range("none", "START-DATE=\"2024-01-01T00:00:08Z\",DURATION=4"),
      3: range("local", "START-DATE=\"2024-01-01T00:00:12Z\",X-ASSET-URI=\"file:///etc/passwd\""),
      4: range(
        "good",
        "START-DATE=\"2024-01-01T00:00:16Z\",X-ASSET-URI=\"g.m3u8\",X-SNAP=\"SIDEWAYS\",X-RESUME-OFFSET=soon"
      ),
      5: "#EXT-X-DATERANGE:ID=\"other\",START-DATE=\"2024-01-01T00:00:20Z\",X-ASSET-URI=\"x.m3u8\"",
    ])
    XCTAssertEqual(result.interstitials.map(\.id), ["good"], "other classes are not interstitials")
    XCTAssertEqual(result.issues.filter(\.isFatal).map(\.id), ["both", "none", "local"])
    XCTAssertTrue(result.issues[0].message.contains("both X-ASSET-URI and X-ASSET-LIST"))
    XCTAssertTrue(result.issues[1].message.contains("neither"))
    XCTAssertTrue(result.issues[2].message.contains("scheme 'file'"), result.issues[2].message)
    let ignored = result.issues.filter { !$0.isFatal }
    XCTAssertEqual(ignored.map(\.id), ["good", "good"])
    XCTAssertEqual(result.interstitials[0].snap, [])
    XCTAssertNil(result.interstitials[0].resumeOffset)
  }

  func testSameIDTags_mergeAndUndatedPlaylists_leaveTheStartUnknown() throws {
    let merged = try list([
      1: range("m", "START-DATE=\"2024-01-01T00:00:04Z\",X-ASSET-URI=\"a.m3u8\""),
      3: "#EXT-X-DATERANGE:ID=\"m\",DURATION=6,X-RESUME-OFFSET=3",
    ])
    XCTAssertEqual(merged.interstitials.count, 1)
    XCTAssertEqual(merged.interstitials[0].duration, time(6))
    XCTAssertEqual(merged.interstitials[0].resumeOffset, time(3))
    let undated = try list(
      [1: range("u", "START-DATE=\"2024-01-01T00:00:04Z\",X-ASSET-URI=\"a.m3u8\"")], dated: false)
    XCTAssertEqual(undated.interstitials.count, 1)
    XCTAssertNil(undated.interstitials[0].start)
    XCTAssertTrue(
      undated.issues.contains { !$0.isFatal && $0.message.contains("program date-time") })
  }

  func testLive_interstitialsInAWindow() throws {
    let result = try list(
      [
        5: range(
          "live", "START-DATE=\"2024-01-01T00:00:30Z\",X-ASSET-LIST=\"l.json\",X-RESTRICT=\"JUMP\"")
      ],
      live: true)
    XCTAssertEqual(result.interstitials.first?.start, time(30), "after the live edge")
    XCTAssertEqual(result.interstitials.first?.restrictions, [.jump])
  }

  func testAssetListRequestURL_addsPrimaryIDAndStartOffsetOnlyWhenJoiningPartWay() throws {
    let interstitial = Interstitial(
      id: "i",
      asset: .list(URL(string: "https://ads.example.com/list.json?a=1&_HLS_primary_id=old")!))
    XCTAssertEqual(
      interstitial.assetListRequestURL(primaryID: "abc-123")?.absoluteString,
      "https://ads.example.com/list.json?a=1&_HLS_primary_id=abc-123")
    XCTAssertEqual(
      interstitial.assetListRequestURL(primaryID: "abc", startOffset: .zero)?.absoluteString,
      "https://ads.example.com/list.json?a=1&_HLS_primary_id=abc")
    XCTAssertEqual(
      interstitial.assetListRequestURL(primaryID: "abc", startOffset: time(12500, 1000))?
        .absoluteString,
      "https://ads.example.com/list.json?a=1&_HLS_primary_id=abc&_HLS_start_offset=12.5")
    XCTAssertEqual(
      interstitial.assetListRequestURL(primaryID: nil)?.absoluteString,
      "https://ads.example.com/list.json?a=1")
    XCTAssertEqual(
      interstitial.assetListRequestURL(primaryID: "a b&c")?.absoluteString,
      "https://ads.example.com/list.json?a=1&_HLS_primary_id=a%20b%26c")
  }
}
