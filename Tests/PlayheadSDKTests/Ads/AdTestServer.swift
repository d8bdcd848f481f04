import Foundation
import PlayheadTestSupport
import PlayheadTesting
import XCTest

/// A local ad server: VAST and VMAP documents, the ad media, and tracking URLs that answer
/// 200 and are counted (every beacon path is `/t/<ad>/<event>`).
final class AdTestServer {
  let server: HTTPTestServer
  private(set) var beaconPaths: [String] = []

  init() throws {
    server = HTTPTestServer()
    try server.start()
    server.setFile(try Data(contentsOf: Fixtures.url("alpha-left.mp4")), at: "/ad.mp4")
  }

  deinit { server.stop() }

  var base: String { server.baseURL.absoluteString.trimmingCharacters(in: ["/"]) }

  func url(_ path: String) -> URL { server.url(path) }

  func set(_ text: String, at path: String) {
    server.setFile(Data(text.replacingOccurrences(of: "BASE", with: base).utf8), at: path)
  }

  /// A tracking URL for `event` of `ad`, registered so that it answers 200.
  func beacon(_ ad: String, _ event: String, query: String = "") -> String {
    let path = "/t/\(ad)/\(event)"
    if !beaconPaths.contains(path) {
      beaconPaths.append(path)
      server.setFile(Data("ok".utf8), at: path)
    }
    return "BASE\(path)" + (query.isEmpty ? "" : "?\(query)")
  }

  /// How often each beacon path was requested.
  var beaconCounts: [String: Int] {
    Dictionary(uniqueKeysWithValues: beaconPaths.map { ($0, server.requestCount(for: $0)) })
  }

  /// An InLine ad with every linear tracking event, an impression and an error URL.
  func inlineAd(
    _ id: String, sequence: Int? = nil, media: String = "BASE/ad.mp4", type: String = "video/mp4",
    apiFramework: String? = nil, skipOffset: String? = nil, clickThrough: Bool = false
  ) -> String {
    let events = [
      "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
      "pause", "resume", "skip",
    ]
    let tracking = events.map {
      "<Tracking event=\"\($0)\"><![CDATA[\(beacon(id, $0))]]></Tracking>"
    }
    .joined()
    let framework = apiFramework.map { " apiFramework=\"\($0)\"" } ?? ""
    let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
    let clicks =
      clickThrough
      ? "<VideoClicks><ClickThrough>https://advertiser.example/\(id)</ClickThrough>"
        + "<ClickTracking><![CDATA[\(beacon(id, "click"))]]></ClickTracking></VideoClicks>" : ""
    return """
      <Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine><AdSystem>test</AdSystem>
      <AdTitle>\(id)</AdTitle>
      <Impression><![CDATA[\(beacon(id, "impression", query: "c=[CONTENTPLAYHEAD]&b=[BREAKPOSITION]"))]]></Impression>
      <Error><![CDATA[\(beacon(id, "error", query: "code=[ERRORCODE]"))]]></Error>
      <Creatives><Creative><Linear\(skip)><Duration>00:00:02.000</Duration>
      <TrackingEvents>\(tracking)</TrackingEvents>\(clicks)
      <MediaFiles><MediaFile delivery="progressive" type="\(type)" width="320" height="240"\(framework)><![CDATA[\(media)]]></MediaFile></MediaFiles>
      </Linear></Creative></Creatives></InLine></Ad>
      """
  }

  /// A wrapper pointing at `target`, with its own impression.
  func wrapper(_ id: String, target: String) -> String {
    """
    <VAST version="3.0"><Ad id="\(id)"><Wrapper allowMultipleAds="true"><AdSystem>test</AdSystem>
    <VASTAdTagURI><![CDATA[\(target)]]></VASTAdTagURI>
    <Impression><![CDATA[\(beacon(id, "impression"))]]></Impression>
    <Creatives></Creatives></Wrapper></Ad></VAST>
    """
  }

  /// Requests of `path`, with their queries.
  func requests(_ path: String) -> [HTTPTestServer.LoggedRequest] {
    server.requests.filter { $0.path == path }
  }
}
