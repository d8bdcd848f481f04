import PlayheadEngine
import PlayheadSDK
import PlayheadUI
import XCTest

/// The controls model on a hand-driven clock: clicks become actions, hiding follows the
/// options' times, menus list and apply choices.
final class ControlsModelTests: XCTestCase {
  private let width = 1280.0
  private let height = 720.0

  private func vodState(playing: Bool = true, position: Double = 30) -> ControlsPlaybackState {
    ControlsPlaybackState(
      sessionID: 1, isPlaying: playing, position: position, duration: 120,
      bufferedRanges: [0...60], markerTimes: [30, 90, 500],
      textTracks: [.init(id: "en", label: "English"), .init(id: "fr", label: "Français")],
      audioTracks: [.init(id: "a-en", label: "English"), .init(id: "a-de", label: "Deutsch")],
      selectedAudioTrackID: "a-en", hasThumbnails: true)
  }

  private func model(
    _ state: ControlsPlaybackState, options: PlayerViewOptions = PlayerViewOptions(),
    now: Double = 0
  ) -> ControlsModel {
    var model = ControlsModel(
      options: options, localization: Localization(preferredLanguages: ["en"]), nowSeconds: now)
    model.resize(width: width, height: height, scale: 1)
    model.update(state, nowSeconds: now)
    return model
  }

  private func centre(of tag: ControlTag, in model: ControlsModel) throws -> (Double, Double) {
    let control = try XCTUnwrap(
      model.scene(nowSeconds: 0).controls.first { $0.frame.tag == tag }, "\(tag) shown")
    return (control.frame.x + control.frame.width / 2, control.frame.y + control.frame.height / 2)
  }

  private func click(
    _ model: inout ControlsModel, at point: (Double, Double), now: Double = 0
  ) -> ControlsResponse {
    _ = model.handle(.pointerPressed(x: point.0, y: point.1), nowSeconds: now)
    return model.handle(.pointerReleased(x: point.0, y: point.1), nowSeconds: now)
  }

  func testPlayPauseFollowsTheState() throws {
    var playing = model(vodState(playing: true))
    let button = try centre(of: .playback, in: playing)
    XCTAssertEqual(
      click(&playing, at: button), ControlsResponse(actions: [.pause], isConsumed: true))
    var paused = model(vodState(playing: false))
    XCTAssertEqual(click(&paused, at: button).actions, [.play])
    XCTAssertEqual(
      paused.scene(nowSeconds: 0).controls.first?.appearance, .playback(isPlaying: false))
  }

  func testAClickOnTheSliderSeeksToThatFractionOnRelease() throws {
    var controls = model(vodState())
    let slider = try XCTUnwrap(
      controls.scene(nowSeconds: 0).controls.first { $0.frame.tag == .progressSlider })
    // The track is inset by 8 px at each end for the knob.
    let x = slider.frame.x + 8 + (slider.frame.width - 16) * 0.75
    let y = slider.frame.y + slider.frame.height / 2
    let press = controls.handle(.pointerPressed(x: x, y: y), nowSeconds: 0)
    XCTAssertEqual(press, ControlsResponse(isConsumed: true), "no seek before release")
    XCTAssertEqual(
      controls.scene(nowSeconds: 0).controls.first { $0.frame.tag == .currentTime }?.appearance,
      .text("1:30"))
    let release = controls.handle(.pointerReleased(x: x, y: y), nowSeconds: 0)
    guard case .seek(let seconds) = release.actions.first else {
      return XCTFail("expected a seek, got \(release.actions)")
    }
    XCTAssertEqual(seconds, 90, accuracy: 1e-9)
  }

