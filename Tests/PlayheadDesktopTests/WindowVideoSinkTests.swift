import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Pictures in a real window on a private X server, read back from the renderer.
final class WindowVideoSinkTests: WindowTestCase {
  func testFit_widerWindow_showsThePictureBetweenBackgroundBars() throws {
    let sink = try openWindow(gravity: .fit)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let image = sink.snapshot()
    XCTAssertEqual(image?.width, 640)
    XCTAssertEqual(image?.height, 240)
    // 320x240 fits 640x240 unscaled, centred: bars 160 pixels wide on either side.
    assertPixel(image, x: 320, y: 120, is: .red)
    assertPixel(image, x: 165, y: 5, is: .red)
    assertPixel(image, x: 474, y: 234, is: .red)
    for x in [0, 80, 155, 485, 560, 639] {
      assertPixel(image, x: x, y: 120, is: .blue, "(a bar)")
    }
    XCTAssertEqual(sink.presentedFrameCount, 1)
    XCTAssertEqual(sink.drawnFrameCount, 1)
    XCTAssertFalse(sink.rendererName?.isEmpty ?? true)
  }

  func testFit_tallerWindow_letterboxes() throws {
    let sink = try openWindow(size: WindowSize(width: 320, height: 480), gravity: .fit)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let image = sink.snapshot()
    // 320x240 in 320x480: bars of 120 rows above and below.
    assertPixel(image, x: 160, y: 240, is: .red)
    for y in [0, 100, 380, 479] { assertPixel(image, x: 160, y: y, is: .blue, "(a bar)") }
  }

  func testFill_coversTheWindow() throws {
    let sink = try openWindow(gravity: .fill)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let image = sink.snapshot()
    for x in [0, 80, 320, 560, 639] {
      for y in [0, 120, 239] { assertPixel(image, x: x, y: y, is: .red, "(fill has no bars)") }
    }
  }

  func testStretch_coversTheWindow() throws {
    let sink = try openWindow(gravity: .stretch)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let image = sink.snapshot()
    for x in [0, 80, 320, 560, 639] {
      for y in [0, 120, 239] { assertPixel(image, x: x, y: y, is: .red, "(stretch has no bars)") }
    }
  }

  func testFill_cropsTheCentre_stretchSquashes() throws {
    // 320x240, left half red, right half green, in 640x240: fill doubles it and shows the
    // centre 320x120 of it, stretch doubles only its width; both split the window in the
    // middle, red on the left and green on the right, with no bars.
    let frame = try halves(left: .red, right: .green)
    for gravity in [VideoGravity.fill, .stretch] {
      let sink = try openWindow(gravity: gravity)
      try sink.present(frame, itemTime: .zero)
      let image = sink.snapshot()
      sink.close()
      assertPixel(image, x: 5, y: 120, is: .red, "\(gravity)")
      assertPixel(image, x: 310, y: 120, is: .red, "\(gravity)")
      assertPixel(image, x: 330, y: 120, is: .green, "\(gravity)")
      assertPixel(image, x: 634, y: 120, is: .green, "\(gravity)")
    }
  }

  func testClear_showsTheBackgroundOnly() throws {
    let sink = try openWindow()
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    assertPixel(sink.snapshot(), x: 320, y: 120, is: .red)
    sink.clear()
    let image = sink.snapshot()
    for x in [0, 160, 320, 480, 639] { assertPixel(image, x: x, y: 120, is: .blue) }
    XCTAssertNil(sink.videoSnapshot(), "nothing shown after clear")
  }

  func testBeforeAnyFrame_theWindowShowsTheBackground() throws {
    let sink = try openWindow(background: RGBAColor(r: 30, g: 200, b: 90))
    defer { sink.close() }
    let image = sink.snapshot()
    XCTAssertEqual(image?.width, 640)
    for x in [0, 320, 639] {
      assertPixel(image, x: x, y: 120, is: RGBAColor(r: 30, g: 200, b: 90), tolerance: 0)
    }
    XCTAssertNil(sink.videoSnapshot())
  }

  func testNV12AndRGBFrames_showTheirColours() throws {
    let sink = try openWindow(gravity: .stretch)
    defer { sink.close() }
    let nv12 = try VideoFrame.solid(width: 320, height: 240, color: .green, layout: .nv12)
    XCTAssertEqual(nv12.planeLayout, .nv12)
    try sink.present(nv12, itemTime: .zero)
    assertPixel(sink.snapshot(), x: 320, y: 120, is: .green)
    let rgba = try VideoFrame.solid(width: 320, height: 240, color: .white, layout: .other)
    XCTAssertEqual(rgba.planeLayout, .other)
    try sink.present(rgba, itemTime: .zero)
    assertPixel(sink.snapshot(), x: 320, y: 120, is: .white)
    XCTAssertEqual(sink.presentedFrameCount, 2)
  }

