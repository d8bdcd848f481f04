import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// What the catalog client sends: path, headers and query, ID against reference ID, the
/// token, paging, extra headers and parameters, and requests it refuses to send.
final class PlaybackServiceRequestTests: XCTestCase {
  func testFindVideoByIDSendsThePathAndThePolicyKey() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("6000000000001", json: CatalogResponses.video(id: "6000000000001"))
    let service = api.service()
    let result = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "6000000000001"))
    }.value()
    XCTAssertEqual(result.video.id, "6000000000001")
    let logged = try XCTUnwrap(api.requests(to: CatalogTestAPI.videoPath("6000000000001")).first)
    XCTAssertEqual(logged.method, "GET")
    XCTAssertEqual(logged.headers["accept"], "application/json;pk=\(CatalogTestAPI.policyKey)")
    XCTAssertNil(logged.headers["authorization"], "no token, no Authorization header")
    XCTAssertNil(logged.query, "no parameters, no query")
    XCTAssertEqual(api.server.requests.count, 1)
  }

  func testAReferenceIDUsesTheRefPrefixAndIsPercentEncoded() throws {
    let api = try CatalogTestAPI(testCase: self)
    let reference = "bird chickadee/ü+1"
    api.serveVideo("ref:\(reference)", json: CatalogResponses.video(id: "v-ref"))
    let service = api.service()
    let request = PlaybackServiceRequest(referenceID: reference)
    XCTAssertEqual(
      try service.videoURL(for: request).absoluteString,
      api.baseURL.absoluteString
        + "/accounts/1234567890/videos/ref:bird%20chickadee%2F%C3%BC%2B1")
    let result = try catalogOutcome { try await service.findVideo(request) }.value()
    XCTAssertEqual(result.video.id, "v-ref")
    XCTAssertEqual(api.requests(to: CatalogTestAPI.videoPath("ref:\(reference)")).count, 1)
  }

  func testTheIDWinsOverTheReferenceIDAndRefIdentifiersParse() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    api.serveVideo("ref:r1", json: CatalogResponses.video(id: "from-ref"))
    let service = api.service()
    let both = PlaybackServiceRequest(assetID: "v1", referenceID: "r1")
    XCTAssertEqual(try catalogOutcome { try await service.findVideo(both) }.value().video.id, "v1")
    XCTAssertEqual(api.requests(to: CatalogTestAPI.videoPath("ref:r1")).count, 0)

    let parsed = PlaybackServiceRequest(identifier: "ref:r1")
    XCTAssertEqual(parsed.referenceID, "r1")
    XCTAssertNil(parsed.assetID)
    XCTAssertEqual(PlaybackServiceRequest(identifier: "v1").assetID, "v1")
    let prefixedID = PlaybackServiceRequest(assetID: "ref:r1")
    XCTAssertEqual(
      try catalogOutcome { try await service.findVideo(prefixedID) }.value().video.id,
      "from-ref", "an asset ID written ref:REF is a reference ID")
    let emptyID = PlaybackServiceRequest(assetID: "", referenceID: "r1")
    XCTAssertEqual(
      try catalogOutcome { try await service.findVideo(emptyID) }.value().video.id, "from-ref",
      "an empty ID counts as absent")
  }

  func testTheAuthTokenIsSentAsABearerToken() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    api.servePlaylist("p1", json: CatalogResponses.playlist(id: "p1", videos: []))
    let service = api.service()
    _ = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v1", authToken: "jwt.abc.def"))
    }.value()
    _ = try catalogOutcome {
      try await service.findPlaylist(PlaybackServiceRequest(assetID: "p1", authToken: "jwt.2"))
    }.value()
    let video = try XCTUnwrap(api.requests(to: CatalogTestAPI.videoPath("v1")).first)
    XCTAssertEqual(video.headers["authorization"], "Bearer jwt.abc.def")
    XCTAssertEqual(video.headers["accept"], "application/json;pk=\(CatalogTestAPI.policyKey)")
    let playlist = try XCTUnwrap(api.requests(to: CatalogTestAPI.playlistPath("p1")).first)
    XCTAssertEqual(playlist.headers["authorization"], "Bearer jwt.2")
  }

  func testWithoutAPolicyKeyOnlyTheTokenAuthenticates() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    let service = api.service(policyKey: nil)
    _ = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v1", authToken: "t"))
    }.value()
    let logged = try XCTUnwrap(api.server.requests.first)
    XCTAssertEqual(logged.headers["accept"], "application/json")
    XCTAssertEqual(logged.headers["authorization"], "Bearer t")
  }

  func testPlaylistPagingAndPassThroughParameters() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.servePlaylist(
      "p1",
      json: CatalogResponses.playlist(
        id: "p1", videos: [CatalogResponses.video(id: "v2"), CatalogResponses.video(id: "v3")]))
    let service = api.service()
    var request = PlaybackServiceRequest(assetID: "p1")
    request.limit = 2
    request.offset = 1
    request.adConfigID = "ad cfg"
    let sent = request
    let result = try catalogOutcome {
      try await service.findPlaylist(
        sent, queryParameters: ["config_id": "delivery-1", "limit": "99", "x": "a&b=c"])
    }.value()
    XCTAssertEqual(result.playlist.videos.compactMap(\.id), ["v2", "v3"])
    let logged = try XCTUnwrap(api.requests(to: CatalogTestAPI.playlistPath("p1")).first)
    XCTAssertEqual(
      logged.queryItems,
      [
        "limit": "2", "offset": "1", "ad_config_id": "ad cfg", "config_id": "delivery-1",
        "x": "a&b=c",
      ],
      "the request's limit replaces the parameter of the same name")
    XCTAssertEqual(
      logged.query, "ad_config_id=ad%20cfg&config_id=delivery-1&limit=2&offset=1&x=a%26b%3Dc",
      "sorted by name, values encoded")
  }

  func testVideoRequestsPassParametersButNotPaging() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    let service = api.service()
    var request = PlaybackServiceRequest(assetID: "v1")
    request.limit = 5
    request.deliveryConfigID = "cfg"
    let sent = request
    _ = try catalogOutcome {
      try await service.findVideo(sent, queryParameters: ["ad_config_id": "ads"])
    }.value()
    let logged = try XCTUnwrap(api.server.requests.first)
    XCTAssertEqual(logged.queryItems, ["ad_config_id": "ads", "config_id": "cfg"])
  }

  func testExtraHeadersFromTheServiceAndTheRequest() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    let service = api.service(
      headers: ["X-App": "demo", "X-Both": "service", "accept": "text/html"])
    var request = PlaybackServiceRequest(assetID: "v1", authToken: "tok")
    request.headers = ["X-Both": "request", "Authorization": "Basic nope"]
    let sent = request
    _ = try catalogOutcome { try await service.findVideo(sent) }.value()
    let logged = try XCTUnwrap(api.server.requests.first)
    XCTAssertEqual(logged.headers["x-app"], "demo")
    XCTAssertEqual(logged.headers["x-both"], "request")
    XCTAssertEqual(
      logged.headers["accept"], "application/json;pk=\(CatalogTestAPI.policyKey)",
      "the policy key header is the service's own")
    XCTAssertEqual(logged.headers["authorization"], "Bearer tok")
  }

  func testTheProxyDomainGivesTheBaseURL() throws {
    XCTAssertEqual(
      PlaybackService.baseURL(proxyDomain: "host.mydomain.com")?.absoluteString,
      "https://host.mydomain.com/playback/v1")
    XCTAssertNil(PlaybackService.baseURL(proxyDomain: ""))
    XCTAssertNil(PlaybackService.baseURL(proxyDomain: "host/path"))
    let base = try XCTUnwrap(PlaybackService.baseURL(proxyDomain: "cn.example.com"))
    let service = PlaybackService(accountID: "42", policyKey: "k", baseURL: base)
    XCTAssertEqual(
      try service.playlistURL(for: PlaybackServiceRequest(identifier: "ref:x")).absoluteString,
      "https://cn.example.com/playback/v1/accounts/42/playlists/ref:x")
    XCTAssertEqual(
      PlaybackService(accountID: "42", policyKey: "k").baseURL.absoluteString,
      "https://edge.api.brightcove.com/playback/v1")
    let slashed = PlaybackService(
      accountID: "42", policyKey: "k", baseURL: URL(string: "http://h/playback/v1/")!)
    XCTAssertEqual(
      try slashed.videoURL(for: PlaybackServiceRequest(assetID: "1")).absoluteString,
      "http://h/playback/v1/accounts/42/videos/1")
  }

  func testRequestsThatCannotBeMadeAreRefusedWithoutSending() throws {
    let api = try CatalogTestAPI(testCase: self)
    let service = api.service()
    let refused: [(PlaybackServiceRequest, String)] = [
      (PlaybackServiceRequest(), "no asset ID or reference ID"),
      (PlaybackServiceRequest(assetID: "", referenceID: ""), "no asset ID or reference ID"),
      (PlaybackServiceRequest(identifier: "ref:"), "no asset ID or reference ID"),
      (PlaybackServiceRequest(assetID: "p", limit: 0), "limit 0 is below 1"),
      (PlaybackServiceRequest(assetID: "p", offset: -1), "offset -1 is negative"),
    ]
    for (request, message) in refused {
      let error = try catalogOutcome { try await service.findPlaylist(request) }.failure()
      XCTAssertEqual(error, .invalidRequest(message: message))
    }
    let noAccount = PlaybackService(accountID: " ", policyKey: "k", baseURL: api.baseURL)
    let error = try catalogOutcome {
      try await noAccount.findVideo(PlaybackServiceRequest(assetID: "v"))
    }.failure()
    XCTAssertEqual(error, .invalidRequest(message: "no account ID"))
    XCTAssertEqual(error.playheadError.code, .invalidArgument)
    XCTAssertTrue(api.server.requests.isEmpty, "nothing was sent")
  }

  func testAnyDataSourceCanCarryTheRequests() throws {
    let body = Data(CatalogResponses.video(id: "stub").utf8)
    let stub = StubNetwork(status: 200, body: body)
    let service = PlaybackService(accountID: "9", policyKey: "pk", network: stub)
    let result = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "stub", authToken: "t"))
    }.value()
    XCTAssertEqual(result.video.id, "stub")
    XCTAssertEqual(result.rawData, body)
    let request = try XCTUnwrap(stub.requests.first)
    XCTAssertEqual(
      request.url.absoluteString,
      "https://edge.api.brightcove.com/playback/v1/accounts/9/videos/stub")
    XCTAssertEqual(request.headers["Accept"], "application/json;pk=pk")
    XCTAssertEqual(request.headers["Authorization"], "Bearer t")
    XCTAssertTrue(request.deliversErrorResponses)
  }
}
