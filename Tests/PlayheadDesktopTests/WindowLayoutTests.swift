import XCTest

@testable import PlayheadDesktop

final class WindowLayoutTests: XCTestCase {
  func testFit_widerWindow_pillarboxes() {
    let layout = WindowLayout(
      textureWidth: 320, textureHeight: 240, pixelAspect: 1, outputWidth: 640,
      outputHeight: 240, gravity: .fit)
    XCTAssertEqual(layout.source, PixelRect(x: 0, y: 0, width: 320, height: 240))
    XCTAssertEqual(layout.destination, PixelRect(x: 160, y: 0, width: 320, height: 240))
  }

  func testFit_tallerWindow_letterboxes_scaled() {
    let layout = WindowLayout(
      textureWidth: 1920, textureHeight: 1080, pixelAspect: 1, outputWidth: 800,
      outputHeight: 800, gravity: .fit)
    XCTAssertEqual(layout.destination, PixelRect(x: 0, y: 175, width: 800, height: 450))
  }

  func testFit_nonSquarePixels_widenThePicture() {
    // 720x576 with 16:15 pixels displays as 768x576: fitted to 1024x576 it is 768 wide.
    let layout = WindowLayout(
      textureWidth: 720, textureHeight: 576, pixelAspect: 16.0 / 15.0, outputWidth: 1024,
      outputHeight: 576, gravity: .fit)
    XCTAssertEqual(layout.destination, PixelRect(x: 128, y: 0, width: 768, height: 576))
  }

  func testFill_cropsTheCentre_coversTheWindow() {
    let layout = WindowLayout(
      textureWidth: 320, textureHeight: 240, pixelAspect: 1, outputWidth: 640,
      outputHeight: 240, gravity: .fill)
    XCTAssertEqual(layout.source, PixelRect(x: 0, y: 60, width: 320, height: 120))
    XCTAssertEqual(layout.destination, PixelRect(x: 0, y: 0, width: 640, height: 240))
  }

  func testFill_tallerWindow_cropsTheSides() {
    let layout = WindowLayout(
      textureWidth: 320, textureHeight: 240, pixelAspect: 1, outputWidth: 240,
      outputHeight: 240, gravity: .fill)
    XCTAssertEqual(layout.source, PixelRect(x: 40, y: 0, width: 240, height: 240))
  }

  func testStretch_usesAllOfBoth() {
    let layout = WindowLayout(
      textureWidth: 320, textureHeight: 240, pixelAspect: 1, outputWidth: 100,
      outputHeight: 700, gravity: .stretch)
    XCTAssertEqual(layout.source, PixelRect(x: 0, y: 0, width: 320, height: 240))
    XCTAssertEqual(layout.destination, PixelRect(x: 0, y: 0, width: 100, height: 700))
  }

  func testDegenerateSizes_areTakenAsOnePixel() {
    let layout = WindowLayout(
      textureWidth: 0, textureHeight: -3, pixelAspect: .nan, outputWidth: 0, outputHeight: 0,
      gravity: .fit)
    XCTAssertEqual(layout.destination, PixelRect(x: 0, y: 0, width: 1, height: 1))
  }
}

final class KeyTests: XCTestCase {
  func testTypedCharacters_mapToThePlayersKeys() {
    let cases: [(String, Key)] = [
      (" ", .space), ("p", .p), ("f", .f), ("m", .m), ("9", .nine), ("0", .zero), ("j", .j),
      ("#", .hash), ("l", .l), ("L", .capitalL), (".", .period), ("q", .q), ("i", .i),
      ("P", .other("P")), ("é", .other("é")), ("ab", .other("ab")),
    ]
    for (text, key) in cases { XCTAssertEqual(Key(typed: text), key, text) }
  }
}
