import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import PlayheadTesting
import PlayheadUI
import XCTest

@testable import PlayheadDesktop

/// The ad controls in a real window under Xvfb (issue 32): the badge and countdown are
/// drawn, the skip control appears at the offset and skips when clicked or reached with
/// Tab and Return, "Learn more" calls the application's handler and sends click tracking.
final class AdWindowTests: WindowTestCase {
  private let size = WindowSize(width: 640, height: 360)
  /// The colours of the ad's and the content's pictures (flat, so pixels can be told apart).
  private let adColour = RGBAColor(r: 0x40, g: 0x70, b: 0xa0)
  private let contentColour = RGBAColor(r: 0xa0, g: 0x70, b: 0x40)

  /// A clip of one flat colour, removed after the test.
  private func clip(_ colour: RGBAColor, seconds: Int) throws -> URL {
    let url = try StillClip.make(colour, seconds: seconds)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }

  private struct Rig {
    let view: PlayerView
    let controller: PlaybackController
    let xWindow: String
    let server: HTTPTestServer
    let opened: Locked<[URL]>

    var scene: ControlsScene? { view.controlsView.currentScene }

    func close() {
      view.close()
      controller.close()
      server.stop()
    }
  }

  /// A player view whose controller plays a pre-roll ad (skippable from 5 s, with a page
  /// and click tracking on a local server) before the content.
  private func start() throws -> Rig {
    let server = HTTPTestServer()
    try server.start()
    server.setFile(Data("ok".utf8), at: "/click")
    let ad = LinearAd(
      id: "a1", duration: MediaTime(seconds: 20, preferredTimescale: 1000),
      skipOffset: .time(MediaTime(seconds: 5, preferredTimescale: 1000)),
      mediaFiles: [
        VASTMediaFile(url: try clip(adColour, seconds: 20).absoluteString, type: "video/mp4")
      ],
      clickThroughURL: "https://advertiser.example/a1",
      clickTrackingURLs: [server.url("/click").absoluteString])
    let opened = Locked<[URL]>([])
    let provider = PlayerSDKManager.shared.createAdsSessionProvider(
      upstream: nil,
      configuration: AdsConfiguration(
        schedule: .breaks([AdBreak(id: "pre", offset: .start, source: .ads([ad]))]),
        clickThroughHandler: { url in opened.withLock { $0.append(url) } }))
    var configuration = PlayerConfiguration()
    configuration.isAudioDisabled = true
    let controller = PlayerSDKManager.shared.createPlaybackController(
      sessionProvider: provider, viewStrategy: nil, playerConfiguration: configuration,
      callbackQueue: DispatchQueue(label: "ad-window-test"))
    let title = "playhead-ads-\(UUID().uuidString.prefix(8))"
    let view = try PlayerView(
      playbackController: controller,
      windowOptions: WindowOptions(title: title, size: size, background: .black),
      localization: Localization(preferredLanguages: ["en"]))
    controller.autoPlay = true
    controller.setVideos([
      Video(sources: [Source(url: try clip(contentColour, seconds: 30), deliveryMethod: .mp4)])
    ])
    let xWindow = try XDoTool.window(titled: title)
    return Rig(
      view: view, controller: controller, xWindow: xWindow, server: server, opened: opened)
  }

  /// Waits for the ad controls to show `predicate`, then returns them.
  @discardableResult
  private func adControls(
    _ rig: Rig, _ description: String, timeoutMs: Int = 30_000,
    _ predicate: (ControlsScene.AdControls) -> Bool = { _ in true }
  ) throws -> ControlsScene.AdControls {
    var found: ControlsScene.AdControls?
    poll(description, timeoutMs: timeoutMs) {
      found = rig.scene?.ad
      return found.map(predicate) ?? false
    }
    return try XCTUnwrap(found)
  }

