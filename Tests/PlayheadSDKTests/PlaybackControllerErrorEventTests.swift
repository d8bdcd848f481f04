import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// The session's `error` lifecycle event follows the item's error log: an error playback
/// recovered from is reported, and the session still plays to its end.
final class PlaybackControllerErrorEventTests: XCTestCase {
  func testARecoveredError_sendsError_andTheSessionEnds() throws {
    let server = HTTPTestServer(
      directory: try Fixtures.directory(),
      faults: ["/hls-redundant/primary/index.m3u8": .status(404)])
    try server.start()
    defer { server.stop() }
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([
      SDKTesting.video(id: "r", url: server.url("/hls-redundant/master.m3u8"))
    ])
    XCTAssertTrue(recorder.waitFor(lifecycle: "end"))
    let errors = recorder.entries.filter { $0.kind == "lifecycle" && $0.detail == "error" }
    XCTAssertEqual(errors.count, 1, "\(recorder.lifecycle())")
    XCTAssertEqual(errors.first?.error?.httpStatusCode, 404)
    XCTAssertEqual(recorder.sessions.first?.qoe.errorCount, 1)
  }
}