  func testVideoSnapshot_isThePictureAtItsOwnSize() throws {
    let sink = try openWindow(gravity: .fill)
    defer { sink.close() }
    try sink.present(try halves(left: .red, right: .green), itemTime: .zero)
    let image = try XCTUnwrap(sink.videoSnapshot())
    XCTAssertEqual(image.width, 320)
    XCTAssertEqual(image.height, 240)
    assertPixel(image, x: 10, y: 10, is: .red)
    assertPixel(image, x: 310, y: 230, is: .green)
  }

  func testAlphaLeft_compositesTheColourHalfOverTheBackground() throws {
    // alpha-left.mp4: a white disc mask on black on the left, solid red on the right.
    let frame = try firstFrame(of: "alpha-left.mp4")
    let sink = try openWindow(
      size: WindowSize(width: 200, height: 200), gravity: .fit, background: .green,
      alphaMode: .alphaLeft)
    defer { sink.close() }
    try sink.present(frame, itemTime: .zero)
    let image = sink.snapshot()
    assertPixel(image, x: 100, y: 100, is: .red, tolerance: 24, "(inside the disc: opaque)")
    for (x, y) in [(3, 3), (196, 3), (3, 196), (196, 196)] {
      assertPixel(image, x: x, y: y, is: .green, tolerance: 24, "(outside the disc: clear)")
    }
    let video = try XCTUnwrap(sink.videoSnapshot())
    XCTAssertEqual(video.width, 64, "the colour half")
    XCTAssertEqual(video.height, 64)
    assertPixel(video, x: 32, y: 32, is: .red, tolerance: 24)
    assertPixel(video, x: 1, y: 1, is: .green, tolerance: 24)
  }

  func testNoSize_theWindowTakesTheVideosSize() throws {
    let events = WindowEventLog()
    let sink = try openWindow(size: nil, events: events)
    defer { sink.close() }
    XCTAssertEqual(sink.windowSize, WindowRenderer.placeholderSize)
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    events.wait(for: "the resize to the video") { $0.contains(.resized(width: 320, height: 240)) }
    XCTAssertEqual(sink.windowSize, WindowSize(width: 320, height: 240))
    let image = sink.snapshot()
    XCTAssertEqual(image?.width, 320)
    assertPixel(image, x: 2, y: 2, is: .red)
  }

  func testClose_endsVideo_andPresentingAfterwardsDoesNothing() throws {
    let sink = try openWindow()
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .video), 1)
    sink.close()
    sink.close()
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .video), 0, "the last window quits video")
    XCTAssertTrue(sink.isClosed)
    try sink.present(try VideoFrame.solid(width: 32, height: 32, color: .red), itemTime: .zero)
    XCTAssertEqual(sink.presentedFrameCount, 0)
    XCTAssertNil(sink.snapshot())
    // A new window starts video again.
    let again = try openWindow()
    defer { again.close() }
    try again.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    assertPixel(again.snapshot(), x: 320, y: 120, is: .red)
  }

  func testTwoWindows_showTheirOwnPictures() throws {
    let first = try openWindow(gravity: .stretch)
    defer { first.close() }
    let second = try openWindow(gravity: .stretch, background: .green)
    defer { second.close() }
    try first.present(try VideoFrame.solid(width: 64, height: 64, color: .red), itemTime: .zero)
    assertPixel(first.snapshot(), x: 320, y: 120, is: .red)
    assertPixel(second.snapshot(), x: 320, y: 120, is: .green, tolerance: 0)
    first.close()
    assertPixel(second.snapshot(), x: 320, y: 120, is: .green, tolerance: 0)
  }

  /// A 320x240 yuv420p frame whose left half is `left` and right half `right`.
  private func halves(left: RGBAColor, right: RGBAColor) throws -> VideoFrame {
    var image = RGBAImage(width: 320, height: 240, color: left)
    let fill = RGBAImage(width: 160, height: 240, color: right)
    for y in 0..<240 {
      let row = y * 320 * 4 + 160 * 4
      image.pixels.replaceSubrange(row..<row + 640, with: fill.pixels[(y * 640)..<(y * 640 + 640)])
    }
    return try VideoFrame.from(image)
  }

  /// The first decoded video frame of fixture `name`.
  private func firstFrame(of name: String) throws -> VideoFrame {
    let url = try Fixtures.url(name)
    let demuxer = try Demuxer(source: MemoryDataSource(data: try Data(contentsOf: url)), url: url)
    let stream = try XCTUnwrap(demuxer.bestStream(of: .video))
    let decoder = try demuxer.makeVideoDecoder(streamIndex: stream.index)
    while let packet = try demuxer.readPacket() {
      guard packet.streamIndex == stream.index else { continue }
      try decoder.send(packet)
      if let frame = try decoder.receiveFrame() { return frame }
    }
    try decoder.send(nil)
    return try XCTUnwrap(try decoder.receiveFrame())
  }
}
