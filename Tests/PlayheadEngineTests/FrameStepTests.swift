import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// `PlayerItem.step(byCount:)`: a paused player moves frame by frame (the window's `.` key).
final class FrameStepTests: XCTestCase {
  func testStepsForwardAndBack_oneFrameEach_whilePaused() throws {
    let sink = RecordingVideoSink()
    let player = Player(configuration: .fast(videoSink: sink))
    defer { player.close() }
    let recorder = PlayerEventRecorder(player)
    let item = PlayerItem(asset: Asset(url: try Fixtures.url("sample-h264-aac.mp4")))
    XCTAssertFalse(item.canStepForward, "not before it is ready")
    player.replaceCurrentItem(with: item)
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"))
    XCTAssertTrue(item.canStepForward)

    /// Steps by `count` and returns the item time of the frame then presented last.
    func step(_ count: Int) throws -> MediaTime {
      let done = expectation(description: "step \(count)")
      item.step(byCount: count) { finished in
        XCTAssertTrue(finished)
        done.fulfill()
      }
      wait(for: [done], timeout: 30)
      return try XCTUnwrap(sink.presentedTimes.last)
    }
    let frame = MediaTime(value: 1, timescale: 25)
    XCTAssertEqual(try step(1), frame)
    XCTAssertEqual(try step(1), frame.multiplied(by: 2))
    XCTAssertEqual(try step(10), frame.multiplied(by: 12), "across a keyframe boundary")
    XCTAssertEqual(try step(-2), frame.multiplied(by: 10))
    XCTAssertEqual(item.currentTime(), frame.multiplied(by: 10))
    XCTAssertEqual(player.rate, 0, "still paused")
    XCTAssertEqual(try step(-100), .zero, "not before the start")
  }
}