  func testDraggingTheSliderSeeksWhereItIsLetGo() throws {
    var controls = model(vodState())
    let slider = try XCTUnwrap(
      controls.scene(nowSeconds: 0).controls.first { $0.frame.tag == .progressSlider })
    let y = slider.frame.y + 5
    _ = controls.handle(.pointerPressed(x: slider.frame.x + 8, y: y), nowSeconds: 0)
    _ = controls.handle(
      .pointerMoved(x: slider.frame.x + slider.frame.width, y: y - 200), nowSeconds: 0.1)
    guard
      case .slider(let look) = controls.scene(nowSeconds: 0.1).controls.first(where: {
        $0.frame.tag == .progressSlider
      })?.appearance
    else {
      return XCTFail("no slider")
    }
    XCTAssertTrue(look.isDragging)
    XCTAssertEqual(look.played, 1)
    let middle = slider.frame.x + 8 + (slider.frame.width - 16) / 2
    let release = controls.handle(.pointerReleased(x: middle, y: y - 200), nowSeconds: 0.2)
    guard case .seek(let seconds) = release.actions.first else { return XCTFail("\(release)") }
    XCTAssertEqual(seconds, 60, accuracy: 1e-9)
  }

  func testJumpBackMovesBackByTheIntervalAndNotBeforeTheStart() throws {
    var controls = model(vodState(position: 30), options: PlayerViewOptions(jumpBackInterval: 15))
    let button = try centre(of: .jumpBack, in: controls)
    XCTAssertEqual(click(&controls, at: button).actions, [.seek(toSeconds: 15)])
    controls.update(vodState(position: 4), nowSeconds: 0)
    XCTAssertEqual(click(&controls, at: button).actions, [.seek(toSeconds: 0)])
  }

  func testControlsHideAfterTheIntervalWithTheAnimationAndComeBackOnInput() {
    var controls = model(vodState(), now: 100)
    XCTAssertEqual(controls.opacity(nowSeconds: 102.9), 1)
    XCTAssertEqual(controls.nextVisibilityChange(nowSeconds: 100), 103)
    XCTAssertEqual(controls.opacity(nowSeconds: 103), 1)
    XCTAssertEqual(controls.opacity(nowSeconds: 103.1), 0.5, accuracy: 1e-9)
    XCTAssertEqual(controls.nextVisibilityChange(nowSeconds: 103.1), 103.2)
    XCTAssertEqual(controls.opacity(nowSeconds: 103.2), 0)
    XCTAssertFalse(controls.scene(nowSeconds: 104).isVisible)
    XCTAssertNil(controls.nextVisibilityChange(nowSeconds: 104))
    _ = controls.handle(.pointerMoved(x: 10, y: 10), nowSeconds: 104)
    XCTAssertEqual(controls.opacity(nowSeconds: 104.1), 0.5, accuracy: 1e-9)
    XCTAssertEqual(controls.opacity(nowSeconds: 104.2), 1)
    XCTAssertEqual(controls.opacity(nowSeconds: 107.1), 0.5, accuracy: 1e-9, "hides again 3 s on")
  }

  func testTheOptionsTimesAreUsed() {
    let options = PlayerViewOptions(
      hideControlsInterval: 5, hideControlsAnimationDuration: 1, showControlsAnimationDuration: 0)
    var controls = model(vodState(), options: options)
    XCTAssertEqual(controls.opacity(nowSeconds: 5.25), 0.75, accuracy: 1e-9)
    XCTAssertEqual(controls.opacity(nowSeconds: 6), 0)
    _ = controls.handle(.key, nowSeconds: 7)
    XCTAssertEqual(controls.opacity(nowSeconds: 7), 1, "a show animation of 0 s is instant")
  }

  func testPausedMenusAndKeepVisiblePinTheControls() throws {
    var paused = model(vodState(playing: false))
    XCTAssertEqual(paused.opacity(nowSeconds: 60), 1)
    paused.update(vodState(playing: true), nowSeconds: 60)
    XCTAssertEqual(paused.opacity(nowSeconds: 62.9), 1, "the delay restarts when play resumes")
    XCTAssertEqual(paused.opacity(nowSeconds: 63.2), 0)
    let kept = model(vodState(), options: PlayerViewOptions(keepControlsVisible: true))
    XCTAssertEqual(kept.opacity(nowSeconds: 60), 1)
    var audio = vodState()
    audio.isAudioOnly = true
    XCTAssertEqual(model(audio).opacity(nowSeconds: 60), 1, "audio-only keeps its controls")
    var menu = model(vodState())
    XCTAssertEqual(click(&menu, at: try centre(of: .closedCaption, in: menu)).actions, [])
    XCTAssertEqual(menu.opacity(nowSeconds: 60), 1, "an open menu keeps them")
  }

