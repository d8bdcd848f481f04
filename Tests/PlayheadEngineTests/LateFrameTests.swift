import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// Late video frames (SPEC P8): a frame whose time on screen ended more than
/// `PlayerConfiguration.lateFrameDropThreshold` before the play position is dropped and
/// counted instead of shown.
final class LateFrameTests: XCTestCase {
  private let frameDuration = MediaTime(value: 1, timescale: 25)

  /// Plays the sample without audio; showing the 25th frame costs a second of clock time
  /// (a display that froze, or a playback thread that did not run). Returns how late each
  /// frame was when it was shown (the position then minus the end of its time on screen)
  /// and the frames dropped.
  private func play(threshold: MediaTime) throws -> (lateness: [MediaTime], dropped: Int) {
    let clock = ManualClock(advancesOnWait: true)
    let sink = FreezingVideoSink(clock: clock, freezeAt: 25, duration: .seconds(1))
    var configuration = PlayerConfiguration(clock: clock, videoSink: sink)
    configuration.isAudioDisabled = true
    configuration.lateFrameDropThreshold = threshold
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: configuration)
    defer { player.close() }
    // The sink runs on the playback thread, inside the step that shows the frame: the
    // position it reads is the one the frame was judged against.
    sink.position = { [unowned player] in player.loop.current?.position ?? .zero }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let dropped = player.currentItem?.statistics.framesDropped ?? -1
    XCTAssertEqual(sink.shown.count + dropped, 250, "every frame is shown or counted as dropped")
    return (sink.shown.map { $0.position - ($0.itemTime + frameDuration) }, dropped)
  }

  func testNoFrameIsShownLaterThanTheThreshold_andTheLateOnesAreCounted() throws {
    let threshold = MediaTime(value: 50, timescale: 1000)
    for _ in 0..<5 {
      let run = try play(threshold: threshold)
      let late = run.lateness.dropFirst().filter { $0 > threshold }
      XCTAssertEqual(late, [], "shown later than the threshold")
    }
  }

  func testAThresholdLongerThanTheFreeze_showsLateFrames() throws {
    // With a 10 s threshold nothing is late enough to drop: the frames queued when the
    // display froze are shown late (those due together still replace each other).
    let run = try play(threshold: .seconds(10))
    XCTAssertEqual(run.lateness.filter { $0 > .seconds(10) }, [])
    XCTAssertEqual(run.lateness.count + run.dropped, 250)
  }
}

/// A video sink that records each frame it shows with the position read when it was shown;
/// showing frame number `freezeAt` (from 1) moves the clock on by `duration`.
final class FreezingVideoSink: VideoSink, @unchecked Sendable {
  private let clock: ManualClock
  private let freezeAt: Int
  private let duration: MediaTime
  private let lock = NSLock()
  private var records: [(itemTime: MediaTime, position: MediaTime)] = []
  /// Reads the play position; called on the playback thread.
  var position: () -> MediaTime = { .zero }

  init(clock: ManualClock, freezeAt: Int, duration: MediaTime) {
    self.clock = clock
    self.freezeAt = freezeAt
    self.duration = duration
  }

  var shown: [(itemTime: MediaTime, position: MediaTime)] {
    lock.lock()
    defer { lock.unlock() }
    return records
  }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    let position = self.position()
    lock.lock()
    records.append((itemTime, position))
    let count = records.count
    lock.unlock()
    if count == freezeAt { clock.advance(by: duration) }
  }
}
