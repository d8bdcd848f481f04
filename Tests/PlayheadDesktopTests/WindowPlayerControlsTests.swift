import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
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
    let url = try StillClip.make(RGBAColor(r: 0x40, g: 0x70, b: 0xa0), seconds: 30)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
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
  private func start(
    options: PlayerViewOptions = PlayerViewOptions(), layout: ControlLayout? = nil,
    playing: Bool = true
  ) throws -> Rig {
    let clip = try stillClip()
    let title = "playhead-controls-\(UUID().uuidString.prefix(8))"
    let holder = Locked<WindowPlayerControls?>(nil)
    let window = try WindowVideoSink(
      options: WindowOptions(title: title, size: size, background: .black)
    ) { event in _ = holder.value?.handle(event) }
    var configuration = PlayerConfiguration(videoSink: window)
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    let controls = try WindowPlayerControls(
      window: window, player: player, options: options, layout: layout,
      localization: Localization(preferredLanguages: ["en"]))
    holder.withLock { $0 = controls }
    player.replaceCurrentItem(with: PlayerItem(url: clip))
    if playing { player.play() }
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
  /// The slider's frame once the bar knows the duration (jump back shows with it, which
  /// moves the slider).
  private func sliderFrame(_ rig: Rig) throws -> ControlFrame {
    var slider: ControlFrame?
    poll("the slider over the whole duration") {
      let controls = rig.controls.currentScene?.controls ?? []
      slider = controls.first { $0.frame.tag == .progressSlider }?.frame
      return slider != nil && controls.contains { $0.frame.tag == .jumpBack }
        && controls.contains { $0.appearance == .text("0:30") }
    }
    return try XCTUnwrap(slider)
  }

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
    poll("the bar hidden", timeoutMs: 15_000) {
      rig.controls.currentScene?.opacity == 0 && barDifference(rig) == 0
    }
    XCTAssertEqual(barDifference(rig), 0, "the control area is the bare video")
    try XDoTool.run(["mousemove", "--window", rig.xWindow, "100", "100"])
    poll("the bar back after the pointer moved") {
      rig.controls.currentScene?.opacity == 1 && barDifference(rig) > 1000
    }
  }

  func testTheWindowShowsTheVODAndLiveBarsAsTheGoldenImages() throws {
    for (kind, name) in [(ControlLayout.Kind.vod, "vod"), (.live, "live")] {
      let rig = try start(
        options: PlayerViewOptions(automaticControlTypeSelection: false, keepControlsVisible: true),
        layout: .provided(kind), playing: false)
      defer { rig.close() }
      // Paused at 0 with the whole clip loaded, the scene no longer changes.
      poll("the \(name) bar with the duration and the loaded range") {
        let controls = rig.controls.currentScene?.controls ?? []
        let loaded = controls.contains {
          if case .slider(let look) = $0.appearance { return look.buffered == [0...1] }
          return false
        }
        return (kind == .live || (loaded && controls.contains { $0.appearance == .text("0:30") }))
          && controls.contains { $0.frame.tag == .playback } && barDifference(rig) > 500
      }
      let shown = try XCTUnwrap(rig.window.snapshot())
      let result = try Goldens.compare(
        shown, with: "controls/window-\(name)-640.png", tolerance: 24)
      if result.differingPixels > result.totalPixels / 2000 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
          "playhead-window-\(name)-\(UUID().uuidString.prefix(8)).png")
        try? PNGCodec.encode(shown).write(to: path)
        print(
          "window capture kept at \(path.path): \(String(describing: rig.controls.currentScene))")
      }
      XCTAssertLessThanOrEqual(
        result.differingPixels, result.totalPixels / 2000,
        "\(name): \(result.differingPixels) pixels differ (largest \(result.largestDifference))")
    }
  }

  func testAudioOnlyMediaShowThePoster() throws {
    let poster = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-poster-\(UUID().uuidString).png")
    addTeardownBlock { try? FileManager.default.removeItem(at: poster) }
    try PNGCodec.encode(
      RGBAImage(width: 160, height: 90, color: RGBAColor(r: 255, g: 0, b: 0, a: 255))
    ).write(to: poster)
    let title = "playhead-poster-\(UUID().uuidString.prefix(8))"
    let window = try WindowVideoSink(
      options: WindowOptions(title: title, size: size, background: .black))
    defer { window.close() }
    let configuration = PlayerConfiguration(videoSink: window)
    let player = Player(configuration: configuration)
    defer { player.close() }
    let controls = try WindowPlayerControls(
      window: window, player: player, options: PlayerViewOptions(posterPath: poster.path))
    defer { controls.close() }
    player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.url("sample-audio.mp3")))
    poll("the poster over the window") {
      guard let shown = window.snapshot() else { return false }
      let pixel = shown.pixel(x: 320, y: 150)
      return pixel.r > 230 && pixel.g < 30 && pixel.b < 30
    }
    XCTAssertEqual(controls.currentScene?.showsPoster, true)
  }

  func testTheBarGrowsWithTheScale() throws {
    let rig = try start(playing: false)
    defer { rig.close() }
    poll("a bar 40 px high") { rig.controls.currentScene?.areaHeight == 40 }
    poll("drawn at scale 1") { barDifference(rig) > 500 }
    let before = try XCTUnwrap(rig.window.snapshot()).pixel(x: 40, y: 320)
    XCTAssertFalse(before.r > 200 && before.g > 200 && before.b > 200, "between two buttons")
    rig.controls.scale = 2
    // At scale 2 the 640 px window is below the compact width (500 × 2): two rows of 80.
    poll("two rows 80 px high at scale 2") { rig.controls.currentScene?.areaHeight == 160 }
    poll("the play button drawn twice as large") {
      // At scale 2 the play button is 80 px square at the bottom left, its triangle over
      // (40, 320); at scale 1 that point lies between two buttons.
      guard let shown = rig.window.snapshot() else { return false }
      let pixel = shown.pixel(x: 40, y: shown.height - 40)
      return pixel.r > 200 && pixel.g > 200 && pixel.b > 200
    }
    XCTAssertEqual(WindowPlayerControls.desktopScale(environment: [:]), 1)
    XCTAssertEqual(WindowPlayerControls.desktopScale(environment: ["GDK_SCALE": "2"]), 2)
    XCTAssertEqual(
      WindowPlayerControls.desktopScale(environment: ["GDK_SCALE": "2", "GDK_DPI_SCALE": "0.75"]),
      1.5)
    XCTAssertEqual(
      WindowPlayerControls.desktopScale(environment: ["QT_SCALE_FACTOR": "1.25"]), 1.25)
    XCTAssertEqual(WindowPlayerControls.desktopScale(environment: ["GDK_SCALE": "zero"]), 1)
  }

  func testHoveringTheSliderShowsTheThumbnailForThatTime() throws {
    let rig = try start()
    defer { rig.close() }
    let asked = Locked<[Double]>([])
    rig.controls.thumbnailProvider = { time in
      asked.withLock { $0.append(time.seconds) }
      return RGBAImage(width: 64, height: 36, color: RGBAColor(r: 255, g: 0, b: 0, a: 255))
    }
    let track = try sliderFrame(rig)
    let x = Int((track.x + 8 + (track.width - 16) / 2).rounded())
    try XDoTool.run(["mousemove", "--window", rig.xWindow, "\(x)", "\(Int(track.y + 20))"])
    poll("a red thumbnail above the pointer") {
      guard let shown = rig.window.snapshot() else { return false }
      let pixel = shown.pixel(x: x, y: Int(track.y) - 8 - 45)
      return pixel.r > 230 && pixel.g < 30 && pixel.b < 30
    }
    XCTAssertTrue(
      asked.value.contains { abs($0 - 15) < 0.2 }, "asked for the middle of 30 s: \(asked.value)")
    try XDoTool.run(["mousemove", "--window", rig.xWindow, "\(x)", "100"])
    poll("no thumbnail once the pointer left the slider") {
      rig.controls.currentScene?.thumbnail == nil
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
    let track = try sliderFrame(rig)
    let x = Int((track.x + 8 + (track.width - 16) * 0.75).rounded())
    try click(rig, x: x, y: Int(track.y + track.height / 2))
    poll("a seek to 75 % of 30 s") { abs(rig.player.currentTime().seconds - 22.5) < 1 }
    XCTAssertEqual(rig.player.rate, 0, "the slider click did not also toggle pause")
    let jump = try centre(of: .jumpBack, in: rig)
    try click(rig, x: jump.x, y: jump.y)
    poll("jump back by 10 s") { abs(rig.player.currentTime().seconds - 12.5) < 1 }
  }
}
