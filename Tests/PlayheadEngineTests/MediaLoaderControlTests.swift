import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `MediaLoader` task controls and failures: pause, resume, cancel, the concurrency bound,
/// and typed errors for bad sources and a missing cache.
final class MediaLoaderControlTests: XCTestCase {
  /// A loader whose loads pass a gate in front of HTTP to the test server.
  private func gatedLoader(cache: MediaCache?, concurrent: Int) -> (MediaLoader, GateNetwork) {
    let gate = GateNetwork(upstream: HTTPDataSourceFactory())
    var configuration = MediaLoader.Configuration(
      cache: cache, maximumConcurrentTasks: concurrent)
    configuration.network = gate
    let loader = MediaLoader(configuration: configuration)
    addTeardownBlock {
      loader.cancelAll()
      gate.cancelAll()
    }
    return (loader, gate)
  }

  func testPausedTask_makesNoFurtherRequestUntilResumed() throws {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let (loader, gate) = gatedLoader(cache: cache, concurrent: 1)
    let recorder = PreloadRecorder()
    gate.hold("/360p/segment000.ts")
    let first = loader.addTask(
      PreloadTask(url: server.url("/hls/master.m3u8"), config: PreloadConfig(durationMs: 6000)),
      listener: recorder)
    gate.waitForHeld(count: 1)
    loader.pauseTask(first)
    XCTAssertEqual(loader.state(ofTask: first), .paused)
    // The request in flight finishes; then the paused task gives its only slot to the next.
    gate.release("/360p/segment000.ts")
    let second = loader.addTask(
      PreloadTask(url: server.url("/sample-h264-aac.mp4"), config: PreloadConfig(durationMs: 500)),
      listener: recorder)
    XCTAssertNotNil(recorder.report(second))
    let hlsRequests = gate.requestedPaths.filter { $0.hasPrefix("/hls/") }
    XCTAssertEqual(
      hlsRequests, ["/hls/master.m3u8", "/hls/360p/index.m3u8", "/hls/360p/segment000.ts"])
    XCTAssertEqual(loader.state(ofTask: first), .paused)
    XCTAssertEqual(recorder.events.count, 1, "the paused task has not ended")

    loader.resumeTask(first)
    let report = try XCTUnwrap(recorder.report(first))
    XCTAssertEqual(report.cachedDuration, MediaTime(value: 6, timescale: 1))
    XCTAssertEqual(
      gate.requestedPaths.filter { $0.hasPrefix("/hls/") }.suffix(2),
      ["/hls/360p/segment001.ts", "/hls/360p/segment002.ts"])
  }

  func testCancel_runningTask_reportsCanceledOnce_andStopsRequesting() throws {
    let server = try PreloadFixtures.server(self)
    server.setFault(.hang, for: "/hls/360p/segment001.ts")
    let cache = try PreloadFixtures.cache(self)
    let loader = MediaLoader(configuration: .init(cache: cache, maximumConcurrentTasks: 1))
    let recorder = PreloadRecorder()
    let running = loader.addTask(
      PreloadTask(url: server.url("/hls/master.m3u8"), config: PreloadConfig(durationMs: 6000)),
      listener: recorder)
    let queued = loader.addTask(
      PreloadTask(
        url: server.url("/hls-fmp4/master.m3u8"), config: PreloadConfig(durationMs: 1000)),
      listener: recorder)
    // master, media playlist, segment000, then segment001 hangs.
    XCTAssertTrue(server.waitForRequests(count: 4))
    XCTAssertEqual(server.requests.last?.path, "/hls/360p/segment001.ts")
    XCTAssertEqual(loader.state(ofTask: queued), .waiting, "one slot only")

    loader.cancelTask(queued)
    XCTAssertEqual(recorder.waitFor(queued), .canceled(queued))
    loader.cancelTask(running)
    XCTAssertEqual(recorder.waitFor(running), .canceled(running))
    loader.cancelTask(running)
    XCTAssertEqual(loader.waitForTask(running, timeoutMs: 60_000), .canceled)
    XCTAssertEqual(recorder.events.filter { $0.taskID == running }.count, 1)
    XCTAssertEqual(recorder.events.count, 2)
    XCTAssertEqual(server.requests.count, 4, "nothing after the cancel: \(server.requests)")
    // What arrived before the cancel stays in the cache.
    XCTAssertNotNil(cache.entry(forKey: cache.key(for: server.url("/hls/360p/segment000.ts"))))
  }

  func testConcurrentTasks_areBoundedByTheConfiguration() throws {
    let server = try PreloadFixtures.server(self)
    let cache = try PreloadFixtures.cache(self)
    let (loader, gate) = gatedLoader(cache: cache, concurrent: 2)
    let recorder = PreloadRecorder()
    gate.hold("master.m3u8")
    let ids = ["/hls/master.m3u8", "/hls-fmp4/master.m3u8", "/hls-alt/master.m3u8"].map {
      loader.addTask(
        PreloadTask(url: server.url($0), config: PreloadConfig(durationMs: 1000)),
        listener: recorder)
    }
    gate.waitForHeld(count: 2)
    XCTAssertEqual(loader.state(ofTask: ids[2]), .waiting)
    XCTAssertEqual(gate.requestedPaths.count, 2)
    gate.release("master.m3u8")
    for id in ids { XCTAssertNotNil(recorder.report(id)) }
  }

  func testErrors_areTypedAndReportedToTheListener() throws {
    let broken: [String: Data] = [
      "/bad/master.m3u8": Data("this is not a playlist\n".utf8),
      "/gap/index.m3u8": Data(
        "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nmissing.ts\n#EXT-X-ENDLIST\n".utf8),
    ]
    let server = try PreloadFixtures.server(self, files: broken)
    let cache = try PreloadFixtures.cache(self)
    let loader = MediaLoader(configuration: .init(cache: cache))
    let recorder = PreloadRecorder()
    func failure(_ url: URL, file: StaticString = #filePath, line: UInt = #line) -> PlayheadError? {
      let id = loader.addTask(PreloadTask(url: url), listener: recorder)
      guard case .failed(_, let error)? = recorder.waitFor(id, file: file, line: line) else {
        XCTFail("\(url) did not fail", file: file, line: line)
        return nil
      }
      return error
    }
    XCTAssertEqual(failure(server.url("/nothing/master.m3u8"))?.httpStatusCode, 404)
    XCTAssertEqual(failure(server.url("/bad/master.m3u8"))?.code, .invalidPlaylist)
    XCTAssertEqual(failure(server.url("/gap/index.m3u8"))?.httpStatusCode, 404)
    XCTAssertEqual(failure(server.url("/missing.mp4"))?.httpStatusCode, 404)
    XCTAssertEqual(failure(server.url("/not-a-video.mp4"))?.category, .media)
    XCTAssertEqual(failure(try Fixtures.url("hls/master.m3u8"))?.code, .invalidArgument)

    let noCache = MediaLoader()
    let id = noCache.addTask(PreloadTask(url: server.url("/hls/master.m3u8")), listener: recorder)
    guard case .failed(_, let error)? = recorder.waitFor(id) else {
      return XCTFail("a loader without a cache must refuse the task")
    }
    XCTAssertEqual(error.code, .invalidState)

    MediaCache.isEnabled = false
    defer { MediaCache.isEnabled = true }
    XCTAssertEqual(failure(server.url("/hls/master.m3u8"))?.code, .invalidState)
    XCTAssertTrue(server.requests.filter { $0.path == "/hls/master.m3u8" }.isEmpty)
  }
}
