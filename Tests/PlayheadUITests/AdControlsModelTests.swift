import PlayheadEngine
import PlayheadSDK
import PlayheadUI
import XCTest

/// The ad controls of the controls model: badge and countdown, skip control before and
/// after its offset, "Learn more", keyboard focus, no scrubbing during an ad, break markers.
final class AdControlsModelTests: XCTestCase {
  private let width = 1280.0
  private let height = 720.0

  private func state(ad: ControlsAdState?, breaks: [Double] = []) -> ControlsPlaybackState {
    ControlsPlaybackState(
      sessionID: 1, isPlaying: true, position: 30, duration: 120, markerTimes: [90], ad: ad,
      adBreakTimes: breaks)
  }

  private func model(
    _ state: ControlsPlaybackState, language: String = "en", now: Double = 0
  ) -> ControlsModel {
    var model = ControlsModel(
      localization: Localization(preferredLanguages: [language]), nowSeconds: now)
    model.resize(width: width, height: height, scale: 1)
    model.update(state, nowSeconds: now)
    return model
  }

  private func centre(of box: ControlsScene.AdControls.Box) -> (Double, Double) {
    (box.x + box.width / 2, box.y + box.height / 2)
  }

  private func click(
    _ model: inout ControlsModel, at point: (Double, Double), now: Double = 0
  ) -> ControlsResponse {
    _ = model.handle(.pointerPressed(x: point.0, y: point.1), nowSeconds: now)
    return model.handle(.pointerReleased(x: point.0, y: point.1), nowSeconds: now)
  }

  func testTheBadgeSaysWhichAdAndCountsDownInWholeSeconds() throws {
    let controls = model(
      state(ad: ControlsAdState(adNumber: 2, adCount: 3, remainingSeconds: 14.2)))
    let ad = try XCTUnwrap(controls.scene(nowSeconds: 0).ad)
    XCTAssertEqual(ad.badgeText, "Ad 2 of 3 · 0:15")
    XCTAssertTrue(ad.buttons.isEmpty, "no skip offset and no page: no buttons")
    // Bottom left, above the control area.
    let scene = controls.scene(nowSeconds: 0)
    XCTAssertLessThan(ad.badge.x, width / 2)
    XCTAssertLessThanOrEqual(ad.badge.y + ad.badge.height, scene.areaY)
  }

  func testTheSkipControlCountsDownThenSkipsWhenPressed() throws {
    var before = model(
      state(ad: ControlsAdState(adNumber: 1, adCount: 1, secondsUntilSkippable: 4.3)))
    let waiting = try XCTUnwrap(before.scene(nowSeconds: 0).ad?.button(.skip))
    XCTAssertEqual(waiting.label, "Skip in 5")
    XCTAssertFalse(waiting.isEnabled)
    XCTAssertGreaterThan(waiting.box.x, width / 2, "at the right")
    XCTAssertEqual(
      click(&before, at: centre(of: waiting.box)), ControlsResponse(isConsumed: true),
      "a press before the offset does nothing, and is not a click on the video")

    var after = model(
      state(ad: ControlsAdState(adNumber: 1, adCount: 1, secondsUntilSkippable: 0)))
    let ready = try XCTUnwrap(after.scene(nowSeconds: 0).ad?.button(.skip))
    XCTAssertEqual(ready.label, "Skip ad")
    XCTAssertTrue(ready.isEnabled)
    XCTAssertEqual(
      click(&after, at: centre(of: ready.box)),
      ControlsResponse(actions: [.skipAd], isConsumed: true))
    // Released elsewhere: no skip.
    _ = after.handle(.pointerPressed(x: ready.box.x + 2, y: ready.box.y + 2), nowSeconds: 0)
    XCTAssertEqual(
      after.handle(.pointerReleased(x: 10, y: 10), nowSeconds: 0).actions, [])
  }

  func testLearnMoreOpensTheClickThrough() throws {
    var controls = model(
      state(ad: ControlsAdState(adNumber: 1, adCount: 2, hasLearnMore: true)))
    let button = try XCTUnwrap(controls.scene(nowSeconds: 0).ad?.button(.learnMore))
    XCTAssertEqual(button.label, "Learn more")
    XCTAssertLessThan(button.box.y, height / 2, "at the top")
    XCTAssertEqual(
      click(&controls, at: centre(of: button.box)).actions, [.openAdClickThrough])
  }

  func testTheAdControlsStayAndActWhileTheBarIsHidden() throws {
    var controls = model(
      state(ad: ControlsAdState(adNumber: 1, adCount: 1, secondsUntilSkippable: 0)))
    let later = 60.0
    let scene = controls.scene(nowSeconds: later)
    XCTAssertEqual(scene.opacity, 0, "the bar hid after the delay")
    XCTAssertFalse(scene.isBarVisible)
    XCTAssertTrue(scene.isVisible, "the ad controls still show")
    let skip = try XCTUnwrap(scene.ad?.button(.skip))
    XCTAssertEqual(click(&controls, at: centre(of: skip.box), now: later).actions, [.skipAd])
  }

