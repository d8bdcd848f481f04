import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class AssetTests: XCTestCase {
  func testLoadingPropertiesReportsStatusAndValues() async throws {
    let asset = Asset(url: try Fixtures.url("sample-h264-aac.mp4"))
    XCTAssertEqual(asset.status(of: .duration), .notYetLoaded)
    XCTAssertEqual(asset.duration, .invalid)
    let duration = try await asset.loadDuration()
    XCTAssertEqual(duration.seconds, 10, accuracy: 0.05)
    XCTAssertEqual(asset.status(of: .duration), .loaded)
    XCTAssertEqual(asset.status(of: .tracks), .notYetLoaded)
    let tracks = try await asset.loadTracks()
    XCTAssertEqual(tracks.map(\.kind), [.video, .audio])
    XCTAssertEqual(tracks[0].codec, "h264")
    XCTAssertEqual(tracks[0].width, 320)
    XCTAssertEqual(tracks[0].height, 240)
    XCTAssertEqual(tracks[0].nominalFrameRate ?? 0, 25, accuracy: 0.01)
    XCTAssertEqual(tracks[1].sampleRate, 48_000)
    XCTAssertEqual(tracks[1].channels, 2)
    let playable = await asset.loadIsPlayable()
    XCTAssertTrue(playable)
    XCTAssertFalse(asset.hasProtectedContent)
  }

  func testFailedLoadReportsTheErrorForEveryProperty() async throws {
    let asset = Asset(url: try Fixtures.url("not-a-video.mp4"))
    do {
      try await asset.load()
      XCTFail("loading a text file must fail")
    } catch {
      XCTAssertEqual(error.code, .unsupportedFormat)
    }
    for property in Asset.Property.allCases {
      guard case .failed(let error) = asset.status(of: property) else {
        return XCTFail("\(property) should have failed")
      }
      XCTAssertEqual(error.code, .unsupportedFormat)
    }
    let playable = await asset.loadIsPlayable()
    XCTAssertFalse(playable)
  }

  /// An asset is a description: loading probes the media once (later loads answer from
  /// that probe), and a player plays an asset loaded before by opening the media itself
  /// through its own stack (an asset no longer hands an opened driver over).
  func testLoadingProbesOnce_andALoadedAssetPlays() async throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let asset = Asset(url: server.url("/sample-audio.mp3"))
    try await asset.load()
    let requestsAfterLoad = server.requests.count
    XCTAssertGreaterThan(requestsAfterLoad, 0, "the load probed the media")
    try await asset.load()
    let duration = try await asset.loadDuration()
    XCTAssertGreaterThan(duration.seconds, 0)
    let tracks = try await asset.loadTracks()
    XCTAssertEqual(tracks.map(\.kind), [.audio])
    let playable = await asset.loadIsPlayable()
    XCTAssertTrue(playable)
    XCTAssertEqual(server.requests.count, requestsAfterLoad, "a later load probed again")

    let (player, recorder) = EventRecorder.recordingPlayer(
      PlayerItem(asset: asset), configuration: .fast())
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertGreaterThan(
      server.requests.count, requestsAfterLoad, "the player opened the media itself")
  }
}
