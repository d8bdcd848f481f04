import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A playback controller set up with an audio device (a `ClockedAudioSink`) hands each
/// session's player a device still, so the device leads the position (decision 0030).
final class AudioDeviceSDKTests: XCTestCase {
  func testAControllersDevice_leadsEachSession_andIsFinishedOnlyByTheController() throws {
    let clock = ManualClock(advancesOnWait: true)
    let device = SimulatedAudioDevice(clock: clock)
    let (controller, recorder) = SDKTesting.makeController(
      configuration: PlayerConfiguration(
        clock: clock, videoSink: DiscardVideoSink(), audioSink: device))
    controller.autoPlay = true
    controller.autoAdvance = true
    controller.setVideos([
      SDKTesting.video(id: "one", url: try Fixtures.url("sample-h264-aac.mp4")),
      SDKTesting.video(id: "two", url: try Fixtures.url("sample-h264-aac.mp4")),
    ])
    recorder.waitFor(lifecycle: "end", count: 2)
    // Played by the device (not only written), and started and paused by each session.
    let written = device.totalWrittenFrameCount
    XCTAssertGreaterThan(written, 48_000 * 19)
    XCTAssertGreaterThan(device.totalPlayedFrameCount, written * 95 / 100)
    XCTAssertGreaterThanOrEqual(device.pauseChanges.filter { !$0 }.count, 2)
    XCTAssertGreaterThanOrEqual(device.flushCount, 2, "each session's first write flushes it")
    let silence = AudioBuffer(
      format: device.format, samples: Data(count: 4), frameCount: 1, pts: .zero)
    XCTAssertNoThrow(try device.write(silence), "the sessions do not finish the device")
    controller.close()
    XCTAssertThrowsError(try device.write(silence), "the controller does")
  }
}
