import Foundation
import PlayheadCore
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A session's source is routed by its content (SPEC R1): an "MP4" source whose body is
/// an M3U8 plays through the HLS engine, and one that lists a local file fails.
final class PlaybackControllerContainmentTests: XCTestCase {
  private func startServer(_ files: [String: Data]) throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory(), files: files)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testAnMP4SourceThatIsAPlaylistOfALocalFile_failsTheSession() throws {
    let local = try Fixtures.url("hls/144p/segment000.ts").absoluteString
    let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(local)\n#EXT-X-ENDLIST\n"
    let server = try startServer(["/video.mp4": Data(text.utf8)])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "leak", url: server.url("/video.mp4"))])
    recorder.waitFor(lifecycle: "fail")
    let fail = try XCTUnwrap(recorder.entries.first { $0.detail == "fail" })
    XCTAssertEqual(fail.error?.code, .invalidPlaylist)
    XCTAssertTrue(
      fail.error?.message.contains("scheme 'file'") ?? false, "\(String(describing: fail.error))")
  }

  func testAnMP4SourceThatIsAnHTTPPlaylist_playsToTheEnd() throws {
    let master = try Data(contentsOf: try Fixtures.url("hls/master.m3u8"))
    let server = try startServer(["/hls/video.mp4": master])
    let (controller, recorder) = SDKTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "hls", url: server.url("/hls/video.mp4"))])
    recorder.waitFor(lifecycle: "end")
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.qoe.renderedFrames + session.qoe.droppedFrames, 300)
  }
}
