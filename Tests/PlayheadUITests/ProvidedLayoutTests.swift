import PlayheadUI
import XCTest

/// The provided layouts, their compact switch and automatic selection.
final class ProvidedLayoutTests: XCTestCase {
  func testAutomaticSelectionCoversEveryMediaAndStreamKind() {
    let table: [(audioOnly: Bool, stream: ControlLayout.StreamKind, kind: ControlLayout.Kind)] = [
      (false, .onDemand, .vod), (false, .live, .live), (false, .liveDVR, .liveDVR),
      (true, .onDemand, .audioOnlyVOD), (true, .live, .liveAudio),
      (true, .liveDVR, .liveDVRAudio),
    ]
    for entry in table {
      XCTAssertEqual(
        ControlLayout.Kind.automatic(isAudioOnly: entry.audioOnly, streamKind: entry.stream),
        entry.kind, "\(entry)")
    }
  }

  func testTheVODRowStartsWithPlayPauseAtTheLeftEdge() {
    let frames = ControlLayout.basicVOD().frames(forWidth: 1280)
    XCTAssertEqual(frames.first?.tag, .playback)
    XCTAssertEqual(frames.first?.x, 0)
    XCTAssertEqual(frames.first?.height, 40)
    let slider = frames.first { $0.tag == .progressSlider }
    XCTAssertNotNil(slider)
    // The slider takes what the fixed controls leave: 1280 − 324 fixed − 8 gaps × 8.
    XCTAssertEqual(slider?.width ?? 0, 1280 - 324 - 64, accuracy: 1e-9)
    XCTAssertFalse(frames.contains { $0.tag == .externalRoute }, "removed on every layout")
  }

  func testCompactRowsBelowTheMaximumWidth() {
    let layout = ControlLayout.basicVOD()
    XCTAssertFalse(layout.usesCompactRows(forWidth: 500))
    XCTAssertTrue(layout.usesCompactRows(forWidth: 499.5))
    XCTAssertEqual(layout.controlAreaHeight(forWidth: 640), 40)
    XCTAssertEqual(layout.controlAreaHeight(forWidth: 320), 80)
    let compact = layout.frames(forWidth: 320)
    XCTAssertEqual(
      compact.filter { $0.row == 0 }.map(\.tag), [.currentTime, .progressSlider, .duration])
    XCTAssertEqual(compact.filter { $0.row == 1 }.first?.tag, .playback)
    XCTAssertEqual(compact.filter { $0.row == 1 }.first?.y, 40)
  }

  func testScaleMultipliesWidthsHeightAndSpacingAndTheCompactThreshold() {
    let layout = ControlLayout.basicVOD()
    let frames = layout.frames(forWidth: 2560, scale: 2)
    XCTAssertEqual(frames.first?.width, 80)
    XCTAssertEqual(frames.first?.height, 80)
    XCTAssertEqual(frames.dropFirst().first?.x, 96, "80 wide plus 16 of spacing")
    XCTAssertTrue(layout.usesCompactRows(forWidth: 900, scale: 2), "900 < 500 × 2")
    XCTAssertEqual(layout.frames(forWidth: 640, scale: .nan), layout.frames(forWidth: 640))
  }

  func testLiveLayoutsHaveNoSliderAndDVRLayoutsHaveOne() {
    for kind in ControlLayout.Kind.allCases {
      let tags = ControlLayout.provided(kind).tags
      let hasSlider = tags.contains(.progressSlider)
      XCTAssertEqual(hasSlider, kind != .live && kind != .liveAudio, "\(kind)")
      XCTAssertEqual(
        tags.contains(.liveIndicator), kind != .vod && kind != .audioOnlyVOD, "\(kind)")
      XCTAssertEqual(tags.contains(.screenMode), !kind.isAudioOnly, "\(kind)")
      XCTAssertEqual(ControlLayout.provided(kind).view(id: "playback")?.tag, .playback)
    }
  }

  func testSetRemovedActsOnStandardAndCompactRowsAlike() {
    var layout = ControlLayout.basicVOD()
    layout.setRemoved(true, tag: .jumpBack)
    XCTAssertFalse(layout.frames(forWidth: 1280).contains { $0.tag == .jumpBack })
    XCTAssertFalse(layout.frames(forWidth: 320).contains { $0.tag == .jumpBack })
    layout.setRemoved(false, id: "jumpBack")
    XCTAssertTrue(layout.frames(forWidth: 1280).contains { $0.tag == .jumpBack })
    XCTAssertTrue(layout.frames(forWidth: 320).contains { $0.tag == .jumpBack })
  }

  func testACustomLayoutAsInTheSeed() {
    let logo = ControlLayoutView(id: "logo", tag: .empty, width: 88, elasticity: 1)
    let layout = ControlLayout(
      standardRows: [
        [
          .init(tag: .playback), .init(tag: .progressSlider, elasticity: 1),
          .init(id: "spacer1", tag: .empty, width: 1, elasticity: 1), logo,
          .init(id: "spacer2", tag: .empty, width: 1, elasticity: 1),
        ]
      ], compactRows: [], controlBarHeight: 50, horizontalItemSpacing: 0)
    let frames = layout.frames(forWidth: 730)
    // 730 − 40 − 100 − 1 − 88 − 1 = 500 spare, 125 to each of the four elastic views.
    XCTAssertEqual(frames.map(\.width), [40, 225, 126, 213, 126])
    XCTAssertEqual(frames.map(\.height), [50, 50, 50, 50, 50])
    XCTAssertEqual(layout.frames(forWidth: 300), [], "no compact rows: nothing below 500")
  }
}
