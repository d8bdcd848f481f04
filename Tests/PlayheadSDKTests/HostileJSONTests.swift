import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Catalog responses and playlist files a hostile server or user could send: every one is
/// refused by the bounded reader with a typed error naming the problem and its position.
final class HostileJSONTests: XCTestCase {
  /// `{"videos":[{"id":"v0","x":{"a":{"a":…}}}, …]}`: 20 values nested 500 deep.
  private let deepPlaylist: Data = {
    let video = { (index: Int) in
      #"{"id":"v\#(index)","x":"# + String(repeating: #"{"a":"#, count: 500) + "1"
        + String(repeating: "}", count: 500) + "}"
    }
    return Data((#"{"videos":["# + (0..<20).map(video).joined(separator: ",") + "]}").utf8)
  }()

  private let depthMessage = "nested deeper than 64 levels at line 1, column 332 (byte offset 331)"

  func testPlaylistFile_twentyValuesNested500Deep_isRefusedWithTheDepth() throws {
    XCTAssertGreaterThan(deepPlaylist.count, 60_000)
    do {
      _ = try Playlist(jsonData: deepPlaylist)
      XCTFail("parsed")
    } catch {
      XCTAssertEqual(error.code, .malformedJSON)
      XCTAssertEqual(error.message, depthMessage)
      XCTAssertNil(error.path)
      XCTAssertEqual(error.playheadError.code, .malformedJSON)
      XCTAssertEqual(error.playheadError.message, depthMessage)
    }
    XCTAssertThrowsError(try Video(jsonData: deepPlaylist))
    XCTAssertThrowsError(try JSONValue(data: deepPlaylist)) { error in
      XCTAssertEqual((error as? PlayheadSDKError)?.code, .malformedJSON)
    }
  }

  /// Nesting up to the limit is kept in `properties` and written back unchanged.
  func testPlaylistFile_customFieldsNestedUnderTheLimit_areKeptAndRoundTrip() throws {
    // The playlist object, the videos array and the video take three levels, the
    // innermost array one: 64 in all.
    let nested = String(repeating: #"{"a":"#, count: 60) + "[]" + String(repeating: "}", count: 60)
    let text =
      #"{"videos":[{"id":"v","x":\#(nested),"sources":[{"src":"https://a.example/m.mp4"}]}]}"#
    let playlist = try Playlist(jsonData: Data(text.utf8))
    XCTAssertEqual(playlist.videos.first?.sources.count, 1)
    var depth = 0
    var value = playlist.videos.first?.properties["x"]
    while let inner = value?.objectValue?["a"] {
      depth += 1
      value = inner
    }
    XCTAssertEqual(depth, 60)
    XCTAssertEqual(try Playlist(jsonData: playlist.json.jsonData()), playlist)
  }

  func testCatalog_aDeepResponse_isADeserialisationErrorWithThePosition() throws {
    let api = try CatalogTestAPI(testCase: self)
    let video =
      #"{"id":"v0","x":"# + String(repeating: #"{"a":"#, count: 500) + "1"
      + String(repeating: "}", count: 500) + "}"
    api.server.setFile(Data(video.utf8), at: CatalogTestAPI.videoPath("deep"))
    api.server.setFile(deepPlaylist, at: CatalogTestAPI.playlistPath("deep"))
    let service = api.service()
    let videoError = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "deep"))
    }.failure()
    XCTAssertEqual(
      videoError,
      .deserialization(
        message:
          "the body is not JSON: nested deeper than 64 levels at line 1, column 331 (byte offset 330)",
        rawData: Data(video.utf8)))
    let playlistError = try catalogOutcome {
      try await service.findPlaylist(PlaybackServiceRequest(assetID: "deep"))
    }.failure()
    XCTAssertEqual(
      playlistError,
      .deserialization(message: "the body is not JSON: \(depthMessage)", rawData: deepPlaylist))
    XCTAssertThrowsError(try PlaybackService.playlistResult(responseBody: deepPlaylist)) {
      XCTAssertEqual($0 as? PlaybackServiceError, playlistError)
    }
  }

  /// `videoResult(responseBody:)` maps a body exactly as `findVideo` does.
  func testCatalog_aResponseBodyReadDirectly_matchesTheFetchedResult() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("6000000000001", json: CatalogResponses.fullVideo)
    let service = api.service()
    let fetched = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "6000000000001"))
    }.value()
    let direct = try PlaybackService.videoResult(
      responseBody: Data(CatalogResponses.fullVideo.utf8))
    XCTAssertEqual(direct.video, fetched.video)
    XCTAssertEqual(direct.json, fetched.json)
    XCTAssertEqual(direct.warnings, fetched.warnings)
    XCTAssertNil(direct.bumperVideo)
    let list = try PlaybackService.playlistResult(
      responseBody: Data(
        CatalogResponses.playlist(id: "p", videos: [CatalogResponses.fullVideo]).utf8))
    XCTAssertEqual(list.playlist.videos, [fetched.video])
  }

  /// Each hostile body: the error names the problem; none parses, none traps.
  func testCatalog_hostileBodies_giveTypedErrorsNamingTheProblem() throws {
    let tenMB = Data(#"{"id":""#.utf8) + Data(repeating: 0x61, count: 10 << 20) + Data(#""}"#.utf8)
    let cases: [(name: String, body: Data, problem: String)] = [
      (
        "truncated", Data(#"{"id": "v", "sources": [{"src": "https://a"#.utf8),
        "the text ends inside a string that starts at line 1, column 33 (byte offset 32)"
      ),
      (
        "huge number", Data(#"{"id": "v", "duration": 1e999}"#.utf8),
        "the number 1e999 is too large"
      ),
      (
        "duplicate key", Data(#"{"id": "v", "id": "w"}"#.utf8),
        #"the key "id" appears twice in one object at line 1, column 13 (byte offset 12)"#
      ),
      (
        "invalid UTF-8", Data(#"{"name": ""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8),
        "invalid UTF-8 (byte 0x28 inside a character that starts) at line 1, column 11"
      ),
      ("lone surrogate", Data(#"{"name": "\ud83d"}"#.utf8), #"a lone surrogate \uD83D"#),
      (
        "10 MB string", tenMB,
        "a string longer than 1048576 bytes starts at line 1, column 7 (byte offset 6)"
      ),
      ("HTML", Data("<html><body>502</body></html>".utf8), "'<' where a value should start"),
    ]
    for testCase in cases {
      do {
        _ = try PlaybackService.videoResult(responseBody: testCase.body)
        XCTFail("\(testCase.name): parsed")
      } catch {
        guard case .deserialization(let message, let raw) = error else {
          XCTFail("\(testCase.name): \(error)")
          continue
        }
        XCTAssertTrue(
          message.hasPrefix("the body is not JSON: \(testCase.problem)"),
          "\(testCase.name): \(message)")
        XCTAssertEqual(raw, testCase.body, testCase.name)
        XCTAssertLessThan(message.count, 200, testCase.name)
      }
      XCTAssertThrowsError(try Playlist(jsonData: testCase.body), testCase.name) { error in
        XCTAssertEqual((error as? PlayheadSDKError)?.code, .malformedJSON, testCase.name)
      }
    }
  }
}
