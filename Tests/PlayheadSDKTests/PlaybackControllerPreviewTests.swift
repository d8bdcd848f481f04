import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// The controller's preview limit (seed 003's `setPreviewTime`): every content session
/// plays only its first seconds and ends with `previewEnded`.
final class PlaybackControllerPreviewTests: XCTestCase {
  func testEverySessionEndsAtThePreview_withPreviewEnded_andTheListAdvances() throws {
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.previewDuration = MediaTime(value: 2, timescale: 1)
    controller.autoPlay = true
    controller.autoAdvance = true
    let url = try Fixtures.url("sample-h264-aac.mp4")
    controller.setVideos([
      SDKTesting.video(id: "a", url: url), SDKTesting.video(id: "b", url: url),
    ])
    XCTAssertTrue(recorder.waitFor(lifecycle: "previewEnded", count: 2))
    let ends = recorder.entries.filter { $0.detail == "previewEnded" }
    XCTAssertEqual(ends.map { $0.time.seconds }, [2, 2])
    XCTAssertFalse(recorder.lifecycle().contains("end"), "\(recorder.lifecycle())")
    XCTAssertEqual(recorder.sessions.count, 2)
    for session in recorder.sessions {
      XCTAssertEqual(session.qoe.renderedFrames + session.qoe.droppedFrames, 50, "2 s at 25 fps")
    }
  }
}