  func testAPressOnHiddenControlsOnlyShowsThem() throws {
    var controls = model(vodState())
    let button = try centre(of: .playback, in: controls)
    let response = click(&controls, at: button, now: 10)
    XCTAssertEqual(response, ControlsResponse(isConsumed: false), "left to the host's click")
    XCTAssertEqual(controls.opacity(nowSeconds: 10.2), 1)
    XCTAssertEqual(click(&controls, at: button, now: 10.3).actions, [.pause])
  }

  func testAPointerMovedOntoAHiddenButtonAndPressedActs() throws {
    var controls = model(vodState())
    let button = try centre(of: .playback, in: controls)
    _ = controls.handle(.pointerMoved(x: button.0, y: button.1), nowSeconds: 10)
    XCTAssertEqual(controls.opacity(nowSeconds: 10), 0, "appearing from hidden")
    XCTAssertEqual(click(&controls, at: button, now: 10).actions, [.pause])
  }

  func testAClickOnTheVideoIsLeftToTheHost() {
    var controls = model(vodState())
    XCTAssertFalse(click(&controls, at: (640, 300)).isConsumed)
    var live = model(
      ControlsPlaybackState(sessionID: 1, isPlaying: true, position: 10, streamKind: .live))
    XCTAssertTrue(click(&live, at: (1000, 700)).isConsumed, "the bar's empty space is the bar's")
  }

  func testTheTracksMenuListsSubtitlesAndAudioAndAppliesAChoice() throws {
    var controls = model(vodState())
    _ = click(&controls, at: try centre(of: .closedCaption, in: controls))
    let menu = try XCTUnwrap(controls.scene(nowSeconds: 0).menu)
    XCTAssertEqual(
      menu.items.map(\.label),
      ["Subtitles", "Off", "English", "Français", "Audio", "English", "Deutsch"])
    XCTAssertEqual(menu.items.map(\.isHeading), [true, false, false, false, true, false, false])
    XCTAssertEqual(menu.items.filter(\.isSelected).map(\.label), ["Off", "English"])
    XCTAssertLessThanOrEqual(menu.y + menu.height, height - 40 + 1e-9, "above the bar")
    let french = menu.items[3]
    XCTAssertEqual(
      click(&controls, at: (french.x + 10, french.y + 5)).actions, [.selectTextTrack(id: "fr")])
    XCTAssertNil(controls.scene(nowSeconds: 0).menu, "a choice closes the menu")
    _ = click(&controls, at: try centre(of: .closedCaption, in: controls))
    let heading = try XCTUnwrap(controls.scene(nowSeconds: 0).menu?.items.first)
    XCTAssertEqual(click(&controls, at: (heading.x + 10, heading.y + 5)).actions, [])
    XCTAssertNotNil(controls.scene(nowSeconds: 0).menu, "a heading does nothing")
    XCTAssertEqual(click(&controls, at: (100, 100)), ControlsResponse(isConsumed: true))
    XCTAssertNil(controls.scene(nowSeconds: 0).menu, "a press outside closes it")
  }

  func testTheBitrateMenuPutsAutoFirstAndAppliesTheOption() throws {
    let menu = BitrateMenu(
      title: "Select an Option",
      options: [(title: "High", bitrate: 3_000_000), (title: "Low", bitrate: 500_000)])
    var controls = model(vodState(), options: PlayerViewOptions(preferredBitrateMenu: menu))
    _ = click(&controls, at: try centre(of: .preferredBitrate, in: controls))
    let shown = try XCTUnwrap(controls.scene(nowSeconds: 0).menu)
    XCTAssertEqual(shown.items.map(\.label), ["Select an Option", "Auto", "High", "Low"])
    XCTAssertEqual(shown.items.filter(\.isSelected).map(\.label), ["Auto"])
    let low = shown.items[3]
    XCTAssertEqual(
      click(&controls, at: (low.x + 5, low.y + 5)).actions, [.selectBitrate(optionIndex: 1)])
    XCTAssertEqual(
      controls.scene(nowSeconds: 0).controls.first { $0.frame.tag == .preferredBitrate }?
        .appearance,
      .preferredBitrate(isCapped: true))
  }

