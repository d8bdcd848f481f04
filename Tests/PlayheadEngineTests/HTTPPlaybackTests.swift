import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class HTTPPlaybackTests: XCTestCase {
  func testHTTPPlaysIdenticallyAndSeeksWithRangeRequests() async throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let sink = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/sample-h264-aac.mp4"), configuration: .fast(videoSink: sink))
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(player.currentItem?.statistics.framesDecoded, 250)
    XCTAssertGreaterThanOrEqual(player.currentItem?.statistics.bytesRead ?? 0, 201_617)

    server.clearRequests()
    let finished = await player.seek(to: .seconds(5))
    XCTAssertTrue(finished)
    let ranges = server.requests.compactMap(\.range)
    XCTAssertFalse(ranges.isEmpty, "seeking must use Range requests")
    let offsets = ranges.compactMap { range -> Int? in
      guard range.hasPrefix("bytes=") else { return nil }
      return Int(range.dropFirst(6).split(separator: "-").first ?? "")
    }
    XCTAssertTrue(offsets.contains { $0 > 0 }, "a ranged request starts inside the file: \(ranges)")
    XCTAssertEqual(sink.presentedTimes.last?.seconds ?? -1, 5.0, accuracy: 1e-6)
  }
}
