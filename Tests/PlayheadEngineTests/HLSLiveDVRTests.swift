import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// Live timelines (S4): the item timeline of a live stream starts at the first segment of
/// the playlist as first loaded, so an EVENT playlist is seekable from its first segment
/// (DVR) and a sliding window's seekable range moves with it. The player runs on a
/// `ManualClock` that the test advances only while a thread waits on it.
final class HLSLiveDVRTests: XCTestCase {
  private let segmentDuration = 2.0

  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func fixtureSegments() throws -> [Data] {
    try Fixtures.hlsSegments()
  }

  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  /// Advances `clock` by small steps, each time some thread waits on it, until
  /// `condition` holds; fails after 30 s of real time.
  private func drive(
    _ clock: ManualClock, until description: String, file: StaticString = #filePath,
    line: UInt = #line, _ condition: () -> Bool
  ) {
    let limit = Date(timeIntervalSinceNow: 30)
    while !condition() {
      guard Date() < limit else {
        return XCTFail("timed out waiting for \(description)", file: file, line: line)
      }
      if clock.waitForBlockedWaits(count: 1, hostTimeoutMs: 50) {
        clock.advance(by: seconds(0.25))
      }
    }
  }

  /// Seeks and waits for the completion (failing the test after 30 s of real time).
  private func seek(
    _ player: Player, to time: MediaTime, file: StaticString = #filePath, line: UInt = #line
  ) async -> Bool {
    let done = expectation(description: "seek to \(time.seconds) s")
    let result = SeekResult()
    player.seek(to: time) { finished in
      result.set(finished)
      done.fulfill()
    }
    await fulfillment(of: [done], timeout: 30)
    return result.value
  }

  private func openPlayer(_ url: URL, clock: ManualClock) -> (Player, EventRecorder) {
    var configuration = PlayerConfiguration(clock: clock)
    // `drive` moves the clock whenever one wait is blocked on it: no stall checks, whose
    // "playhead.load-watch" thread would be that waiter while a segment still loads.
    configuration.hls.stalledDownloadCheckIntervalMs = nil
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: url, configuration: configuration)
    addTeardownBlock { player.close() }
    return (player, recorder)
  }

  func testEventPlaylistIsSeekableFromItsFirstSegmentAndGrows() async throws {
    let server = try startServer()
    // 15 segments of 2 s: the live edge is at 30 s, playback starts 3 segments back.
    let publisher = LiveHLSPublisher(
      server: server, path: "/event/index.m3u8", segments: try fixtureSegments(),
      segmentDuration: segmentDuration, initialSegments: 15, isEvent: true)
    let clock = ManualClock()
    let (player, recorder) = openPlayer(publisher.url, clock: clock)
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.streamKind, .liveDVR)
    XCTAssertEqual(item.currentTime().seconds, 24, accuracy: 1e-6, "near the live edge, not 0")
    recorder.waitFor("the EVENT window") { _ in
      item.seekableTimeRanges == [MediaTimeRange(start: .zero, end: self.seconds(30))]
    }

    // New segments extend the range at the end; its start stays at the first segment.
    publisher.publishNext()
    drive(clock, until: "the range to grow") {
      item.seekableTimeRanges.first?.end == seconds(32)
    }
    publisher.publishNext()
    drive(clock, until: "the range to grow again") {
      item.seekableTimeRanges.first?.end == seconds(34)
    }
    XCTAssertEqual(item.seekableTimeRanges.first?.start, .zero)

    // 20 s back from the start position: segment 2 (4–6 s), which was never fetched.
    server.clearRequests()
    let target = item.currentTime() - seconds(20)
    let finished = await seek(player, to: target)
    XCTAssertTrue(finished)
    XCTAssertEqual(player.currentTime().seconds, 4, accuracy: 1e-6)
    XCTAssertEqual(item.currentTime().seconds, 4, accuracy: 1e-6)
    let fetched = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
    XCTAssertEqual(
      fetched.first, "/event/live2.ts", "the seek fetches its segment first: \(fetched)")
    XCTAssertFalse(fetched.contains("/event/live0.ts") || fetched.contains("/event/live1.ts"))
    XCTAssertEqual(item.seekableTimeRanges.first?.start, .zero)
  }

  func testSeekBeforeTheWindowLandsOnItsFirstSegment() async throws {
    let server = try startServer()
    let publisher = LiveHLSPublisher(
      server: server, path: "/event/index.m3u8", segments: try fixtureSegments(),
      segmentDuration: segmentDuration, initialSegments: 6, isEvent: true)
    let clock = ManualClock()
    let (player, recorder) = openPlayer(publisher.url, clock: clock)
    recorder.waitFor(event: "readyToPlay")
    XCTAssertEqual(player.currentTime().seconds, 6, accuracy: 1e-6)
    server.clearRequests()
    // Seeks outside the window are held inside it, one target duration before the edge.
    let finished = await seek(player, to: seconds(100))
    XCTAssertTrue(finished)
    XCTAssertEqual(player.currentTime().seconds, 10, accuracy: 1e-6)
    let back = await seek(player, to: .zero)
    XCTAssertTrue(back)
    XCTAssertEqual(player.currentTime().seconds, 0, accuracy: 1e-6)
    XCTAssertTrue(server.requests.contains { $0.path == "/event/live0.ts" })
  }

  func testSlidingWindowSeekableStartMovesForward() throws {
    let server = try startServer()
    // A 4-segment window over 6 published segments: the first loaded window is 2…5.
    let publisher = LiveHLSPublisher(
      server: server, path: "/live/index.m3u8", segments: try fixtureSegments(),
      segmentDuration: segmentDuration, windowSize: 4, initialSegments: 6)
    let clock = ManualClock()
    let (player, recorder) = openPlayer(publisher.url, clock: clock)
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.streamKind, .live)
    XCTAssertEqual(item.currentTime().seconds, 2, accuracy: 1e-6, "three segments from the end")
    recorder.waitFor("the first window") { _ in
      item.seekableTimeRanges == [MediaTimeRange(start: .zero, end: self.seconds(8))]
    }
    publisher.publishNext()
    drive(clock, until: "the window to slide") {
      item.seekableTimeRanges == [MediaTimeRange(start: seconds(2), end: seconds(10))]
    }
    publisher.publishNext()
    publisher.publishNext()
    drive(clock, until: "the window to slide twice more") {
      item.seekableTimeRanges == [MediaTimeRange(start: seconds(6), end: seconds(14))]
    }
  }
}

/// A seek's completion value, set on another thread.
private final class SeekResult: @unchecked Sendable {
  private let lock = NSLock()
  private var finished = false

  var value: Bool {
    lock.lock()
    defer { lock.unlock() }
    return finished
  }

  func set(_ value: Bool) {
    lock.lock()
    finished = value
    lock.unlock()
  }
}
