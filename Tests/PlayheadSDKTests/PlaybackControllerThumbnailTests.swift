import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Thumbnail seeking through the controller (fast mode): the track of the current session,
/// `thumbnailSeekingEnabled`, and the `thumbnailAssetFailedToLoad` event.
final class PlaybackControllerThumbnailTests: XCTestCase {
  private func startServer(_ files: [String: Data]) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func video(thumbnails url: URL?) throws -> Video {
    SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4")).update {
      $0.thumbnailVTTURL = url
    }
  }

  /// Runs `operation` on the concurrency pool and waits for it on this (non-pool) thread.
  private func wait<T: Sendable>(
    _ operation: @escaping @Sendable () async throws -> T
  ) throws -> T {
    let box = ThumbnailResultBox<T>()
    let done = expectation(description: "async operation")
    Task.detached {
      do {
        box.set(.success(try await operation()))
      } catch {
        box.set(.failure(error))
      }
      done.fulfill()
    }
    wait(for: [done], timeout: 60)
    return try XCTUnwrap(box.get()).get()
  }

  func testMissingThumbnailsFile_sendsThumbnailAssetFailedToLoad() throws {
    let server = try startServer([:])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    XCTAssertTrue(controller.thumbnailSeekingEnabled, "on by default")
    controller.setVideos([try video(thumbnails: server.url("/missing.vtt"))])
    recorder.waitFor(lifecycle: "thumbnailAssetFailedToLoad")
    let event = try XCTUnwrap(
      recorder.entries.first { $0.detail == "thumbnailAssetFailedToLoad" })
    XCTAssertEqual(event.error?.code, .httpStatus)
    XCTAssertEqual(event.error?.httpStatusCode, 404)
    XCTAssertEqual(event.error?.url, server.url("/missing.vtt"))
    XCTAssertEqual(event.sessionID, recorder.sessions.first?.id)
    // The session plays on, and the failure is reported once.
    controller.play()
    recorder.waitFor(lifecycle: "end")
    XCTAssertNil(controller.thumbnailTrack)
    XCTAssertThrowsError(try wait { try await controller.thumbnail(at: .zero) }) { error in
      XCTAssertEqual((error as? PlayheadError)?.httpStatusCode, 404)
    }
    _ = controller.currentSession
    XCTAssertEqual(
      recorder.lifecycle().filter { $0 == "thumbnailAssetFailedToLoad" }.count, 1,
      "\(recorder.lifecycle())")
    XCTAssertEqual(server.requestCount(for: "/missing.vtt"), 1)
  }

  func testDisabled_loadsNothing_andSendsNothing() throws {
    let server = try startServer([:])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.thumbnailSeekingEnabled = false
    controller.autoPlay = true
    controller.setVideos([try video(thumbnails: server.url("/missing.vtt"))])
    recorder.waitFor(lifecycle: "end")
    XCTAssertNil(try wait { try await controller.thumbnail(at: .zero) })
    XCTAssertNil(controller.thumbnailTrack)
    XCTAssertNil(controller.thumbnailReference(at: .zero))
    _ = controller.currentSession
    XCTAssertEqual(server.requests.count, 0, "nothing was requested")
    XCTAssertFalse(recorder.lifecycle().contains("thumbnailAssetFailedToLoad"))
  }

  func testCurrentSessionThumbnails_fromASpriteSheet() throws {
    let sheet = try ImageCodec.encode(ThumbnailLoaderTests.spriteSheet(), as: .jpeg, quality: 1)
    let server = try startServer([
      "/v/thumbs.vtt": Data(ThumbnailLoaderTests.spriteVTT(sheet: "sheet.jpg").utf8),
      "/v/sheet.jpg": sheet,
    ])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([try video(thumbnails: server.url("/v/thumbs.vtt"))])
    recorder.waitFor(lifecycle: "ready")
    for index in [2, 4, 2, 0] {
      let time = SDKTesting.seconds(Double(index) + 0.25)
      let thumbnail = try XCTUnwrap(try wait { try await controller.thumbnail(at: time) })
      XCTAssertEqual(thumbnail.image.width, ThumbnailLoaderTests.tileWidth)
      XCTAssertEqual(thumbnail.start, SDKTesting.seconds(Double(index)))
      let expected = RGBAImage(
        width: thumbnail.image.width, height: thumbnail.image.height,
        color: ThumbnailLoaderTests.colours[index])
      XCTAssertLessThan(try XCTUnwrap(thumbnail.image.meanAbsoluteDifference(to: expected)), 8)
    }
    XCTAssertNil(try wait { try await controller.thumbnail(at: SDKTesting.seconds(7)) })
    XCTAssertEqual(controller.thumbnailTrack?.thumbnails.count, 6)
    XCTAssertEqual(
      controller.thumbnailReference(at: SDKTesting.seconds(1))?.region,
      ThumbnailRegion(x: 40, y: 0, width: 40, height: 30))
    XCTAssertEqual(server.requestCount(for: "/v/sheet.jpg"), 1)
    XCTAssertEqual(server.requestCount(for: "/v/thumbs.vtt"), 1)
    XCTAssertFalse(recorder.lifecycle().contains("thumbnailAssetFailedToLoad"))
  }

  func testMissingImage_throws_andIsReportedOncePerImage() throws {
    let vtt = """
      WEBVTT

      00:00.000 --> 00:05.000
      gone.jpg#xywh=0,0,10,10

      00:05.000 --> 00:10.000
      gone.jpg#xywh=10,0,10,10
      """
    let server = try startServer(["/t.vtt": Data(vtt.utf8)])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([try video(thumbnails: server.url("/t.vtt"))])
    recorder.waitFor(lifecycle: "ready")
    for seconds in [1.0, 6.0] {
      XCTAssertThrowsError(
        try wait { try await controller.thumbnail(at: SDKTesting.seconds(seconds)) }
      ) { error in
        XCTAssertEqual((error as? PlayheadError)?.code, .httpStatus)
      }
    }
    recorder.waitFor(lifecycle: "thumbnailAssetFailedToLoad")
    _ = controller.currentSession
    let events = recorder.entries.filter { $0.detail == "thumbnailAssetFailedToLoad" }
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(events.first?.error?.url, server.url("/gone.jpg"))
  }

  func testThumbnailsTextTrack_isUsedWithoutThumbnailVTTURL() throws {
    let server = try startServer([:])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    let video = try video(thumbnails: nil).update {
      $0.textTracks = [
        TextTrack(src: server.url("/captions.vtt"), srclang: "en", kind: "captions"),
        TextTrack(src: server.url("/from-track.vtt"), kind: "thumbnails"),
      ]
    }
    XCTAssertEqual(PlaybackController.thumbnailsFileURL(of: video), server.url("/from-track.vtt"))
    controller.setVideos([video])
    recorder.waitFor(lifecycle: "thumbnailAssetFailedToLoad")
    XCTAssertEqual(server.requestCount(for: "/from-track.vtt"), 1)
    XCTAssertEqual(server.requestCount(for: "/captions.vtt"), 0)
  }

  func testSwitchedOnLater_loadsOnFirstUse() throws {
    let sheet = try ImageCodec.encode(ThumbnailLoaderTests.spriteSheet(), as: .png)
    let server = try startServer([
      "/thumbs.vtt": Data(ThumbnailLoaderTests.spriteVTT(sheet: "s.png").utf8), "/s.png": sheet,
    ])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.thumbnailSeekingEnabled = false
    controller.setVideos([try video(thumbnails: server.url("/thumbs.vtt"))])
    recorder.waitFor(lifecycle: "ready")
    XCTAssertEqual(server.requests.count, 0)
    controller.thumbnailSeekingEnabled = true
    let thumbnail = try wait { try await controller.thumbnail(at: SDKTesting.seconds(3.5)) }
    XCTAssertEqual(thumbnail?.reference.region?.y, ThumbnailLoaderTests.tileHeight)
  }
}

/// A result handed from a task to the waiting test.
private final class ThumbnailResultBox<T: Sendable>: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value: Result<T, any Error>?

  func set(_ result: Result<T, any Error>) {
    lock.lock()
    value = result
    lock.unlock()
  }

  func get() -> Result<T, any Error>? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