  func testUnavailableControlsAreRemoved() {
    var state = vodState()
    state.textTracks = []
    state.audioTracks = [.init(id: "a", label: "English")]
    let tags = Set(model(state).scene(nowSeconds: 0).controls.map(\.frame.tag))
    XCTAssertFalse(tags.contains(.closedCaption), "nothing to choose")
    XCTAssertFalse(tags.contains(.preferredBitrate), "no bitrate menu")
    XCTAssertFalse(tags.contains(.externalRoute))
    XCTAssertTrue(tags.isSuperset(of: [.playback, .jumpBack, .progressSlider, .screenMode]))
  }

  func testABumperHidesTheBarUnlessAskedAndNeverSeeks() throws {
    var bumper = vodState()
    bumper.isBumper = true
    var hidden = model(bumper)
    XCTAssertEqual(hidden.opacity(nowSeconds: 0), 0)
    XCTAssertFalse(click(&hidden, at: (20, 700)).isConsumed)
    var shown = model(bumper, options: PlayerViewOptions(showBumperControls: true))
    let scene = shown.scene(nowSeconds: 0)
    XCTAssertFalse(scene.controls.contains { $0.frame.tag == .jumpBack }, "no jump button")
    let slider = try XCTUnwrap(scene.controls.first { $0.frame.tag == .progressSlider })
    guard case .slider(let look) = slider.appearance else { return XCTFail("no slider look") }
    XCTAssertTrue(look.isBumper)
    XCTAssertEqual(look.buffered, [], "buffering is not shown")
    let point = (slider.frame.x + slider.frame.width / 2, slider.frame.y + 5)
    XCTAssertEqual(click(&shown, at: point).actions, [], "no seeking")
  }

  func testAutomaticSelectionPicksPerSessionAndACustomLayoutStaysUntilTheNext() {
    var controls = model(vodState())
    XCTAssertEqual(controls.automaticKind, .vod)
    var custom = ControlLayout.basicVOD()
    custom.setRemoved(true, tag: .jumpBack)
    controls.install(custom)
    controls.update(vodState(position: 40), nowSeconds: 1)
    XCTAssertEqual(controls.layout, custom, "same session: the custom layout stays")
    var live = ControlsPlaybackState(
      sessionID: 2, isPlaying: true, position: 100, seekableRange: 40...130, streamKind: .liveDVR)
    controls.update(live, nowSeconds: 2)
    XCTAssertEqual(controls.automaticKind, .liveDVR)
    live.sessionID = 3
    live.isAudioOnly = true
    live.streamKind = .live
    controls.update(live, nowSeconds: 3)
    XCTAssertEqual(controls.automaticKind, .liveAudio)
    var manual = ControlsModel(
      options: PlayerViewOptions(automaticControlTypeSelection: false), layout: .basicLive(),
      nowSeconds: 0)
    manual.update(vodState(), nowSeconds: 0)
    XCTAssertEqual(manual.layout, .basicLive())
    XCTAssertNil(manual.automaticKind)
  }

  func testLiveDVRShowsTheDistanceToLiveAndGoesToLive() throws {
    let state = ControlsPlaybackState(
      sessionID: 1, isPlaying: true, position: 88, seekableRange: 40...130,
      bufferedRanges: [88...100], streamKind: .liveDVR)
    var controls = model(state)
    let scene = controls.scene(nowSeconds: 0)
    XCTAssertEqual(
      scene.controls.first { $0.frame.tag == .currentTime }?.appearance, .text("-0:42"))
    XCTAssertEqual(
      scene.controls.first { $0.frame.tag == .liveIndicator }?.appearance,
      .liveIndicator(isAtLiveEdge: false))
    XCTAssertEqual(
      click(&controls, at: try centre(of: .liveIndicator, in: controls)).actions, [.goToLive])
    var atEdge = state
    atEdge.position = 129
    controls.update(atEdge, nowSeconds: 0)
    XCTAssertEqual(click(&controls, at: try centre(of: .liveIndicator, in: controls)).actions, [])
    XCTAssertEqual(
      click(&controls, at: try centre(of: .jumpBack, in: controls)).actions, [.seek(toSeconds: 119)]
    )
  }

