import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class TimeObserverTests: XCTestCase {
  func testPeriodicObserverFiresAtEveryIntervalInOrder() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    let interval = 0.5
    player.addPeriodicTimeObserver(forInterval: .seconds(interval), queue: recorder.queue) { time in
      recorder.recordPeriodic(time)
    }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let times = recorder.periodicTimes.map(\.seconds)
    let expected = Int((10.0 / interval).rounded(.down)) + 1
    XCTAssertEqual(Double(times.count), Double(expected), accuracy: 1, "\(times)")
    XCTAssertEqual(times, times.sorted())
    for (index, time) in times.enumerated() {
      XCTAssertEqual(time, Double(index) * interval, accuracy: 1e-6)
    }
  }

  func testRemovedPeriodicObserverStopsFiring() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    let token = player.addPeriodicTimeObserver(forInterval: .seconds(1), queue: recorder.queue) {
      time in
      recorder.recordPeriodic(time)
    }
    player.removeTimeObserver(token)
    player.play()
    recorder.waitForEnd()
    XCTAssertEqual(recorder.periodicTimes, [])
  }

  func testBoundaryObserverFiresOncePerCrossedTime() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    player.addBoundaryTimeObserver(
      forTimes: [.seconds(2.5), .seconds(5), .seconds(7.5)], queue: recorder.queue
    ) {
      recorder.recordBoundary()
    }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(recorder.boundaryHits, 3)
  }

  func testBoundaryJumpedOverBySeekDoesNotFire() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    player.addBoundaryTimeObserver(forTimes: [.seconds(3), .seconds(9)], queue: recorder.queue) {
      recorder.recordBoundary()
    }
    player.seek(to: .seconds(6))
    player.play()
    recorder.waitForEnd()
    XCTAssertEqual(recorder.boundaryHits, 1, "only 9 s is crossed by playback")
  }

  /// On a clock the test advances, pausing freezes the position however far the clock moves.
  func testPauseStopsTheClockDrivenPosition() throws {
    let clock = ManualClock()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: PlayerConfiguration(clock: clock)
    )
    defer { player.close() }
    player.addPeriodicTimeObserver(forInterval: .seconds(0.1), queue: recorder.queue) { time in
      recorder.recordPeriodic(time)
    }
    recorder.waitFor(event: "playbackLikelyToKeepUp")
    player.play()
    recorder.waitFor(event: "playing")
    XCTAssertTrue(recorder.waitForPeriodic(count: 1))
    clock.advance(by: .seconds(0.1))
    XCTAssertTrue(recorder.waitForPeriodic(count: 2))
    XCTAssertEqual(recorder.periodicTimes.last?.seconds ?? -1, 0.1, accuracy: 1e-6)

    player.pause()
    recorder.waitFor(event: "paused")
    let pausedAt = player.currentTime()
    clock.advance(by: .seconds(5))
    player.play()
    recorder.waitFor(event: "playing", count: 2)
    XCTAssertEqual(
      player.currentTime().seconds, pausedAt.seconds, accuracy: 0.05,
      "position must not jump by the paused 5 s")
    clock.advance(by: .seconds(0.1))
    XCTAssertTrue(recorder.waitForPeriodic(count: 3))
    XCTAssertEqual(recorder.periodicTimes.last?.seconds ?? -1, 0.2, accuracy: 1e-6)
  }
}
