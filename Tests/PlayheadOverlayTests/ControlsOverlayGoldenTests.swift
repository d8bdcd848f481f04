import PlayheadEngine
import PlayheadMedia
import PlayheadOverlay
import PlayheadSDK
import PlayheadTestSupport
import PlayheadUI
import XCTest

/// The controls drawn offscreen with libass, compared with committed golden PNGs
/// (`Tests/Goldens/controls`): every provided layout at a standard and a compact width.
final class ControlsOverlayGoldenTests: XCTestCase {
  static let sizes = [(width: 1280, height: 720), (width: 480, height: 270)]

  /// A picture that is not flat, so that transparency mistakes show.
  static func background(width: Int, height: Int) -> RGBAImage {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let offset = (y * width + x) * 4
        pixels[offset] = UInt8(40 + 120 * x / max(1, width))
        pixels[offset + 1] = UInt8(60 + 100 * y / max(1, height))
        pixels[offset + 2] = 140
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  static func state(for kind: ControlLayout.Kind) -> ControlsPlaybackState {
    let tracks = [
      ControlsPlaybackState.TrackChoice(id: "en", label: "English"),
      ControlsPlaybackState.TrackChoice(id: "fr", label: "Français"),
    ]
    let ladder = BitrateMenu(
      title: nil,
      options: [(title: "1080p", bitrate: 5_000_000), (title: "480p", bitrate: 900_000)])
    var state = ControlsPlaybackState(
      sessionID: 1, isPlaying: true, position: 754, duration: 3725, bufferedRanges: [700...1100],
      markerTimes: [300, 1800, 3000], isAudioOnly: kind.isAudioOnly, textTracks: tracks,
      selectedTextTrackID: "en", bitrateMenu: ladder)
    switch kind {
    case .vod, .audioOnlyVOD: state.streamKind = .onDemand
    case .live, .liveAudio:
      state.streamKind = .live
      state.duration = nil
      state.seekableRange = 740...760
      state.position = 759
    case .liveDVR, .liveDVRAudio:
      state.streamKind = .liveDVR
      state.duration = nil
      state.seekableRange = 400...800
    }
    return state
  }

  static func model(
    _ kind: ControlLayout.Kind, width: Int, height: Int, state: ControlsPlaybackState? = nil
  ) -> ControlsModel {
    var model = ControlsModel(
      options: PlayerViewOptions(automaticControlTypeSelection: false),
      layout: .provided(kind), localization: Localization(preferredLanguages: ["en"]),
      nowSeconds: 0)
    model.resize(width: Double(width), height: Double(height), scale: 1)
    model.update(state ?? Self.state(for: kind), nowSeconds: 0)
    return model
  }

  private func render(_ scene: ControlsScene, renderer: ControlsOverlayRenderer) throws -> RGBAImage
  {
    var picture = Self.background(width: Int(scene.viewWidth), height: Int(scene.viewHeight))
    picture.composite(try renderer.overlay(for: scene))
    return picture
  }

  private func assertMatchesGolden(
    _ image: RGBAImage, _ name: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let result = try Goldens.compare(image, with: name)
    // Allow a few pixels of glyph edges to move between FreeType builds.
    XCTAssertLessThanOrEqual(
      result.differingPixels, result.totalPixels / 2000,
      "\(name): \(result.differingPixels) pixels differ (largest \(result.largestDifference))",
      file: file, line: line)
  }

  func testEveryProvidedLayoutAtAStandardAndACompactWidth() throws {
    let renderer = try ControlsOverlayRenderer()
    for kind in ControlLayout.Kind.allCases {
      for size in Self.sizes {
        let scene = Self.model(kind, width: size.width, height: size.height).scene(nowSeconds: 0)
        let image = try render(scene, renderer: renderer)
        let bare = Self.background(width: size.width, height: size.height)
        XCTAssertGreaterThan(
          image.differingBottomThirdPixels(from: bare, threshold: 60), size.width,
          "\(kind) at \(size.width): the bar is drawn")
        try assertMatchesGolden(image, "controls/\(kind.rawValue)-\(size.width).png")
      }
    }
  }

  func testAnOpenMenuAndAHoveredButton() throws {
    let renderer = try ControlsOverlayRenderer()
    var model = Self.model(.vod, width: 1280, height: 720)
    let button = try XCTUnwrap(
      model.scene(nowSeconds: 0).controls.first { $0.frame.tag == .closedCaption })
    let point = (button.frame.x + 5, button.frame.y + 5)
    _ = model.handle(.pointerPressed(x: point.0, y: point.1), nowSeconds: 0)
    _ = model.handle(.pointerReleased(x: point.0, y: point.1), nowSeconds: 0)
    XCTAssertNotNil(model.scene(nowSeconds: 0).menu)
    try assertMatchesGolden(
      try render(model.scene(nowSeconds: 0), renderer: renderer), "controls/vod-menu-1280.png")
  }

  func testTheAdControls_withTheBarAndWithoutIt() throws {
    let renderer = try ControlsOverlayRenderer()
    var state = Self.state(for: .vod)
    state.ad = ControlsAdState(
      adNumber: 2, adCount: 3, remainingSeconds: 12.4, secondsUntilSkippable: 0,
      hasLearnMore: true)
    state.adBreakTimes = [1800, 3725]
    var model = Self.model(.vod, width: 1280, height: 720, state: state)
    _ = model.handle(.navigationKey(.next), nowSeconds: 0)
    let scene = model.scene(nowSeconds: 0)
    let ad = try XCTUnwrap(scene.ad)
    XCTAssertEqual(ad.button(.skip)?.isFocused, true)
    try assertMatchesGolden(try render(scene, renderer: renderer), "controls/vod-ad-1280.png")

    // The bar hidden: only the ad controls are drawn, each where the scene puts it.
    let hidden = model.scene(nowSeconds: 60)
    XCTAssertFalse(hidden.isBarVisible)
    let bare = Self.background(width: 1280, height: 720)
    let image = try render(hidden, renderer: renderer)
    func changed(in box: ControlsScene.AdControls.Box) -> Bool {
      image.pixel(x: Int(box.x) + 3, y: Int(box.y) + 3)
        != bare.pixel(x: Int(box.x) + 3, y: Int(box.y) + 3)
    }
    XCTAssertTrue(changed(in: ad.badge), "the badge")
    for button in ad.buttons { XCTAssertTrue(changed(in: button.box), "\(button.kind)") }
    XCTAssertTrue(
      image.pixel(x: 640, y: 715) == bare.pixel(x: 640, y: 715), "no bar under the ad controls")
  }

  func testHiddenControlsLeaveThePictureUntouchedAndAFadeIsBetween() throws {
    let renderer = try ControlsOverlayRenderer()
    let model = Self.model(.vod, width: 480, height: 270)
    let bare = Self.background(width: 480, height: 270)
    XCTAssertEqual(try render(model.scene(nowSeconds: 10), renderer: renderer), bare)
    let shown = try render(model.scene(nowSeconds: 0), renderer: renderer)
    let half = try render(model.scene(nowSeconds: 3.1), renderer: renderer)
    let shownDifference = shown.differingBottomThirdPixels(from: bare, threshold: 60)
    let halfDifference = half.differingBottomThirdPixels(from: bare, threshold: 60)
    XCTAssertGreaterThan(halfDifference, 0, "half faded still shows")
    XCTAssertLessThan(halfDifference, shownDifference, "half faded shows less")
  }

  func testAudioOnlyMediaShowThePosterBehindTheControls() throws {
    let renderer = try ControlsOverlayRenderer()
    let poster = RGBAImage(width: 100, height: 50, color: RGBAColor(r: 255, g: 0, b: 0, a: 255))
    var model = ControlsModel(
      options: PlayerViewOptions(posterPath: "/poster.png"),
      localization: Localization(preferredLanguages: ["en"]), nowSeconds: 0)
    model.resize(width: 480, height: 270, scale: 1)
    model.update(Self.state(for: .audioOnlyVOD), nowSeconds: 0)
    let scene = model.scene(nowSeconds: 0)
    XCTAssertTrue(scene.showsPoster)
    let overlay = try renderer.overlay(for: scene, poster: poster)
    // 100x50 fitted into 480x270: 480x240, centred (rows 15 to 254), under the bar.
    XCTAssertEqual(overlay.image.pixel(x: 240, y: 100).r, 255)
    XCTAssertEqual(overlay.image.pixel(x: 240, y: 100).a, 255)
    XCTAssertEqual(overlay.image.pixel(x: 240, y: 5).a, 0, "above the fitted poster")
    let hidden = try renderer.overlay(for: model.scene(nowSeconds: 60), poster: poster)
    XCTAssertEqual(hidden.image.pixel(x: 240, y: 100).r, 255, "audio-only keeps it up")
    var video = Self.state(for: .vod)
    video.sessionID = 2
    model.update(video, nowSeconds: 0)
    XCTAssertFalse(model.scene(nowSeconds: 0).showsPoster, "not over a video")
  }

  func testALogoInAnEmptyLayoutView() throws {
    let renderer = try ControlsOverlayRenderer()
    let layout = ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .progressSlider, elasticity: 1),
          .init(id: "logo", tag: .empty, width: 88),
        ]
      ], compactRows: [])
    var model = ControlsModel(
      options: PlayerViewOptions(automaticControlTypeSelection: false), layout: layout,
      localization: Localization(preferredLanguages: ["en"]), nowSeconds: 0)
    model.resize(width: 640, height: 360, scale: 1)
    model.update(Self.state(for: .vod), nowSeconds: 0)
    let scene = model.scene(nowSeconds: 0)
    let logo = try XCTUnwrap(scene.controls.first { $0.frame.id == "logo" }?.frame)
    XCTAssertEqual(logo.x, 552)
    let green = RGBAImage(width: 44, height: 20, color: RGBAColor(r: 0, g: 255, b: 0, a: 255))
    let overlay = try renderer.overlay(for: scene, viewImages: ["logo": green])
    // 44x20 fitted into 88x40: 88x40, the whole view.
    let centre = overlay.image.pixel(x: Int(logo.x + 44), y: Int(logo.y + 20))
    XCTAssertEqual([centre.r, centre.g, centre.b, centre.a], [0, 255, 0, 255])
    let before = try renderer.overlay(for: scene).image.pixel(
      x: Int(logo.x + 44), y: Int(logo.y + 20))
    XCTAssertNotEqual(before.g, 255, "only with the image")
  }

  func testAThumbnailIsDrawnAboveTheSliderWhereThePointerIs() throws {
    let renderer = try ControlsOverlayRenderer()
    var state = Self.state(for: .vod)
    state.hasThumbnails = true
    var model = Self.model(.vod, width: 1280, height: 720, state: state)
    let slider = try XCTUnwrap(
      model.scene(nowSeconds: 0).controls.first { $0.frame.tag == .progressSlider })
    _ = model.handle(.pointerMoved(x: slider.frame.x + 300, y: slider.frame.y + 10), nowSeconds: 0)
    let scene = model.scene(nowSeconds: 0)
    let preview = try XCTUnwrap(scene.thumbnail)
    let red = RGBAImage(width: 64, height: 36, color: RGBAColor(r: 255, g: 0, b: 0, a: 255))
    var picture = Self.background(width: 1280, height: 720)
    picture.composite(try renderer.overlay(for: scene, thumbnail: red))
    let inside = picture.pixel(x: Int(preview.centreX), y: Int(preview.bottomY) - 40)
    XCTAssertEqual([inside.r, inside.g, inside.b], [255, 0, 0], "the thumbnail at the pointer")
    let border = picture.pixel(x: Int(preview.centreX), y: Int(preview.bottomY) - 1)
    XCTAssertEqual([border.r, border.g, border.b], [255, 255, 255], "its white border")
  }
}
