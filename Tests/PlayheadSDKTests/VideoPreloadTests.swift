import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Preloading and list-playing `Video`s through their source selection policy.
final class VideoPreloadTests: XCTestCase {
  private final class Listener: PreloadListener, @unchecked Sendable {
    let done = XCTestExpectation(description: "preload ended")
    private let lock = NSLock()
    private var stored: PreloadReport?
    var report: PreloadReport? {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    func preloadDidComplete(taskID: String, url: URL, report: PreloadReport) {
      lock.lock()
      stored = report
      lock.unlock()
      done.fulfill()
    }
    func preloadDidFail(taskID: String, url: URL, error: PlayheadError) { done.fulfill() }
    func preloadWasCanceled(taskID: String, url: URL) { done.fulfill() }
  }

  func testPreloadingAVideo_usesThePolicysSource() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-sdk-preload-\(UUID().uuidString)")
    let cache = try MediaCache.open(directory: folder)
    addTeardownBlock {
      cache.close()
      try? FileManager.default.removeItem(at: folder)
    }
    let video = Video(sources: [
      Source(url: server.url("/sample-h264-aac.mp4")),
      Source(url: server.url("/hls/master.m3u8")),
    ])
    let loader = MediaLoader(configuration: .init(cache: cache))
    let listener = Listener()
    try loader.addTask(video: video, config: PreloadConfig(durationMs: 1000), listener: listener)
    wait(for: [listener.done], timeout: 60)
    XCTAssertEqual(listener.report?.url, server.url("/hls/master.m3u8"), "HLS over http wins")
    XCTAssertTrue(server.requests.contains { $0.path == "/hls/360p/segment000.ts" })
    XCTAssertFalse(server.requests.contains { $0.path == "/sample-h264-aac.mp4" })

    let mp4Only = SourceSelectionPolicy { video in video.sources.first { $0.deliveryMethod == .mp4 }
    }
    let list = ListPlayer(configuration: .fast())
    addTeardownBlock { list.close() }
    try list.add(video: video, uid: "a", policy: mp4Only)
    XCTAssertEqual(list.url(of: "a"), server.url("/sample-h264-aac.mp4"))
    try list.add(video: video, uid: "b")
    XCTAssertEqual(list.url(of: "b"), server.url("/hls/master.m3u8"))

    let empty = Video(sources: [])
    XCTAssertThrowsError(try loader.addTask(video: empty)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .noPlayableStreams)
    }
    XCTAssertThrowsError(try list.add(video: empty, uid: "c")) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .noPlayableStreams)
    }
    XCTAssertEqual(list.uids, ["a", "b"])
  }
}
