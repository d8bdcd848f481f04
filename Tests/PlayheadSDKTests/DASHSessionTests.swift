import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A catalogue video with DASH beside HLS: the default policy keeps HLS (seed 001), the DASH
/// policy plays the MPD through the same controller and sessions.
final class DASHSessionTests: XCTestCase {
  private func video(_ server: HTTPTestServer) -> Video {
    Video(
      sources: [
        Source(url: server.url("/hls-fmp4/master.m3u8"), deliveryMethod: .hls),
        Source(url: server.url("/dash-vod/manifest.mpd"), deliveryMethod: .dash),
      ], properties: ["id": .string("both")])
  }

  private func playOnce(policy: SourceSelectionPolicy, server: HTTPTestServer) throws
    -> PlaybackSession
  {
    let provider = PlayerSDKManager.shared.createBasicSessionProvider(
      options: BasicSessionProviderOptions(sourceSelectionPolicy: policy))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([video(server)])
    recorder.waitFor(lifecycle: "end")
    return try XCTUnwrap(recorder.sessions.first)
  }

  func testDASHPolicyPlaysTheMPD_andTheDefaultKeepsHLS() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let dash = try playOnce(policy: .dash(preferringScheme: "http"), server: server)
    XCTAssertEqual(dash.source?.deliveryMethod, .dash)
    XCTAssertEqual(dash.playerItem?.statistics.framesDecoded, 250)
    XCTAssertTrue(server.requests.contains { $0.path.hasPrefix("/dash-vod/chunk-stream") })
    XCTAssertFalse(server.requests.contains { $0.path.hasPrefix("/hls-fmp4/") })
    server.clearRequests()
    let hls = try playOnce(policy: .default, server: server)
    XCTAssertEqual(hls.source?.deliveryMethod, .hls)
    XCTAssertFalse(server.requests.contains { $0.path.hasPrefix("/dash-vod/") })
  }
}
