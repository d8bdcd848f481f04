import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import PlayheadUI
import XCTest

@testable import PlayheadDesktop

/// The control bar in a real window under Xvfb, clicked with xdotool (issue 14): play/pause,
/// the slider and jump back act on the player; the bar hides after hideControlsInterval
/// and the pointer brings it back.
final class WindowPlayerControlsTests: WindowTestCase {
  private let size = WindowSize(width: 640, height: 360)

  /// A 30 s clip of one flat colour, so the bare video is the same at every instant.
  private func stillClip() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-still-\(UUID().uuidString).mp4")
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    let process = Process()
    process.executableURL = try XvfbDisplay.executable(named: "ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x4070a0:s=320x180:r=25:d=30",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", url.path,
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "ffmpeg made the clip")
    return url
  }

  private struct Rig {
    let window: WindowVideoSink
    let player: Player
    let controls: WindowPlayerControls
    let xWindow: String

    func close() {
      controls.close()
      player.close()
      window.close()
    }
  }

  /// A window playing the still clip with controls on it, events routed to them.
  private func start(options: PlayerViewOptions = PlayerViewOptions()) throws -> Rig {
    let clip = try stillClip()
    let title = "playhead-controls-\(UUID().uuidString.prefix(8))"
    let holder = Locked<WindowPlayerControls?>(nil)
    let window = try WindowVideoSink(
      options: WindowOptions(title: title, size: size, background: .black)
    ) { event in _ = holder.value?.handle(event) }
    var configuration = PlayerConfiguration(videoSink: window)
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    let controls = try WindowPlayerControls(window: window, player: player, options: options)
    holder.withLock { $0 = controls }
    player.replaceCurrentItem(with: PlayerItem(url: clip))
    player.play()
    let xWindow = try XDoTool.window(titled: title)
    return Rig(window: window, player: player, controls: controls, xWindow: xWindow)
  }

  /// The centre of `tag`'s control in the last scene drawn.
  private func centre(of tag: ControlTag, in rig: Rig) throws -> (x: Int, y: Int) {
    var frame: ControlFrame?
    poll("the \(tag) control drawn") {
      frame = rig.controls.currentScene?.controls.first { $0.frame.tag == tag }?.frame
      return frame != nil
    }
    let found = try XCTUnwrap(frame)
    return (Int(found.x + found.width / 2), Int(found.y + found.height / 2))
  }

  /// Moves the pointer to the point, waits for the bar to show fully (a press on a hidden
  /// bar only shows it), then clicks.
  private func click(_ rig: Rig, x: Int, y: Int) throws {
    try XDoTool.run(["mousemove", "--window", rig.xWindow, "\(x)", "\(y)"])
    poll("the bar shown under the pointer") { rig.controls.currentScene?.opacity == 1 }
    try XDoTool.run(["click", "1"])
  }

  /// How many pixels of the bar's rows differ from the bare video: the clip is one flat
  /// colour filling the window, so the bare video there is the colour the window shows
  /// above the bar.
  private func barDifference(_ rig: Rig) -> Int {
    guard let shown = rig.window.snapshot(), shown.height > 100 else { return -1 }
    let bare = shown.pixel(x: shown.width / 2, y: 60)
    var count = 0
    for y in (shown.height - 40)..<shown.height {
      for x in 0..<shown.width {
        let p = shown.pixel(x: x, y: y)
        let distance =
          abs(Int(p.r) - Int(bare.r)) + abs(Int(p.g) - Int(bare.g)) + abs(Int(p.b) - Int(bare.b))
        if distance > 24 { count += 1 }
      }
    }
    return count
  }

  func testTheBarHidesAfterTheIntervalAndThePointerBringsItBack() throws {
    let rig = try start(
      options: PlayerViewOptions(hideControlsInterval: 1, hideControlsAnimationDuration: 0.1))
    defer { rig.close() }
    poll("the bar drawn over the video") { barDifference(rig) > 1000 }
    let bare = try XCTUnwrap(rig.window.videoSnapshot()).pixel(x: 160, y: 90)
    let above = try XCTUnwrap(rig.window.snapshot()).pixel(x: 320, y: 60)
    XCTAssertEqual(
      [Int(bare.r), Int(bare.g), Int(bare.b)], [Int(above.r), Int(above.g), Int(above.b)],
      "above the bar the window shows the video's colour")
    poll("the bar hidden", timeoutSeconds: 15) {
      rig.controls.currentScene?.opacity == 0 && barDifference(rig) == 0
    }
    XCTAssertEqual(barDifference(rig), 0, "the control area is the bare video")
    try XDoTool.run(["mousemove", "--window", rig.xWindow, "100", "100"])
    poll("the bar back after the pointer moved") {
      rig.controls.currentScene?.opacity == 1 && barDifference(rig) > 1000
    }
  }

  func testPlayPauseSliderAndJumpBackActOnThePlayer() throws {
    let rig = try start()
    defer { rig.close() }
    poll("playing") { rig.player.rate != 0 && rig.player.currentTime().seconds > 0.2 }
    let playback = try centre(of: .playback, in: rig)
    try click(rig, x: playback.x, y: playback.y)
    poll("the play/pause control paused") { rig.player.rate == 0 }
    // Paused, the bar stays up; the slider's track is inset 8 px at each end.
    var slider: ControlFrame?
    poll("the slider over the whole duration") {
      slider = rig.controls.currentScene?.controls.first { $0.frame.tag == .progressSlider }?.frame
      return slider != nil && rig.player.currentItem?.duration.seconds == 30
    }
    let track = try XCTUnwrap(slider)
    let x = Int((track.x + 8 + (track.width - 16) * 0.75).rounded())
    try click(rig, x: x, y: Int(track.y + track.height / 2))
    poll("a seek to 75 % of 30 s") { abs(rig.player.currentTime().seconds - 22.5) < 1 }
    XCTAssertEqual(rig.player.rate, 0, "the slider click did not also toggle pause")
    let jump = try centre(of: .jumpBack, in: rig)
    try click(rig, x: jump.x, y: jump.y)
    poll("jump back by 10 s") { abs(rig.player.currentTime().seconds - 12.5) < 1 }
  }
}
