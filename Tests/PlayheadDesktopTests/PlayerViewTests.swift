import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import PlayheadUI
import XCTest

@testable import PlayheadDesktop

/// A playback controller in a `PlayerView` (seed 000's `BCOVPUIPlayerView`): the
/// controller's video in a window with the controls following its session, cue points on
/// the slider, play/pause through the controller.
final class PlayerViewTests: WindowTestCase {
  func testTheControllersSessionPlaysUnderTheControls() throws {
    var configuration = PlayerConfiguration()
    configuration.isAudioDisabled = true
    let controller = PlayerSDKManager.shared.createPlaybackController(
      playerConfiguration: configuration, callbackQueue: DispatchQueue(label: "player-view-test"))
    defer { controller.close() }
    let title = "playhead-player-view-\(UUID().uuidString.prefix(8))"
    let view = try PlayerView(
      playbackController: controller,
      windowOptions: WindowOptions(title: title, size: WindowSize(width: 640, height: 360)))
    defer { view.close() }
    let cuePoints = CuePointCollection([
      CuePoint(type: "AD", position: .time(MediaTime(value: 2, timescale: 1))),
      CuePoint(type: "CODE", position: .time(MediaTime(value: 5, timescale: 1))),
    ])
    controller.autoPlay = true
    controller.setVideos([
      Video(
        sources: [Source(url: try Fixtures.url("sample-h264-aac.mp4"), deliveryMethod: .mp4)],
        cuePoints: cuePoints)
    ])
    var slider: SliderAppearance?
    poll("the slider with the cue points, over the playing session") {
      let scene = view.controlsView.currentScene
      if case .slider(let look) = scene?.controls.first(where: { $0.frame.tag == .progressSlider })?
        .appearance
      {
        slider = look
      }
      return slider?.markers.count == 2 && (view.controlsView.player?.rate ?? 0) != 0
    }
    XCTAssertEqual(slider?.markers ?? [], [0.2, 0.5], "cue points at 2 s and 5 s of 10 s")
    XCTAssertEqual(
      view.controlsView.currentScene?.controls.first?.frame.tag, .playback, "the VOD layout")
    let window = try XDoTool.window(titled: title)
    let button = try XCTUnwrap(
      view.controlsView.currentScene?.controls.first { $0.frame.tag == .playback }?.frame)
    try XDoTool.run([
      "mousemove", "--window", window, "\(Int(button.x + 20))", "\(Int(button.y + 20))",
      "click", "1",
    ])
    poll("paused through the controls") { view.controlsView.player?.rate == 0 }
    try XDoTool.run(["mousemove", "--window", window, "320", "100", "click", "1"])
    poll("a click on the picture plays again") { (view.controlsView.player?.rate ?? 0) != 0 }
  }
}
