import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Overlay images (subtitles, the statistics page) drawn over the picture and the window.
final class WindowOverlayTests: WindowTestCase {
  func testPictureOverlay_coversThePictureOnly_andWindowOverlayTheTopLeft() throws {
    let sink = try openWindow(gravity: .fit)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let rect = try XCTUnwrap(sink.pictureRect)
    XCTAssertEqual(rect.x, 160)
    XCTAssertEqual(rect.width, 320)
    XCTAssertEqual(rect.height, 240)
    // A picture-sized overlay: its lower half green, the upper half transparent.
    var subtitles = RGBAImage(
      width: rect.width, height: rect.height, color: RGBAColor(r: 0, g: 0, b: 0, a: 0))
    subtitles.paste(
      RGBAImage(width: rect.width, height: rect.height / 2, color: .green), x: 0, y: rect.height / 2
    )
    sink.setOverlay(subtitles, layer: .picture)
    var image = sink.snapshot()
    assertPixel(image, x: 320, y: 60, is: .red, "(the picture through the transparent half)")
    assertPixel(image, x: 320, y: 200, is: .green, "(the overlay over the picture)")
    assertPixel(image, x: 80, y: 200, is: .blue, "(not over the bars)")

    sink.setOverlay(RGBAImage(width: 200, height: 50, color: .white), layer: .window)
    image = sink.snapshot()
    assertPixel(image, x: 50, y: 25, is: .white, "(the window overlay over the bar)")
    assertPixel(image, x: 180, y: 25, is: .white, "(and over the picture)")
    assertPixel(image, x: 220, y: 25, is: .red, "(not past its width)")
    assertPixel(image, x: 320, y: 60, is: .red)

    sink.setOverlay(nil, layer: .picture)
    sink.setOverlay(nil, layer: .window)
    image = sink.snapshot()
    assertPixel(image, x: 320, y: 200, is: .red, "(removed)")
    assertPixel(image, x: 50, y: 25, is: .blue, "(removed)")
    let video = sink.videoSnapshot()
    assertPixel(video, x: 160, y: 200, is: .red, "(the video snapshot has no overlay)")
  }

  func testPictureOverlay_followsThePictureWhenTheWindowResizes() throws {
    let events = WindowEventLog()
    let sink = try openWindow(
      size: WindowSize(width: 640, height: 240), gravity: .fit, events: events)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    sink.setOverlay(RGBAImage(width: 4, height: 4, color: .green), layer: .picture)
    let window = try XDoTool.window(titled: sink.options.title)
    try XDoTool.run(["windowsize", "--sync", window, "400", "600"])
    events.wait(for: "the resize") { $0.contains(.resized(width: 400, height: 600)) }
    // 320x240 fitted into 400x600: 400x300 between bars of 150 rows.
    let rect = try XCTUnwrap(sink.pictureRect)
    XCTAssertEqual(rect.y, 150)
    XCTAssertEqual(rect.width, 400)
    XCTAssertEqual(rect.height, 300)
    let image = sink.snapshot()
    assertPixel(image, x: 200, y: 155, is: .green, "(scaled to the new rectangle)")
    assertPixel(image, x: 200, y: 445, is: .green)
    assertPixel(image, x: 200, y: 100, is: .blue, "(not over the bars)")
  }
}
