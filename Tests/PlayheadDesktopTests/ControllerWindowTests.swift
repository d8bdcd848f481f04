import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// The README's few lines: an SDK playback controller whose view shows in a window and
/// whose sound plays on the device (seed 000's `view.addSubview(playbackController.view)`).
final class ControllerWindowTests: WindowTestCase {
  func testAControllersView_inAWindow_withTheDeviceForSound() throws {
    let capture = DiskAudioCapture()
    let window = try openWindow(size: WindowSize(width: 480, height: 270))
    defer { window.close() }
    let controller = PlayerSDKManager.shared.createPlaybackController(
      playerConfiguration: PlayerConfiguration(audioSink: try SDLAudioOutput()),
      callbackQueue: DispatchQueue(label: "controller-window-test"))
    controller.view.addOutput(window)
    controller.autoPlay = true
    controller.setVideos([
      Video(sources: [Source(url: try Fixtures.url("sample-h264-aac.mp4"), deliveryMethod: .mp4)])
    ])
    // Real time: wait until the window has drawn pictures and the device has played some
    // of the sound (half a second of 48 kHz stereo 16-bit).
    poll("pictures in the window", timeoutMs: 30_000) { window.drawnFrameCount >= 10 }
    poll("sound on the device", timeoutMs: 30_000) { capture.byteCount >= 48_000 * 4 / 2 }
    let shown = try XCTUnwrap(window.snapshot())
    let background = shown.pixel(x: 2, y: 2)
    XCTAssertEqual(background.b, 255, "the bar is the background (blue)")
    let centre = shown.pixel(x: 240, y: 135)
    XCTAssertFalse(centre.b == 255 && centre.r == 0 && centre.g == 0, "the video, not the bar")
    controller.close()
  }
}