  func testTabAndReturnReachTheAdControls() throws {
    var controls = model(
      state(
        ad: ControlsAdState(
          adNumber: 1, adCount: 1, secondsUntilSkippable: 0, hasLearnMore: true)))
    XCTAssertEqual(
      controls.handle(.navigationKey(.activate), nowSeconds: 0),
      ControlsResponse(isConsumed: false), "Return with nothing focused is the host's")
    XCTAssertTrue(controls.handle(.navigationKey(.next), nowSeconds: 0).isConsumed)
    XCTAssertEqual(controls.scene(nowSeconds: 0).ad?.button(.skip)?.isFocused, true)
    XCTAssertEqual(
      controls.handle(.navigationKey(.activate), nowSeconds: 0).actions, [.skipAd])
    _ = controls.handle(.navigationKey(.next), nowSeconds: 0)
    XCTAssertEqual(controls.scene(nowSeconds: 0).ad?.button(.learnMore)?.isFocused, true)
    XCTAssertEqual(controls.scene(nowSeconds: 0).ad?.button(.skip)?.isFocused, false)
    _ = controls.handle(.navigationKey(.next), nowSeconds: 0)
    XCTAssertEqual(controls.scene(nowSeconds: 0).ad?.button(.skip)?.isFocused, true, "wraps")
    _ = controls.handle(.navigationKey(.previous), nowSeconds: 0)
    XCTAssertEqual(
      controls.handle(.navigationKey(.activate), nowSeconds: 0).actions, [.openAdClickThrough])

    // The ad ends: focus goes, and Tab is the host's again.
    controls.update(state(ad: nil), nowSeconds: 1)
    XCTAssertNil(controls.scene(nowSeconds: 1).ad)
    XCTAssertFalse(controls.handle(.navigationKey(.next), nowSeconds: 1).isConsumed)
  }

  func testNoScrubbingOrJumpingBackDuringAnAd() throws {
    var controls = model(state(ad: ControlsAdState(adNumber: 1, adCount: 1)))
    let scene = controls.scene(nowSeconds: 0)
    XCTAssertFalse(scene.controls.contains { $0.frame.tag == .jumpBack })
    let slider = try XCTUnwrap(scene.controls.first { $0.frame.tag == .progressSlider })
    let point = (
      slider.frame.x + slider.frame.width * 0.8, slider.frame.y + slider.frame.height / 2
    )
    let response = click(&controls, at: point)
    XCTAssertEqual(response.actions, [], "no seek while an ad plays")
    // Without the ad the same click seeks.
    var content = model(state(ad: nil))
    XCTAssertEqual(click(&content, at: point).actions.count, 1)
  }

  func testBreaksStillToPlayAreMarkedApartFromCuePoints() throws {
    let controls = model(state(ad: nil, breaks: [60, 120, 400]))
    guard
      case .slider(let look)? = controls.scene(nowSeconds: 0).controls.first(where: {
        $0.frame.tag == .progressSlider
      })?.appearance
    else {
      return XCTFail("a slider")
    }
    XCTAssertEqual(look.adMarkers, [0.5, 1.0], "in range only, as fractions")
    XCTAssertEqual(look.markers, [0.75], "the cue point stays a marker of its own")
  }

  func testTheAdStringsAreLocalised() throws {
    let ad = ControlsAdState(
      adNumber: 1, adCount: 2, remainingSeconds: 9, secondsUntilSkippable: 3, hasLearnMore: true)
    let french = try XCTUnwrap(model(state(ad: ad), language: "fr").scene(nowSeconds: 0).ad)
    XCTAssertEqual(french.badgeText, "Annonce 1 sur 2 · 0:09")
    XCTAssertEqual(french.button(.skip)?.label, "Ignorer dans 3")
    XCTAssertEqual(french.button(.learnMore)?.label, "En savoir plus")
    let japanese = try XCTUnwrap(model(state(ad: ad), language: "ja").scene(nowSeconds: 0).ad)
    XCTAssertEqual(japanese.badgeText, "広告 1/2 · 0:09")
    // Wide characters get wider boxes than their count of Latin letters would.
    XCTAssertGreaterThan(
      japanese.button(.learnMore)?.box.width ?? 0, 2 * 14 * 0.6 + 24)
  }

  func testAnApplicationDrawingItsOwn_turnsTheAdControlsOff_seekingStaysBlocked() throws {
    var options = PlayerViewOptions()
    options.showsAdControls = false
    var controls = ControlsModel(
      options: options, localization: Localization(preferredLanguages: ["en"]), nowSeconds: 0)
    controls.resize(width: width, height: height, scale: 1)
    controls.update(
      state(ad: ControlsAdState(adNumber: 1, adCount: 1, secondsUntilSkippable: 0)),
      nowSeconds: 0)
    let scene = controls.scene(nowSeconds: 0)
    XCTAssertNil(scene.ad)
    XCTAssertFalse(controls.handle(.navigationKey(.next), nowSeconds: 0).isConsumed)
    let slider = try XCTUnwrap(scene.controls.first { $0.frame.tag == .progressSlider })
    let point = (
      slider.frame.x + slider.frame.width * 0.8, slider.frame.y + slider.frame.height / 2
    )
    XCTAssertEqual(click(&controls, at: point).actions, [], "still no seek during the ad")
  }
}
