import Foundation
import PlayheadCore
import PlayheadSDK
import XCTest

final class JSONConversionTests: XCTestCase {
  private let videoText = """
    {
      "id": "6140442539001", "name": "Sea Turtles", "reference_id": null,
      "description": "short", "long_description": null, "duration": 31487,
      "poster": "https://cf.example/poster.jpg", "thumbnail": "https://cf.example/thumb.jpg",
      "projection": "equirectangular", "tags": ["nature", "sea"],
      "created_at": "2019-10-24T18:38:13.254Z", "published_at": "2019-10-24T18:38:13.254Z",
      "updated_at": "2020-01-02T03:04:05.000Z", "account_id": "1752604059001",
      "economics": "AD_SUPPORTED", "offline_enabled": false, "ad_keys": null,
      "custom_fields": {"bumper_id": "99", "rating": "PG"},
      "link": {"url": "https://example.com", "text": "more"},
      "text_tracks": [{"id": "t1", "src": "https://cf.example/de.vtt", "srclang": "de",
        "label": "Deutsch", "kind": "captions", "default": true, "mime_type": "text/vtt",
        "in_band": false, "sources": [{"src": "https://cf.example/de.vtt"}]}],
      "cue_points": [
        {"id": "c2", "name": "mid", "type": "CODE", "time": 12.5, "metadata": "m",
         "force_stop": false},
        {"id": "c1", "name": "pre", "type": "AD", "time": 0, "metadata": null,
         "force_stop": true}
      ],
      "sources": [
        {"src": "https://cf.example/master.m3u8", "type": "application/x-mpegURL",
         "ext_x_version": "4", "profiles": "high"},
        {"src": "https://cf.example/v.mp4", "type": "video/mp4", "codec": "H264",
         "container": "MP4", "width": 1280, "height": 720, "avg_bitrate": 1234567,
         "size": 987654, "duration": 31487, "encoding_rate": 1200000},
        {"src": "https://cf.example/manifest.mpd", "type": "application/dash+xml",
         "key_systems": {"com.widevine.alpha": {"license_url": "https://lic.example"}}}
      ]
    }
    """

  private func parse(_ text: String) throws -> JSONValue {
    try JSONValue(data: Data(text.utf8))
  }

  func testVideoRoundTripKeepsUnknownFields() throws {
    let original = try parse(videoText)
    let video = try Video(json: original)
    XCTAssertEqual(video.id, "6140442539001")
    XCTAssertEqual(video.name, "Sea Turtles")
    XCTAssertNil(video.referenceID)
    XCTAssertEqual(video.duration, MediaTime(milliseconds: 31_487))
    XCTAssertEqual(video.poster?.absoluteString, "https://cf.example/poster.jpg")
    XCTAssertEqual(video.projection, "equirectangular")
    XCTAssertEqual(video.customFields, ["bumper_id": "99", "rating": "PG"])
    XCTAssertEqual(video.properties["economics"], "AD_SUPPORTED")
    XCTAssertEqual(video.sources.map(\.deliveryMethod), [.hls, .mp4, .dash])
    XCTAssertEqual(video.sources[1].properties["avg_bitrate"], .number(1_234_567))
    XCTAssertEqual(video.cuePoints.map(\.name), ["pre", "mid"])
    XCTAssertEqual(
      video.cuePoints[1].position, .time(MediaTime(value: 25, timescale: 2)))
    XCTAssertEqual(video.cuePoints[1].properties["force_stop"], false)
    let track = try XCTUnwrap(video.textTracks.first)
    XCTAssertEqual(track.srclang, "de")
    XCTAssertTrue(track.isDefault)
    XCTAssertEqual(track.mimeType, "text/vtt")
    XCTAssertEqual(track.properties["in_band"], false)

    // Back to JSON: identical except cue points now in position order.
    var expected = try XCTUnwrap(original.objectValue)
    let cues = try XCTUnwrap(expected["cue_points"]?.arrayValue)
    expected["cue_points"] = .array(cues.reversed())
    XCTAssertEqual(video.json, .object(expected))
    // And through text again.
    let reparsed = try Video(jsonData: try video.json.jsonData())
    XCTAssertEqual(reparsed, video)
  }

  func testPlaylistRoundTripAndBareArray() throws {
    let text = """
      {"id": "pl1", "name": "List", "type": "EXPLICIT", "description": null,
       "videos": [\(videoText), {"id": "2", "sources": [{"src": "file:///tmp/a.mp4"}]}]}
      """
    let original = try parse(text)
    let playlist = try Playlist(json: original)
    XCTAssertEqual(playlist.id, "pl1")
    XCTAssertEqual(playlist.name, "List")
    XCTAssertEqual(playlist.videos.count, 2)
    XCTAssertEqual(playlist.properties["type"], "EXPLICIT")
    XCTAssertEqual(try Playlist(json: playlist.json), playlist)
    let second = try XCTUnwrap(original.objectValue?["videos"]?.arrayValue?[1])
    XCTAssertEqual(
      playlist.videos[1].json,
      second.objectValue.map {
        var object = $0
        object["cue_points"] = []
        return .object(object)
      })

    let bare = try Playlist(jsonData: Data("[\(videoText), {\"sources\": []}]".utf8))
    XCTAssertEqual(bare.videos.count, 2)
    XCTAssertNil(bare.id)
    XCTAssertEqual(bare.videos[0], playlist.videos[0])
    XCTAssertEqual(bare.videos[1].sources, [])
    XCTAssertEqual(try Playlist(jsonData: Data("[]".utf8)).videos, [])
  }