  func testSliderShowsBufferedRangesAndMarkersInsideTheRange() throws {
    let scene = model(vodState()).scene(nowSeconds: 0)
    guard
      case .slider(let look) = scene.controls.first(where: { $0.frame.tag == .progressSlider })?
        .appearance
    else {
      return XCTFail("no slider")
    }
    XCTAssertEqual(look.played, 0.25)
    XCTAssertEqual(look.buffered, [0...0.5])
    XCTAssertEqual(look.markers, [0.25, 0.75], "the marker at 500 s is past the end")
  }

  func testHoveringTheSliderAsksForTheThumbnailAtThatTime() throws {
    var controls = model(vodState())
    let slider = try XCTUnwrap(
      controls.scene(nowSeconds: 0).controls.first { $0.frame.tag == .progressSlider })
    let x = slider.frame.x + 8 + (slider.frame.width - 16) * 0.5
    _ = controls.handle(.pointerMoved(x: x, y: slider.frame.y + 10), nowSeconds: 0)
    let preview = try XCTUnwrap(controls.scene(nowSeconds: 0).thumbnail)
    XCTAssertEqual(preview.timeSeconds, 60, accuracy: 1e-9)
    XCTAssertEqual(preview.centreX, x, accuracy: 1e-9)
    XCTAssertLessThan(preview.bottomY, slider.frame.y)
    var disabled = model(vodState(), options: PlayerViewOptions(thumbnailSeekingEnabled: false))
    _ = disabled.handle(.pointerMoved(x: x, y: slider.frame.y + 10), nowSeconds: 0)
    XCTAssertNil(disabled.scene(nowSeconds: 0).thumbnail)
    _ = controls.handle(.pointerMoved(x: x, y: 100), nowSeconds: 0)
    XCTAssertNil(controls.scene(nowSeconds: 0).thumbnail, "not over the slider")
  }

  func testAccessibleNamesAreLocalisedAndFollowTheState() throws {
    var controls = ControlsModel(
      localization: Localization(preferredLanguages: ["fr"]), nowSeconds: 0)
    controls.resize(width: width, height: height, scale: 1)
    controls.update(vodState(playing: false), nowSeconds: 0)
    let names = Dictionary(
      uniqueKeysWithValues: controls.scene(nowSeconds: 0).controls.map {
        ($0.frame.tag, $0.accessibilityName)
      })
    let french = Localization(preferredLanguages: ["fr"])
    XCTAssertEqual(names[.playback], french.string(.play))
    XCTAssertEqual(names[.screenMode], french.string(.fullScreen))
    XCTAssertEqual(names[.progressSlider], french.string(.timeline))
    XCTAssertEqual(names[.timeSeparator], .some(nil))
    XCTAssertNotEqual(french.string(.play), Localization(preferredLanguages: ["en"]).string(.play))
    controls.update(vodState(playing: true), nowSeconds: 0)
    XCTAssertEqual(
      controls.scene(nowSeconds: 0).controls.first?.accessibilityName, french.string(.pause))
  }

  func testTimeText() {
    let table: [(Double, String)] = [
      (0, "0:00"), (59.9, "0:59"), (61, "1:01"), (3599, "59:59"), (3600, "1:00:00"),
      (36_061, "10:01:01"), (-42, "-0:42"), (.nan, "--:--"), (.infinity, "--:--"),
    ]
    for (seconds, text) in table {
      XCTAssertEqual(ControlsTimeText.format(seconds), text, "\(seconds)")
    }
  }
}
