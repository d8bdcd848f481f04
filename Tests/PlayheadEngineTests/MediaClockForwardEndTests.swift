import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadEngine

/// A device with latency at a forward end (docs/decisions/0030): the audio past the end is
/// never written, so the device's heard position stops one latency short of the end; once
/// it has played everything written, the player's clock carries the position to the end.
final class MediaClockForwardEndTests: XCTestCase {
  func testADeviceWithLatency_reachesTheForwardEnd() throws {
    let clock = ManualClock(advancesOnWait: true)
    let device = SimulatedAudioDevice(clock: clock, latency: MediaTime(milliseconds: 80))
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = .seconds(2)
    let (player, recorder) = EventRecorder.recordingPlayer(
      item,
      configuration: PlayerConfiguration(
        clock: clock, videoSink: DiscardVideoSink(), audioSink: device))
    defer { player.close() }
    player.play()
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end))")
    XCTAssertEqual(end?.itemTime, .seconds(2))
    XCTAssertEqual(Double(device.totalPlayedFrameCount), 96_000, accuracy: 1024)
  }
}
