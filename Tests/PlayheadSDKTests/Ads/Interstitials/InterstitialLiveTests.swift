import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// Interstitials of a live playlist join the timeline as reloads bring them.
final class InterstitialLiveTests: XCTestCase {
  typealias Server = InterstitialTestServer

  func testAnInterstitialThatAppearsOnALaterReload_playsAtItsStart() throws {
    let server = try Server()
    let path = "/hls/144p/live.m3u8"
    let requests = Locked(0)
    // Reload by reload: three segments, four, then all six with the interstitial at 10 s,
    // then the same with the end.
    let versions = [
      Server.playlist(segments: 0..<3, endList: false, live: true),
      Server.playlist(segments: 0..<4, endList: false, live: true),
      Server.playlist(
        segments: 0..<6,
        dateRanges: [
          Server.dateRange(
            "live1", at: 10, "DURATION=2.0,X-ASSET-URI=\"ad-a.m3u8\",X-RESUME-OFFSET=0")
        ], endList: false, live: true),
      Server.playlist(
        segments: 0..<6,
        dateRanges: [
          Server.dateRange(
            "live1", at: 10, "DURATION=2.0,X-ASSET-URI=\"ad-a.m3u8\",X-RESUME-OFFSET=0")
        ], endList: true, live: true),
    ]
    server.server.setFile(Data(versions[0].utf8), at: path)
    server.server.setBodyRewriter { request, body in
      guard request.path == path else { return body }
      let index = requests.withLock { count -> Int in
        count += 1
        return min(count, versions.count) - 1
      }
      return Data(versions[index].utf8)
    }
    let (controller, recorder) = InterstitialTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "live", url: server.server.url(path))])
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:live1@10.0", "adEnter:live1", "adExit:live1:played", "adSequenceExit",
        "end",
      ])
    XCTAssertGreaterThanOrEqual(requests.value, 3, "the interstitial came with a reload")
    XCTAssertEqual(server.requests("/hls/144p/ad-a.m3u8").count, 1)
  }
}

extension InterstitialLiveTests {
  func testJoiningALiveInterstitialPartWay_asksForTheListFromTheOffset_andOneLongPastIsNotPlayed()
    throws
  {
    let server = try Server()
    server.assetList("live", [(server.asset("ad-a.m3u8"), 2)])
    let list = server.server.url("/lists/live.json").absoluteString
    let path = "/hls/144p/join.m3u8"
    let ranges = [
      Server.dateRange("old", at: 0, "DURATION=2.0,X-ASSET-URI=\"ad-a.m3u8\""),
      Server.dateRange("join", at: 4, "DURATION=10.0,X-ASSET-LIST=\"\(list)\""),
    ]
    // Playback joins three segments from the end (at 6 s), 2 s into "join"; the second
    // load ends the stream.
    let versions = [
      Server.playlist(segments: 0..<6, dateRanges: ranges, endList: false, live: true),
      Server.playlist(segments: 0..<6, dateRanges: ranges, endList: true, live: true),
    ]
    let requests = Locked(0)
    server.server.setFile(Data(versions[0].utf8), at: path)
    server.server.setBodyRewriter { request, body in
      guard request.path == path else { return body }
      let index = requests.withLock { count -> Int in
        count += 1
        return min(count, versions.count) - 1
      }
      return Data(versions[index].utf8)
    }
    let (controller, recorder) = InterstitialTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "live", url: server.server.url(path))])
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(
      InterstitialTesting.events(recorder),
      [
        "adSequenceEnter:join@4.0", "adEnter:join-1", "adExit:join-1:played", "adSequenceExit",
        "end",
      ])
    let asked = try XCTUnwrap(server.requests("/lists/live.json").first)
    XCTAssertEqual(asked.queryItems["_HLS_start_offset"], "2")
    // No X-RESUME-OFFSET: the content resumes the time played (2.02 s) past the point
    // joined (4 s + 2 s): it keeps its distance to the live edge.
    let first = try XCTUnwrap(InterstitialTesting.progress(recorder).first)
    XCTAssertGreaterThanOrEqual(first, SDKTesting.seconds(8))
    XCTAssertLessThan(first, SDKTesting.seconds(8.1))
  }
}
