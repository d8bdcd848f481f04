import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Input to a real window through the X server (xdotool's XTEST events and a window
/// manager's close request), reported as `WindowEvent`s.
final class WindowEventTests: WindowTestCase {
  func testSpace_isReported() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    let window = try XDoTool.window(titled: sink.options.title)
    try XDoTool.focus(window)
    try XDoTool.run(["key", "space"])
    events.wait(for: "the space key") { $0.contains(.key(.space)) }
  }

  func testThePlayersKeys_areReportedInOrder() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    let window = try XDoTool.window(titled: sink.options.title)
    try XDoTool.focus(window)
    let keys = [
      "space", "p", "Left", "Right", "Up", "Down", "f", "m", "9", "0", "j", "numbersign", "l",
      "L", "period", "q", "Escape", "i", "x", "Return", "Tab", "shift+Tab", "ctrl+w",
    ]
    try XDoTool.run(["key", "--delay", "20"] + keys)
    let expected: [Key] = [
      .space, .p, .left, .right, .up, .down, .f, .m, .nine, .zero, .j, .hash, .l, .capitalL,
      .period, .q, .escape, .i, .other("x"), .enter, .tab, .backTab, .other("ctrl+w"),
    ]
    events.wait(for: "all \(expected.count) keys") { $0.count { isKey($0) } >= expected.count }
    XCTAssertEqual(events.all.compactMap(key), expected)
  }

  func testClicks_andADoubleClick_areReportedWhereTheyHappen() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    let window = try XDoTool.window(titled: sink.options.title)
    try XDoTool.run(["mousemove", "--window", window, "--sync", "100", "50"])
    try XDoTool.run(["click", "1"])
    events.wait(for: "a click") { $0.contains(.click(x: 100, y: 50)) }
    try XDoTool.run(["mousemove", "--window", window, "--sync", "300", "200"])
    try XDoTool.run(["click", "--repeat", "2", "--delay", "60", "1"])
    events.wait(for: "a double click") { $0.contains(.doubleClick(x: 300, y: 200)) }
    let clicks = events.all.filter {
      if case .click = $0 { return true }
      if case .doubleClick = $0 { return true }
      return false
    }
    XCTAssertEqual(
      clicks, [.click(x: 100, y: 50), .click(x: 300, y: 200), .doubleClick(x: 300, y: 200)])
  }

  func testAWindowManagersCloseRequest_isReported_andTheWindowStaysOpen() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    let window = try XDoTool.window(titled: sink.options.title)
    try X11DeleteRequest.send(to: window, display: display.name)
    events.wait(for: "the close request") { $0.contains(.closeRequested) }
    XCTAssertFalse(sink.isClosed)
    XCTAssertNotNil(sink.snapshot(), "the window stays until close()")
  }

  func testQ_isAKeyNotAClose() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    try XDoTool.focus(try XDoTool.window(titled: sink.options.title))
    try XDoTool.run(["key", "q"])
    events.wait(for: "q") { $0.contains(.key(.q)) }
    XCTAssertFalse(events.all.contains(.closeRequested))
  }

  func testResizingTheWindow_isReported_andThePictureFollows() throws {
    let events = WindowEventLog()
    let sink = try openWindow(gravity: .fit, events: events)
    defer { sink.close() }
    try sink.present(try VideoFrame.solid(width: 320, height: 240, color: .red), itemTime: .zero)
    let window = try XDoTool.window(titled: sink.options.title)
    try XDoTool.run(["windowsize", "--sync", window, "400", "600"])
    events.wait(for: "the resize") { $0.contains(.resized(width: 400, height: 600)) }
    let image = sink.snapshot()
    XCTAssertEqual(image?.width, 400)
    XCTAssertEqual(image?.height, 600)
    // 320x240 fitted into 400x600: 400x300, bars of 150 rows above and below.
    assertPixel(image, x: 200, y: 300, is: .red)
    assertPixel(image, x: 200, y: 100, is: .blue)
    assertPixel(image, x: 200, y: 500, is: .blue)
  }

  func testFullscreen_coversTheScreen_andBack() throws {
    let events = WindowEventLog()
    let sink = try openWindow(events: events)
    defer { sink.close() }
    sink.setFullscreen(true)
    poll("fullscreen") { sink.isFullscreen }
    events.wait(for: "the fullscreen size") { $0.contains(.resized(width: 1280, height: 720)) }
    XCTAssertEqual(sink.windowSize, WindowSize(width: 1280, height: 720))
    sink.setFullscreen(false)
    poll("windowed again") { !sink.isFullscreen }
    events.wait(for: "the windowed size") { events in
      // The pointer under the window reports moves as the window changes size.
      events.last { if case .resized = $0 { return true } else { return false } }
        == .resized(width: 640, height: 240)
    }
  }

  private func isKey(_ event: WindowEvent) -> Bool { key(event) != nil }

  private func key(_ event: WindowEvent) -> Key? {
    if case .key(let key) = event { return key }
    return nil
  }
}