  /// How far the window's pixel is from `colour` (sum over the channels).
  private func distance(_ rig: Rig, x: Double, y: Double, from colour: RGBAColor) -> Int {
    guard let shown = rig.view.window.snapshot() else { return -1 }
    let p = shown.pixel(x: Int(x), y: Int(y))
    return abs(Int(p.r) - Int(colour.r)) + abs(Int(p.g) - Int(colour.g))
      + abs(Int(p.b) - Int(colour.b))
  }

  private func click(_ rig: Rig, _ box: ControlsScene.AdControls.Box) throws {
    try XDoTool.run([
      "mousemove", "--window", rig.xWindow, "\(Int(box.x + box.width / 2))",
      "\(Int(box.y + box.height / 2))",
    ])
    try XDoTool.run(["click", "1"])
  }

  func testTheBadgeCountsDown_theSkipControlWaitsForItsOffset_andSkipsWhenClicked() throws {
    let rig = try start()
    defer { rig.close() }
    let early = try adControls(rig, "the ad badge") { $0.button(.skip) != nil }
    XCTAssertTrue(early.badgeText.hasPrefix("Ad 1 of 1 · 0:"), early.badgeText)
    let waiting = try XCTUnwrap(early.button(.skip))
    XCTAssertFalse(waiting.isEnabled, "the first drawing comes well before the 5 s offset")
    XCTAssertTrue(waiting.label.hasPrefix("Skip in "), waiting.label)
    // A click before the offset does nothing: the ad keeps playing.
    try click(rig, waiting.box)
    XCTAssertNotNil(rig.controller.adPlaybackStatus)
    // The badge is drawn over the ad's picture (a dark box, white text).
    poll("the badge drawn in the window") {
      self.distance(rig, x: early.badge.x + 4, y: early.badge.y + 4, from: adColour) > 60
    }
    // The countdown moves with the ad's time.
    let first = early.badgeText
    try adControls(rig, "the countdown moving") { $0.badgeText != first }
    let ready = try adControls(rig, "the skip control enabled") {
      $0.button(.skip)?.isEnabled == true
    }
    XCTAssertEqual(ready.button(.skip)?.label, "Skip ad")
    try click(rig, try XCTUnwrap(ready.button(.skip)).box)
    poll("the content after the skip") { rig.controller.adPlaybackStatus == nil }
    poll("the ad controls gone") { rig.scene != nil && rig.scene?.ad == nil }
    poll("the content's picture") {
      self.distance(rig, x: Double(self.size.width / 2), y: 60, from: self.contentColour) < 40
    }
    XCTAssertEqual(rig.controller.adSummary?.adsSkipped, 1)
  }

  func testLearnMoreCallsTheHandlerAndSendsClickTracking_andTabReturnSkip() throws {
    let rig = try start()
    defer { rig.close() }
    let shown = try adControls(rig, "Learn more") { $0.button(.learnMore) != nil }
    let learnMore = try XCTUnwrap(shown.button(.learnMore))
    XCTAssertEqual(learnMore.label, "Learn more")
    try click(rig, learnMore.box)
    poll("the handler called") { !rig.opened.value.isEmpty }
    XCTAssertEqual(rig.opened.value, [URL(string: "https://advertiser.example/a1")!])
    poll("the click tracking sent") { rig.server.requestCount(for: "/click") == 1 }
    // Leaving for the page paused the ad; play resumes it.
    poll("the ad paused") { rig.controller.adPlaybackStatus?.isPaused == true }
    rig.controller.play()
    try adControls(rig, "the skip control enabled") { $0.button(.skip)?.isEnabled == true }
    // The keyboard: Tab focuses the skip control (drawn with a ring), Return presses it.
    try XDoTool.focus(rig.xWindow)
    try XDoTool.run(["key", "--window", rig.xWindow, "Tab"])
    try adControls(rig, "the skip control focused") { $0.button(.skip)?.isFocused == true }
    try XDoTool.run(["key", "--window", rig.xWindow, "Return"])
    poll("the content after the skip") { rig.controller.adPlaybackStatus == nil }
    XCTAssertEqual(rig.controller.adSummary?.adsSkipped, 1)
    XCTAssertEqual(rig.server.requestCount(for: "/click"), 1, "click tracking once")
  }
}
