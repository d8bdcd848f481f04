import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class SeekTests: XCTestCase {
  func testExactSeekShowsTheGreatestFrameAtOrBeforeTheTarget() async throws {
    let pts = try XCTUnwrap(
      try Fixtures.manifest().file("sample-h264-aac.mp4").videoStreams.first?.framePTSSeconds)
    let sink = RecordingVideoSink()
    let player = Player(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast(videoSink: sink))
    defer { player.close() }
    EventRecorder(player).waitFor(event: "readyToPlay")
    for target in [0.5, 2.02, 4.5, 7.33, 9.99, 1.0] {
      let before = sink.presentedTimes.count
      let finished = await player.seek(to: .seconds(target))
      XCTAssertTrue(finished)
      let shown = try XCTUnwrap(
        sink.presentedTimes.dropFirst(before).first, "no frame shown after seek to \(target)")
      let expected = try XCTUnwrap(pts.last { $0 <= target + 1e-9 })
      XCTAssertEqual(shown.seconds, expected, accuracy: 1e-6, "seek to \(target)")
      XCTAssertEqual(player.currentTime().seconds, target, accuracy: 1e-6)
    }
  }

  func testSeekWithToleranceLandsWithinTolerance() async throws {
    let sink = RecordingVideoSink()
    let player = Player(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast(videoSink: sink))
    defer { player.close() }
    EventRecorder(player).waitFor(event: "readyToPlay")
    for target in [4.5, 6.9, 8.2] {
      let before = sink.presentedTimes.count
      let finished = await player.seek(
        to: .seconds(target), toleranceBefore: .seconds(0.6), toleranceAfter: .seconds(0.6))
      XCTAssertTrue(finished)
      let shown = try XCTUnwrap(sink.presentedTimes.dropFirst(before).first)
      XCTAssertGreaterThanOrEqual(shown.seconds, target - 0.6 - 1e-9)
      XCTAssertLessThanOrEqual(shown.seconds, target + 0.6 + 1e-9)
    }
  }

  func testPlaybackContinuesFromTheSeekTargetToTheEnd() throws {
    let sink = RecordingVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast(videoSink: sink))
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    player.seek(to: .seconds(8))
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let times = sink.presentedTimes.map(\.seconds)
    XCTAssertEqual(times.first ?? -1, 8.0, accuracy: 1e-6)
    XCTAssertEqual(times.count, 50, "frames 8.00 … 9.96")
    XCTAssertEqual(times, times.sorted())
  }

  func testASecondSeekInterruptsTheFirst() async throws {
    let player = Player(url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    EventRecorder(player).waitFor(event: "readyToPlay")
    let results = ResultBox()
    let both = expectation(description: "both seeks complete")
    both.expectedFulfillmentCount = 2
    player.seek(to: .seconds(3)) { finished in
      results.append("first:\(finished)")
      both.fulfill()
    }
    player.seek(to: .seconds(6)) { finished in
      results.append("second:\(finished)")
      both.fulfill()
    }
    await fulfillment(of: [both], timeout: 60)
    XCTAssertTrue(results.values.contains("second:true"))
    XCTAssertTrue(results.values.contains("first:false"))
    XCTAssertEqual(player.currentTime().seconds, 6, accuracy: 1e-6)
  }
}

final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []
  func append(_ value: String) {
    lock.lock()
    storage.append(value)
    lock.unlock()
  }
  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
