import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadSDK
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// The shutter over a window's picture (seed 003's opaque black shutter, SPEC K2): it fades
/// over the fade time, covers the picture and not the bars, and opens again; the SDK's
/// `PlaybackView` fades a window instead of clearing it.
final class WindowShutterTests: WindowTestCase {
  private func redWindow() throws -> WindowVideoSink {
    let window = try openWindow(size: WindowSize(width: 320, height: 240), background: .blue)
    try window.present(
      try VideoFrame.solid(width: 160, height: 240, color: .red), itemTime: .zero)
    poll("the red picture drawn") { window.snapshot()?.pixel(x: 160, y: 120).r ?? 0 > 200 }
    return window
  }

  func testTheShutterFadesThePictureToBlackAndBack() throws {
    let window = try redWindow()
    defer { window.close() }
    window.setShutter(closed: true, fadeSeconds: 2)
    poll("part way through the fade") {
      let opacity = window.shutterOpacity
      return opacity > 0.1 && opacity < 0.9
    }
    poll("closed", timeoutMs: 15_000) { window.shutterOpacity == 1 }
    poll("the picture black") {
      let pixel = window.snapshot()?.pixel(x: 160, y: 120)
      return (pixel?.r ?? 255) < 10 && (pixel?.g ?? 255) < 10 && (pixel?.b ?? 255) < 10
    }
    assertPixel(window.snapshot(), x: 20, y: 120, is: .blue, "(the bars stay)")
    window.setShutter(closed: false, fadeSeconds: 0)
    XCTAssertEqual(window.shutterOpacity, 0)
    poll("the picture back") { window.snapshot()?.pixel(x: 160, y: 120).r ?? 0 > 200 }
  }

  func testAReversedFadeTurnsAroundFromWhereItIs() throws {
    let window = try redWindow()
    defer { window.close() }
    window.setShutter(closed: true, fadeSeconds: 4)
    var reached = 0.0
    poll("a quarter closed") {
      reached = window.shutterOpacity
      return reached > 0.2
    }
    window.setShutter(closed: false, fadeSeconds: 4)
    let turned = window.shutterOpacity
    XCTAssertGreaterThan(turned, 0.15, "opening starts from where the closing was")
    XCTAssertLessThan(turned, reached + 0.1)
    poll("open again", timeoutMs: 15_000) { window.shutterOpacity == 0 }
  }

  func testThePlaybackViewsShutterFadesTheWindow() throws {
    let window = try redWindow()
    defer { window.close() }
    let view = PlaybackView(outputs: [window])
    view.shutterFadeTime = 0.5
    view.shutter = true
    poll("the window's shutter closed") { window.shutterOpacity == 1 }
    XCTAssertNotNil(window.snapshot(), "the window was faded, not cleared")
    view.shutter = false
    poll("the window's shutter open") { window.shutterOpacity == 0 }
    poll("the picture back") { window.snapshot()?.pixel(x: 160, y: 120).r ?? 0 > 200 }
  }
}
