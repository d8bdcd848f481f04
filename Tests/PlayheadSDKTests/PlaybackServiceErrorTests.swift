import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Every kind of failure: API errors with their list and body, bodies that are not a video,
/// timeouts, refused connections and cancellation, and garbage that must never trap.
final class PlaybackServiceErrorTests: XCTestCase {
  func testAnAPIErrorCarriesTheStatusTheErrorListAndTheBody() throws {
    let api = try CatalogTestAPI(testCase: self)
    let body = Data(CatalogResponses.notFound.utf8)
    api.server.setFault(
      .respond(status: 404, body: body), for: CatalogTestAPI.videoPath("missing"))
    let service = api.service()
    let error = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "missing"))
    }.failure()
    guard case .api(let status, let errors, let raw) = error else {
      return XCTFail("expected an API error, got \(error)")
    }
    XCTAssertEqual(status, 404)
    XCTAssertEqual(raw, body)
    XCTAssertEqual(errors.count, 1)
    XCTAssertEqual(errors.first?.errorCode, "VIDEO_NOT_FOUND")
    XCTAssertEqual(errors.first?.message, "The designated resource was not found.")
    XCTAssertEqual(errors.first?.errorSubcode, "VIDEO_NOT_FOUND")
    XCTAssertEqual(error.httpStatusCode, 404)
    XCTAssertEqual(error.apiErrors, errors)
    XCTAssertEqual(error.rawData, body)
    XCTAssertEqual(
      error.message,
      "Playback API error: HTTP 404: VIDEO_NOT_FOUND (VIDEO_NOT_FOUND): "
        + "The designated resource was not found.")
    XCTAssertEqual(error.playheadError.code, .httpStatus)
    XCTAssertEqual(error.playheadError.httpStatusCode, 404)
  }

  func testErrorBodiesOfOtherShapes() throws {
    let api = try CatalogTestAPI(testCase: self)
    let cases: [(path: String, status: Int, body: String, codes: [String])] = [
      (
        "single", 401, #"{"error_code": "INVALID_POLICY_KEY", "message": "bad key"}"#,
        ["INVALID_POLICY_KEY"]
      ),
      (
        "two", 403,
        #"[{"error_code": "ACCESS_DENIED", "error_subcode": "CLIENT_GEO", "client_geo": "cn"},"#
          + #"{"error_code": "SECOND"}]"#,
        ["ACCESS_DENIED", "SECOND"]
      ),
      ("html", 502, "<html><body>Bad gateway</body></html>", []),
      ("empty", 500, "", []),
      ("nocode", 400, #"[{"message": "no code here"}, 5, null]"#, []),
    ]
    let service = api.service()
    for item in cases {
      api.server.setFault(
        .respond(status: item.status, body: Data(item.body.utf8)),
        for: CatalogTestAPI.videoPath(item.path))
      let error = try catalogOutcome {
        try await service.findVideo(PlaybackServiceRequest(assetID: item.path))
      }.failure()
      XCTAssertEqual(error.httpStatusCode, item.status, item.path)
      XCTAssertEqual(error.apiErrors.map(\.errorCode), item.codes, item.path)
      XCTAssertEqual(error.rawData, Data(item.body.utf8), item.path)
    }
    let status = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "two"))
    }.failure()
    XCTAssertEqual(status.apiErrors.first?.properties["client_geo"], "cn", "every field is kept")
    // A plain status from the server (text body) is an API error too.
    api.server.setFault(.status(503), for: CatalogTestAPI.playlistPath("p"))
    let plain = try catalogOutcome {
      try await service.findPlaylist(PlaybackServiceRequest(assetID: "p"))
    }.failure()
    XCTAssertEqual(plain.httpStatusCode, 503)
    XCTAssertEqual(plain.message, "Playback API error: HTTP 503: 503 Service Unavailable")
  }

  func testASuccessBodyThatIsNotAVideoIsADeserialisationErrorWithTheRawData() throws {
    let api = try CatalogTestAPI(testCase: self)
    let garbage = Data("{\"id\": \"x\", \"sources\": [".utf8)
    api.server.setFile(garbage, at: CatalogTestAPI.videoPath("broken"))
    let wrongType = Data(#"{"id": 5, "sources": []}"#.utf8)
    api.server.setFile(wrongType, at: CatalogTestAPI.videoPath("typed"))
    let service = api.service()
    let broken = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "broken"))
    }.failure()
    XCTAssertEqual(
      broken,
      .deserialization(
        message:
          "the body is not JSON: the text ends inside an array opened at line 1, column 24 (byte offset 23)",
        rawData: garbage))
    XCTAssertEqual(broken.playheadError.category, .source)
    let typed = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "typed"))
    }.failure()
    XCTAssertEqual(
      typed, .deserialization(message: "field video.id is not a string", rawData: wrongType))
    XCTAssertEqual(typed.rawData, wrongType)
  }

  func testAServerThatHangsTimesOut() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.server.setFault(.hang, for: CatalogTestAPI.videoPath("slow"))
    let service = api.service(timeoutMs: 300)
    let error = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "slow"))
    }.failure()
    guard case .network(let reason, let underlying) = error else {
      return XCTFail("expected a network error, got \(error)")
    }
    XCTAssertEqual(reason, .timedOut)
    XCTAssertEqual(underlying.code, .timedOut)
    XCTAssertTrue(error.message.contains("300 ms"), error.message)
  }

  func testARefusedConnectionIsANetworkError() throws {
    let base = URL(string: "http://127.0.0.1:\(HTTPTestServer.unusedPort())/playback/v1")!
    let service = PlaybackService(accountID: "1", policyKey: "k", baseURL: base)
    let error = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v"))
    }.failure()
    guard case .network(let reason, _) = error else {
      return XCTFail("expected a network error, got \(error)")
    }
    XCTAssertEqual(reason, .connectionFailed)
    XCTAssertNil(error.rawData)
  }

  func testAnUnsupportedSchemeIsANetworkErrorOfTheOtherKind() throws {
    let service = PlaybackService(
      accountID: "1", policyKey: "k", baseURL: URL(string: "ftp://example.com/playback/v1")!)
    let error = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v"))
    }.failure()
    guard case .network(let reason, let underlying) = error else {
      return XCTFail("expected a network error, got \(error)")
    }
    XCTAssertEqual(reason, .other)
    XCTAssertEqual(underlying.code, .unsupportedScheme)
  }

  func testCancellingTheTaskEndsTheRequest() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.server.setFault(.hang, for: CatalogTestAPI.videoPath("hang"))
    let service = api.service(timeoutMs: 60_000)
    let finished = expectation(description: "the request ended")
    let task = Task { () -> PlaybackServiceError? in
      defer { finished.fulfill() }
      do throws(PlaybackServiceError) {
        _ = try await service.findVideo(PlaybackServiceRequest(assetID: "hang"))
        return nil
      } catch {
        return error
      }
    }
    XCTAssertTrue(api.server.waitForRequests(count: 1), "the request reached the server")
    task.cancel()
    wait(for: [finished], timeout: 30)
    let outcome = catalogOutcome { await task.value }
    guard case .success(.network(let reason, _)?) = outcome else {
      return XCTFail("expected a cancelled network error, got \(outcome)")
    }
    XCTAssertEqual(reason, PlaybackServiceError.NetworkReason.cancelled)
  }

  func testADataSourceThatThrowsForTheStatusStillGivesAnAPIError() throws {
    let stub = StubNetwork { request throws(PlayheadError) in
      throw PlayheadError(.httpStatus, "HTTP 410", url: request.url, httpStatusCode: 410)
    }
    let service = PlaybackService(accountID: "1", policyKey: "k", network: stub)
    let error = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v"))
    }.failure()
    XCTAssertEqual(error, .api(statusCode: 410, errors: [], rawBody: Data()))
  }

  /// Bodies no API should send: each ends in a result or a typed error, never a trap.
  func testGarbageBodiesNeverTrap() throws {
    var bodies: [Data] = [
      Data(), Data("null".utf8), Data("[]".utf8), Data("{}".utf8), Data("\"video\"".utf8),
      Data("123".utf8), Data("1e400".utf8), Data("true".utf8), Data([0xFF, 0xFE, 0x00, 0x7B]),
      Data(#"{"sources": 5}"#.utf8), Data(#"{"sources": [5, null, {}]}"#.utf8),
      Data(#"{"duration": -1}"#.utf8), Data(#"{"duration": "long"}"#.utf8),
      Data(#"{"duration": 1e308}"#.utf8), Data(#"{"custom_fields": []}"#.utf8),
      Data(#"{"text_tracks": [{"src": 5}]}"#.utf8), Data(#"{"cue_points": {"time": 1}}"#.utf8),
      Data(#"{"cue_points": [{"time": 1e300}]}"#.utf8), Data(#"{"videos": null}"#.utf8),
      Data(#"{"videos": [1, 2]}"#.utf8), Data(#"{"id": "\u0000"}"#.utf8),
      Data(String(repeating: "[", count: 5_000).utf8),
      Data(
        (String(repeating: "{\"a\":", count: 2_000) + "1" + String(repeating: "}", count: 2_000))
          .utf8),
    ]
    let full = Data(CatalogResponses.fullVideo.utf8)
    for length in stride(from: 0, to: full.count, by: 53) { bodies.append(full.prefix(length)) }
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<200 {
      let count = Int(generator.next() % 300)
      bodies.append(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
    }
    // Full responses with one byte changed.
    for _ in 0..<200 {
      var mutated = full
      let index = Int(generator.next() % UInt64(mutated.count))
      mutated[index] = UInt8(truncatingIfNeeded: generator.next())
      bodies.append(mutated)
    }
    for (index, body) in bodies.enumerated() {
      for status in [200, 404, 500] {
        let stub = StubNetwork(status: status, body: body)
        let service = PlaybackService(accountID: "1", policyKey: "k", network: stub)
        let video = catalogOutcome {
          try await service.findVideo(PlaybackServiceRequest(assetID: "v"))
        }
        let playlist = catalogOutcome {
          try await service.findPlaylist(PlaybackServiceRequest(assetID: "p"))
        }
        for outcome in [video.map { _ in () }, playlist.map { _ in () }] {
          switch outcome {
          case .success:
            XCTAssertEqual(status, 200, "body \(index) succeeded with status \(status)")
          case .failure(.deserialization(_, let raw)):
            XCTAssertEqual(status, 200, "body \(index)")
            XCTAssertEqual(raw, body, "body \(index): the raw data is kept")
          case .failure(.api(let code, _, let raw)):
            XCTAssertEqual(code, status, "body \(index)")
            XCTAssertEqual(raw, body, "body \(index): the raw body is kept")
          case .failure(let other):
            XCTFail("body \(index), status \(status): unexpected \(other)")
          }
        }
      }
    }
  }
}

/// A small deterministic generator for the garbage bodies.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