  func testSourceWithoutTypeGetsNoneAddedButManualMethodIsWritten() throws {
    let plain = try Source(json: ["src": "https://a/v.m3u8"])
    XCTAssertEqual(plain.deliveryMethod, .hls)
    XCTAssertEqual(plain.json, ["src": "https://a/v.m3u8"])
    let manual = Source(url: try XCTUnwrap(URL(string: "https://a/stream")), deliveryMethod: .hls)
    XCTAssertEqual(manual.json, ["src": "https://a/stream", "type": "application/x-mpegURL"])
    let reparsed = try Source(json: manual.json)
    XCTAssertEqual(reparsed.deliveryMethod, .hls)
    XCTAssertEqual(reparsed, manual.update { $0.properties["type"] = "application/x-mpegURL" })
    XCTAssertEqual(reparsed.json, manual.json)
  }

  func testCuePointPositionsInJSON() throws {
    let before = try CuePoint(json: ["type": "AD", "time": "before"])
    XCTAssertEqual(before.position, .before)
    XCTAssertEqual(before.json, ["type": "AD", "time": "before"])
    let after = try CuePoint(json: ["time": "after"])
    XCTAssertEqual(after.position, .after)
    XCTAssertEqual(after.type, "")
    let timed = try CuePoint(json: ["type": "CODE", "time": 3.25, "metadata": "x"])
    XCTAssertEqual(timed.json, ["type": "CODE", "time": 3.25, "metadata": "x"])
  }

  func testJSONValueDistinguishesBoolsAndNumbers() throws {
    let value = try parse(#"{"a": true, "b": 1, "c": 0, "d": null, "e": [false, 2.5, "s"]}"#)
    XCTAssertEqual(value, ["a": true, "b": 1, "c": 0, "d": nil, "e": [false, 2.5, "s"]])
    XCTAssertEqual(try JSONValue(data: value.jsonData()), value)
  }

  func testMalformedInputThrowsTypedErrors() throws {
    struct Case {
      let name: String
      let text: String
      let code: PlayheadSDKError.Code
      let path: String?
    }
    let cases: [Case] = [
      Case(name: "not JSON", text: "{\"videos\": [", code: .malformedJSON, path: nil),
      Case(name: "empty text", text: "", code: .malformedJSON, path: nil),
      Case(name: "scalar", text: "42", code: .invalidValue, path: "playlist"),
      Case(name: "no videos", text: #"{"id": "1"}"#, code: .missingField, path: "videos"),
      Case(name: "videos not array", text: #"{"videos": {}}"#, code: .invalidValue, path: "videos"),
      Case(name: "video not object", text: "[1]", code: .invalidValue, path: "videos[0]"),
      Case(
        name: "source without src", text: #"[{"sources": [{"type": "video/mp4"}]}]"#,
        code: .missingField, path: "videos[0].sources[0].src"),
      Case(
        name: "src not string", text: #"[{"sources": [{"src": 5}]}]"#, code: .invalidValue,
        path: "videos[0].sources[0].src"),
      Case(
        name: "src not URL", text: #"[{"sources": [{"src": "no scheme here"}]}]"#,
        code: .invalidValue, path: "videos[0].sources[0].src"),
      Case(
        name: "sources not array", text: #"[{"sources": "x"}]"#, code: .invalidValue,
        path: "videos[0].sources"),
      Case(
        name: "cue point time", text: #"[{}, {"cue_points": [{"type": "AD", "time": -1}]}]"#,
        code: .invalidValue, path: "videos[1].cue_points[0].time"),
      Case(
        name: "cue point huge time", text: #"[{"cue_points": [{"time": 1e300}]}]"#,
        code: .invalidValue, path: "videos[0].cue_points[0].time"),
      Case(
        name: "deeply nested", text: String(repeating: "[", count: 100_000),
        code: .malformedJSON, path: nil),
      Case(
        name: "cue point no time", text: #"[{"cue_points": [{"type": "AD"}]}]"#,
        code: .missingField, path: "videos[0].cue_points[0].time"),
      Case(
        name: "duration string", text: #"[{"duration": "long"}]"#, code: .invalidValue,
        path: "videos[0].duration"),
      Case(
        name: "id number", text: #"[{"id": 7}]"#, code: .invalidValue, path: "videos[0].id"),
      Case(
        name: "custom fields", text: #"[{"custom_fields": []}]"#, code: .invalidValue,
        path: "videos[0].custom_fields"),
      Case(
        name: "text track default", text: #"[{"text_tracks": [{"default": "yes"}]}]"#,
        code: .invalidValue, path: "videos[0].text_tracks[0].default"),
    ]
    for testCase in cases {
      do {
        _ = try Playlist(jsonData: Data(testCase.text.utf8))
        XCTFail("\(testCase.name): no error")
      } catch {
        XCTAssertEqual(error.code, testCase.code, testCase.name)
        XCTAssertEqual(error.path, testCase.path, testCase.name)
        XCTAssertFalse(error.message.isEmpty)
        XCTAssertFalse(error.message.contains("\n"), testCase.name)
      }
    }
  }
}
