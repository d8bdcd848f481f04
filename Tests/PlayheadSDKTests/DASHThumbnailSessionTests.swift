import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A controller session playing a DASH MPD takes its seek thumbnails from the MPD's
/// DASH-IF thumbnail tile set when the video has no WebVTT thumbnails file; a WebVTT file
/// wins; broken tile sets leave playback alone.
final class DASHThumbnailSessionTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func controller() -> (PlaybackController, SDKRecorder) {
    let provider = PlayerSDKManager.shared.createBasicSessionProvider(
      options: BasicSessionProviderOptions(sourceSelectionPolicy: .dash(preferringScheme: "http")))
    return SDKTesting.makeController(provider: provider)
  }

  private func video(_ url: URL, thumbnails: URL? = nil) -> Video {
    Video(
      sources: [Source(url: url, deliveryMethod: .dash)], properties: ["id": .string("d")]
    ).update { $0.thumbnailVTTURL = thumbnails }
  }

  /// Runs `operation` on the concurrency pool and waits for it on this (non-pool) thread.
  private func wait<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws
    -> T
  {
    let box = Locked<Result<T, any Error>?>(nil)
    let done = expectation(description: "async operation")
    Task.detached {
      do {
        let value = try await operation()
        box.withLock { $0 = .success(value) }
      } catch {
        box.withLock { $0 = .failure(error) }
      }
      done.fulfill()
    }
    wait(for: [done], timeout: 60)
    return try XCTUnwrap(box.value).get()
  }

  func testDASHSession_thumbnailsComeFromTheMPDsTileSet() throws {
    let server = try startServer()
    let (controller, recorder) = controller()
    defer { controller.close() }
    controller.setVideos([video(server.url("/dash-thumbs/manifest.mpd"))])
    recorder.waitFor(lifecycle: "ready")
    let sheets = try (1...2).map { index in
      try ImageCodec.decode(
        Data(contentsOf: try Fixtures.url("dash-thumbs/tile-\(index).jpg")))
    }
    // (time, image, tile): tiles are 0.5 s, 10 to an image, 5 to a row.
    for (time, image, tile) in [(0.2, 1, 0), (3.7, 1, 7), (6.1, 2, 2), (9.9, 2, 9)] {
      let thumbnail = try XCTUnwrap(
        try wait { try await controller.thumbnail(at: SDKTesting.seconds(time)) }, "\(time)")
      let region = ThumbnailRegion(x: (tile % 5) * 64, y: (tile / 5) * 36, width: 64, height: 36)
      XCTAssertEqual(thumbnail.reference.imageURL, server.url("/dash-thumbs/tile-\(image).jpg"))
      XCTAssertEqual(thumbnail.reference.region, region, "\(time)")
      let index = (image - 1) * 10 + tile
      XCTAssertEqual(thumbnail.start, SDKTesting.seconds(Double(index) * 0.5))
      XCTAssertEqual(thumbnail.end, SDKTesting.seconds(Double(index + 1) * 0.5))
      let expected = try sheets[image - 1].cropped(x: region.x, y: region.y, width: 64, height: 36)
      XCTAssertEqual(thumbnail.image, expected, "\(time)")
      let neighbour = try sheets[image - 1].cropped(
        x: ((tile + 1) % 5) * 64, y: region.y, width: 64, height: 36)
      XCTAssertNotEqual(thumbnail.image, neighbour, "tiles differ (their frame numbers)")
    }
    XCTAssertNil(try wait { try await controller.thumbnail(at: SDKTesting.seconds(10)) })
    XCTAssertEqual(controller.thumbnailTrack?.thumbnails.count, 20)
    XCTAssertEqual(
      controller.thumbnailReference(at: SDKTesting.seconds(4.9))?.region,
      ThumbnailRegion(x: 256, y: 36, width: 64, height: 36))
    XCTAssertEqual(server.requestCount(for: "/dash-thumbs/tile-1.jpg"), 1)
    XCTAssertEqual(server.requestCount(for: "/dash-thumbs/tile-2.jpg"), 1)
    controller.play()
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(recorder.sessions.first?.playerItem?.statistics.framesDecoded, 250)
    XCTAssertFalse(recorder.lifecycle().contains("thumbnailAssetFailedToLoad"))
  }

  func testWebVTTThumbnails_winOverTheMPDsTileSet() throws {
    let server = try startServer()
    let (controller, recorder) = controller()
    defer { controller.close() }
    let vtt = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).vtt")
    let image = server.url("/dash-thumbs/tile-2.jpg").absoluteString
    try Data("WEBVTT\n\n00:00.000 --> 00:10.000\n\(image)#xywh=0,0,64,36\n".utf8).write(to: vtt)
    defer { try? FileManager.default.removeItem(at: vtt) }
    controller.setVideos([video(server.url("/dash-thumbs/manifest.mpd"), thumbnails: vtt)])
    recorder.waitFor(lifecycle: "ready")
    let thumbnail = try XCTUnwrap(try wait { try await controller.thumbnail(at: .zero) })
    XCTAssertEqual(thumbnail.reference.imageURL.lastPathComponent, "tile-2.jpg")
    XCTAssertEqual(thumbnail.end, SDKTesting.seconds(10))
    XCTAssertEqual(controller.thumbnailTrack?.thumbnails.count, 1)
  }

  func testMalformedTileSets_giveNoThumbnails_andPlaybackGoesOn() throws {
    let server = try startServer()
    let (controller, recorder) = controller()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([video(server.url("/dash-thumbs/malformed.mpd"))])
    recorder.waitFor(lifecycle: "ready")
    XCTAssertNil(try wait { try await controller.thumbnail(at: SDKTesting.seconds(1)) })
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(recorder.sessions.first?.playerItem?.statistics.framesDecoded, 250)
    XCTAssertNil(controller.thumbnailTrack)
    XCTAssertFalse(recorder.lifecycle().contains("thumbnailAssetFailedToLoad"))
    XCTAssertFalse(recorder.lifecycle().contains("error"), "\(recorder.lifecycle())")
    XCTAssertFalse(server.requests.contains { $0.path.hasSuffix(".jpg") })
  }
}
