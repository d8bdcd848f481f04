import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// Fast mode presents every frame and runs the clock for exactly the media's length,
/// whatever the order of `play()` and readiness and whatever observers are registered.
final class FastModeTests: XCTestCase {
  /// alpha-left.mp4: 2 s of 25 fps video (50 frames), no audio.
  private let fixtureName = "alpha-left.mp4"
  private let frameCount = 50
  private let durationSeconds = 2.0
  private let frameSeconds = 1.0 / 25

  /// Plays the fixture to its end in fast mode and checks that no frame was dropped.
  private func playToEnd(
    playBeforeReady: Bool, observers: Bool, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let sink = DiscardVideoSink()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url(fixtureName), configuration: .fast(videoSink: sink))
    defer { player.close() }
    if observers {
      let queue = DispatchQueue(label: "test.fast.observers")
      player.addEventObserver(queue: queue) { _ in }
      player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 4), queue: queue) {
        recorder.recordPeriodic($0)
      }
    }
    if !playBeforeReady {
      recorder.waitFor(event: "readyToPlay", file: file, line: line)
    }
    player.play()
    let end = recorder.waitForEnd(file: file, line: line)
    XCTAssertEqual(end?.name, "didPlayToEnd", file: file, line: line)

    let stats = try XCTUnwrap(player.currentItem, file: file, line: line).statistics
    XCTAssertEqual(stats.framesRendered, frameCount, "frames rendered", file: file, line: line)
    XCTAssertEqual(stats.framesDropped, 0, "fast mode never drops", file: file, line: line)
    XCTAssertEqual(sink.presentedFrameCount, frameCount, file: file, line: line)
    XCTAssertEqual(
      stats.playingTime.seconds, durationSeconds, accuracy: frameSeconds,
      "the clock ran for the media's length", file: file, line: line)
    if observers {
      // Every quarter second up to the end, each reported once.
      let reported = recorder.periodicTimes.map(\.seconds)
      XCTAssertEqual(reported.first, 0, file: file, line: line)
      XCTAssertEqual(Set(reported).count, reported.count, "\(reported)", file: file, line: line)
      XCTAssertGreaterThanOrEqual(reported.count, 8, "\(reported)", file: file, line: line)
    }
  }

  func testPlayBeforeReadyDropsNothing() throws {
    try playToEnd(playBeforeReady: true, observers: false)
  }

  func testPlayBeforeReadyWithObserversDropsNothing() throws {
    try playToEnd(playBeforeReady: true, observers: true)
  }

  func testPlayAfterReadyDropsNothing() throws {
    try playToEnd(playBeforeReady: false, observers: false)
  }

  func testPlayAfterReadyWithObserversDropsNothing() throws {
    try playToEnd(playBeforeReady: false, observers: true)
  }
}
