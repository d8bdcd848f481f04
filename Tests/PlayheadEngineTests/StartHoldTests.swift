import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// `Player.holdStart()`: asked to play, a held player opens and buffers but waits at the
/// start, with the `startHeld` reason, until every hold is released.
final class StartHoldTests: XCTestCase {
  func testAHeldPlayer_waitsAtTheStart_andPlaysOnceEveryHoldIsReleased() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    let first = player.holdStart()
    let second = player.holdStart()
    player.play()
    recorder.waitFor("the held start") { events in
      events.contains { event in
        if case .timeControlStatusChanged(.waitingToPlayAtSpecifiedRate(.startHeld)) = event.kind {
          return true
        }
        return false
      }
    }
    recorder.waitFor(event: "readyToPlay")
    first.release()
    first.release()  // a second release does nothing
    player.waitForPostedCommands()
    XCTAssertFalse(recorder.names.contains("playing"), "one hold is still in place")
    XCTAssertEqual(player.currentTime(), .zero)
    XCTAssertEqual(player.timeControlStatus, .waitingToPlayAtSpecifiedRate(.startHeld))
    second.release()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertTrue(first.isReleased && second.isReleased)
  }

  func testAHoldThatIsDropped_releasesItself() throws {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    var hold: PlaybackStartHold? = player.holdStart()
    player.play()
    recorder.waitFor(event: "readyToPlay")
    XCTAssertNotNil(hold)
    hold = nil
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
  }
}
