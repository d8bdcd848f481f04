import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Bumpers through the catalog: the request's bumper ID or reference ID, the video's
/// `bumper_id` custom field (which wins), failures that do not fail the content, the cache
/// behind `bumperLookup`, and a bumper played by the controller.
final class PlaybackServiceBumperTests: XCTestCase {
  func testTheRequestedBumperIsFetchedWithTheVideoAndCached() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    api.serveVideo("b1", json: CatalogResponses.video(id: "b1", name: "Bumper"))
    let service = api.service()
    var request = PlaybackServiceRequest(assetID: "v1", authToken: "tok")
    request.bumperID = "b1"
    request.bumperReferenceID = "ignored"
    let sent = request
    let result = try catalogOutcome {
      try await service.findVideo(sent, queryParameters: ["ad_config_id": "a"])
    }.value()
    XCTAssertEqual(result.bumperVideo?.id, "b1")
    XCTAssertEqual(result.bumperVideo?.name, "Bumper")
    XCTAssertTrue(result.bumperErrors.isEmpty)
    let bumperRequest = try XCTUnwrap(api.requests(to: CatalogTestAPI.videoPath("b1")).first)
    XCTAssertEqual(bumperRequest.headers["authorization"], "Bearer tok")
    XCTAssertNil(bumperRequest.query, "the content's parameters are not sent for the bumper")
    XCTAssertEqual(api.requests(to: CatalogTestAPI.videoPath("ref:ignored")).count, 0)
    XCTAssertEqual(service.bumperLookup("b1")?.id, "b1")
    XCTAssertNil(service.bumperLookup("v1"), "content is not a bumper")

    _ = try catalogOutcome { try await service.findVideo(sent) }.value()
    XCTAssertEqual(
      api.requests(to: CatalogTestAPI.videoPath("b1")).count, 1, "the second time from cache")
    service.clearBumperCache()
    XCTAssertNil(service.bumperLookup("b1"))
  }

  func testABumperReferenceID() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1"))
    api.serveVideo("ref:brand intro", json: CatalogResponses.video(id: "b7"))
    let service = api.service()
    let request = PlaybackServiceRequest(assetID: "v1", bumperReferenceID: "brand intro")
    let result = try catalogOutcome { try await service.findVideo(request) }.value()
    XCTAssertEqual(result.bumperVideo?.id, "b7")
    XCTAssertEqual(service.bumperLookup("ref:brand intro")?.id, "b7")
    XCTAssertEqual(service.bumperLookup("b7")?.id, "b7")
  }

  func testTheCustomFieldBumperWinsOverTheRequestedOne() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1", customFields: ["bumper_id": "b2"]))
    api.serveVideo("b1", json: CatalogResponses.video(id: "b1"))
    api.serveVideo("b2", json: CatalogResponses.video(id: "b2"))
    let service = api.service()
    let request = PlaybackServiceRequest(assetID: "v1", bumperID: "b1")
    let result = try catalogOutcome { try await service.findVideo(request) }.value()
    XCTAssertEqual(result.video.bumperID, "b2")
    XCTAssertEqual(result.bumperVideo?.id, "b2")
    XCTAssertEqual(
      api.requests(to: CatalogTestAPI.videoPath("b1")).count, 0,
      "the requested bumper is not needed")
    XCTAssertEqual(service.bumperLookup("b2")?.id, "b2")
  }

  func testABumperThatFailsDoesNotFailTheVideo() throws {
    let api = try CatalogTestAPI(testCase: self)
    api.serveVideo("v1", json: CatalogResponses.video(id: "v1", customFields: ["bumper_id": "b2"]))
    api.serveVideo("b1", json: CatalogResponses.video(id: "b1"))
    api.server.setFault(
      .respond(status: 404, body: Data(CatalogResponses.notFound.utf8)),
      for: CatalogTestAPI.videoPath("b2"))
    let service = api.service()
    let request = PlaybackServiceRequest(assetID: "v1", bumperID: "b1")
    let result = try catalogOutcome { try await service.findVideo(request) }.value()
    XCTAssertEqual(result.video.id, "v1")
    XCTAssertEqual(result.bumperVideo?.id, "b1", "the requested bumper stands in")
    XCTAssertEqual(result.bumperErrors["b2"]?.httpStatusCode, 404)
    XCTAssertEqual(result.bumperErrors["b2"]?.apiErrors.first?.errorCode, "VIDEO_NOT_FOUND")
    XCTAssertNil(service.bumperLookup("b2"))

    let missing = PlaybackServiceRequest(assetID: "v1", bumperReferenceID: "nope")
    let alone = try catalogOutcome { try await service.findVideo(missing) }.value()
    XCTAssertNil(alone.bumperVideo)
    XCTAssertEqual(Set(alone.bumperErrors.keys), ["b2", "ref:nope"])
  }

  func testPlaylistBumpers() throws {
    let api = try CatalogTestAPI(testCase: self)
    let videos = [
      CatalogResponses.video(id: "v1"),
      CatalogResponses.video(id: "v2", customFields: ["bumper_id": "b2"]),
      CatalogResponses.video(id: "v3", customFields: ["bumper_id": "b2"]),
    ]
    api.servePlaylist("p1", json: CatalogResponses.playlist(id: "p1", videos: videos))
    api.serveVideo("b1", json: CatalogResponses.video(id: "b1"))
    api.serveVideo("b2", json: CatalogResponses.video(id: "b2"))
    let service = api.service()
    let request = PlaybackServiceRequest(assetID: "p1", bumperID: "b1")
    let result = try catalogOutcome { try await service.findPlaylist(request) }.value()
    XCTAssertEqual(result.bumperVideo?.id, "b1")
    XCTAssertEqual(Set(result.bumpers.keys), ["b2"])
    let list = result.playlist.videos
    XCTAssertEqual(list.map { result.bumper(for: $0)?.id }, ["b1", "b2", "b2"])
    XCTAssertEqual(api.requests(to: CatalogTestAPI.videoPath("b2")).count, 1, "fetched once")
    XCTAssertEqual(
      list.map { service.bumperLookup($0.bumperID ?? "") }.map(\.?.id), [nil, "b2", "b2"])
  }

  func testTheControllerPlaysTheCustomFieldBumperThroughTheLookup() throws {
    let api = try CatalogTestAPI(testCase: self, withFixtures: true)
    let bumperMedia = api.server.url("/alpha-left.mp4").absoluteString
    let contentMedia = api.server.url("/sample-audio.mp3").absoluteString
    api.serveVideo(
      "v1",
      json: CatalogResponses.video(
        id: "v1", src: contentMedia, customFields: ["bumper_id": "b2"]))
    api.serveVideo("b2", json: CatalogResponses.video(id: "b2", src: bumperMedia))
    let service = api.service()
    let result = try catalogOutcome {
      try await service.findVideo(PlaybackServiceRequest(assetID: "v1"))
    }.value()
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.bumperLookup = service.bumperLookup
    controller.autoPlay = true
    controller.setVideos([result.video])
    recorder.waitFor(lifecycle: "end")
    let names = recorder.lifecycle().filter {
      ["bumperEnter", "bumperExit", "play", "end"].contains($0)
    }
    XCTAssertEqual(names, ["bumperEnter", "bumperExit", "play", "end"])
    XCTAssertGreaterThan(api.requests(to: "/alpha-left.mp4").count, 0, "the bumper's media")
  }
}
