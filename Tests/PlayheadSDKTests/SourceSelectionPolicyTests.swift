import Foundation
import PlayheadSDK
import XCTest

final class SourceSelectionPolicyTests: XCTestCase {
  private func source(_ text: String, type: String? = nil) throws -> Source {
    let url = try XCTUnwrap(URL(string: text))
    return Source(url: url, properties: type.map { ["type": .string($0)] } ?? [:])
  }

  private let hlsType = "application/x-mpegURL"

  func testDASHPolicyPrefersDASHThenFallsBackToTheSeedOrder() throws {
    let mixed = Video(sources: [
      try source("https://a/v.m3u8"), try source("http://a/plain.mpd"),
      try source("https://a/secure", type: "application/dash+xml"), try source("https://a/v.mp4"),
    ])
    XCTAssertEqual(
      try SourceSelectionPolicy.dash().chooseSource(for: mixed).url.absoluteString,
      "https://a/secure")
    XCTAssertEqual(
      try SourceSelectionPolicy.dash(preferringScheme: "http").chooseSource(for: mixed).url
        .absoluteString, "http://a/plain.mpd")
    XCTAssertEqual(
      try SourceSelectionPolicy.default.chooseSource(for: mixed).url.absoluteString,
      "https://a/v.m3u8", "the default is unchanged: HLS first")
    let noDASH = Video(sources: [try source("https://a/v.mp4"), try source("https://a/v.m3u8")])
    XCTAssertEqual(
      try SourceSelectionPolicy.dash().chooseSource(for: noDASH).url.absoluteString,
      "https://a/v.m3u8")
  }

  func testDefaultPolicyFollowsSeedOrder() throws {
    struct Case {
      let name: String
      let sources: [Source]
      let expected: String
    }
    let cases: [Case] = [
      Case(
        name: "1: first HLS over https wins over earlier http HLS and MP4",
        sources: [
          try source("https://a/v.mp4"), try source("http://a/http.m3u8"),
          try source("https://a/first.m3u8"), try source("https://a/second.m3u8"),
        ],
        expected: "https://a/first.m3u8"),
      Case(
        name: "2: no https HLS, first HLS over http",
        sources: [
          try source("https://a/v.mp4"), try source("http://a/one", type: hlsType),
          try source("http://a/two.m3u8"),
        ],
        expected: "http://a/one"),
      Case(
        name: "3: no HLS, first MP4",
        sources: [
          try source("https://a/v.mpd"), try source("http://a/first.mp4"),
          try source("https://a/second", type: "video/mp4"),
        ],
        expected: "http://a/first.mp4"),
      Case(
        name: "3: file-scheme HLS is not preferred over MP4",
        sources: [try source("file:///v.m3u8"), try source("https://a/v.mp4")],
        expected: "https://a/v.mp4"),
      Case(
        name: "4: neither HLS nor MP4, the first source",
        sources: [try source("https://a/first.mpd"), try source("rtmp://a/live")],
        expected: "https://a/first.mpd"),
      Case(
        name: "single local file",
        sources: [try source("file:///tmp/x.m3u8")],
        expected: "file:///tmp/x.m3u8"),
    ]
    for testCase in cases {
      let video = Video(sources: testCase.sources)
      let chosen = try SourceSelectionPolicy.default.chooseSource(for: video)
      XCTAssertEqual(chosen.url.absoluteString, testCase.expected, testCase.name)
    }
  }

  func testSchemeHelperPrefersGivenScheme() throws {
    let video = Video(sources: [
      try source("https://a/secure.m3u8"), try source("http://a/plain.m3u8"),
    ])
    XCTAssertEqual(
      try SourceSelectionPolicy.hls(preferringScheme: "http").chooseSource(for: video).url
        .absoluteString, "http://a/plain.m3u8")
    XCTAssertEqual(
      try SourceSelectionPolicy.hls(preferringScheme: "HTTPS").chooseSource(for: video).url
        .absoluteString, "https://a/secure.m3u8")
    let local = Video(sources: [try source("https://a/v.m3u8"), try source("file:///v.m3u8")])
    XCTAssertEqual(
      try SourceSelectionPolicy.hls(preferringScheme: "file").chooseSource(for: local).url
        .absoluteString, "file:///v.m3u8")
  }

  func testCustomPolicyIsUsed() throws {
    let policy = SourceSelectionPolicy.custom { video in
      video.sources.last { $0.deliveryMethod == .mp4 }
    }
    let video = Video(sources: [
      try source("https://a/v.m3u8"), try source("https://a/low.mp4"),
      try source("https://a/high.mp4"),
    ])
    XCTAssertEqual(try policy.chooseSource(for: video).url.absoluteString, "https://a/high.mp4")
  }

  func testNoPlayableSourceThrowsTypedError() throws {
    let empty = Video(sources: []).update { $0.id = "123" }
    XCTAssertNil(SourceSelectionPolicy.default.source(for: empty))
    XCTAssertThrowsError(try SourceSelectionPolicy.default.chooseSource(for: empty)) { error in
      guard let sdkError = error as? PlayheadSDKError else {
        return XCTFail("unexpected error \(error)")
      }
      XCTAssertEqual(sdkError.code, .noPlayableSource)
      XCTAssertTrue(sdkError.message.contains("no playable source"), sdkError.message)
      XCTAssertTrue(sdkError.message.contains("123"), sdkError.message)
      XCTAssertEqual(sdkError.playheadError.code, .noPlayableStreams)
    }
    let refusing = SourceSelectionPolicy { _ in nil }
    let video = Video(sources: [try source("https://a/v.m3u8")])
    XCTAssertThrowsError(try refusing.chooseSource(for: video)) { error in
      XCTAssertEqual((error as? PlayheadSDKError)?.code, .noPlayableSource)
    }
  }

  func testDeliveryMethodDerivation() throws {
    let table: [(String, String?, DeliveryMethod)] = [
      ("https://a/x.m3u8", nil, .hls),
      ("https://a/x", "application/vnd.apple.mpegurl", .hls),
      ("https://a/x.mp4", "application/x-mpegURL", .hls),
      ("https://a/x.MP4", nil, .mp4),
      ("https://a/x", "video/mp4; codecs=avc1", .mp4),
      ("https://a/x.mpd", nil, .dash),
      ("https://a/x", "application/dash+xml", .dash),
      ("https://a/x.webm", "video/webm", .other("video/webm")),
      ("https://a/x.flv", nil, .other("flv")),
    ]
    for (text, type, expected) in table {
      XCTAssertEqual(try source(text, type: type).deliveryMethod, expected, text)
    }
  }
}
