import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// The window on Wayland: SDL's Wayland driver under a private Weston compositor
/// (`WestonDisplay`, its output a window on a private Xvfb, its seat's input the X
/// server's, driven with xdotool). The same picture, gravity and input as on X11.
final class WaylandWindowTests: XCTestCase {
  private var display: XvfbDisplay!
  private var weston: WestonDisplay!
  private var previousDriver: String?

  override func setUpWithError() throws {
    try super.setUpWithError()
    previousDriver = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"]
    // Named, so that SDL cannot fall back to the X server the compositor runs on.
    setenv("SDL_VIDEODRIVER", "wayland", 1)
    display = try XvfbDisplay()
    weston = try WestonDisplay(on: display)
  }

  override func tearDown() {
    XCTAssertEqual(
      SDLRuntime.shared.userCount(of: .video), 0, "every window must be closed by the test")
    weston?.stop()
    display?.stop()
    if let previousDriver {
      setenv("SDL_VIDEODRIVER", previousDriver, 1)
    } else {
      unsetenv("SDL_VIDEODRIVER")
    }
    super.tearDown()
  }

  private func openWindow(gravity: VideoGravity, events: WindowEventLog? = nil) throws
    -> WindowVideoSink
  {
    let options = WindowOptions(
      title: "playhead-wayland-\(UUID().uuidString.prefix(8))",
      size: WindowSize(width: 640, height: 360), gravity: gravity, background: .blue)
    return try WindowVideoSink(options: options, onEvent: events.map { log in log.record })
  }

  /// 320x240, left half red, right half green.
  private func halves() throws -> VideoFrame {
    var image = RGBAImage(width: 320, height: 240, color: .red)
    for y in 0..<240 {
      for x in 160..<320 {
        let offset = (y * 320 + x) * 4
        image.pixels.replaceSubrange(offset..<offset + 4, with: [0, 255, 0, 255])
      }
    }
    return try VideoFrame.from(image)
  }

  func testTheWindowIsOnWayland_andShowsThePicture_underEachGravity() throws {
    let frame = try halves()
    for gravity in [VideoGravity.fit, .fill, .stretch] {
      let sink = try openWindow(gravity: gravity)
      XCTAssertEqual(sink.videoDriverName, "wayland")
      try sink.present(frame, itemTime: .zero)
      let image = try XCTUnwrap(sink.snapshot(), "\(gravity)")
      sink.close()
      // The kiosk shell gives the window the whole output; the picture follows the gravity.
      XCTAssertEqual(image.width, 1280, "\(gravity)")
      XCTAssertEqual(image.height, 720, "\(gravity)")
      let middle = image.height / 2
      switch gravity {
      case .fit:
        // 4:3 in 16:9: 960x720 centred, blue bars 160 wide.
        assertPixel(image, x: 40, y: middle, is: .blue, "fit: a bar")
        assertPixel(image, x: 1240, y: middle, is: .blue, "fit: a bar")
        assertPixel(image, x: 200, y: middle, is: .red, "fit")
        assertPixel(image, x: 1080, y: middle, is: .green, "fit")
      case .fill, .stretch:
        assertPixel(image, x: 5, y: 5, is: .red, "\(gravity): no bars")
        assertPixel(image, x: 1274, y: 714, is: .green, "\(gravity): no bars")
      default:
        break
      }
    }
  }

  func testKeysAndClicks_reachTheWindowThroughTheCompositor() throws {
    let events = WindowEventLog()
    let sink = try openWindow(gravity: .fit, events: events)
    defer { sink.close() }
    try sink.present(try halves(), itemTime: .zero)
    XCTAssertEqual(sink.videoDriverName, "wayland")
    // The compositor hands the window its keyboard once it has mapped the window's
    // surface; keys typed before that reach no client. Press space until the window
    // reports it (each try waits up to 2 s), then the rest.
    var focused = false
    for _ in 0..<10 where !focused {
      try XDoTool.run(["key", "space"])
      focused = events.waitQuietly(timeoutMs: 2_000) { $0.contains(.key(.space)) }
    }
    XCTAssertTrue(focused, "space never reached the window: \(events.all)")
    try XDoTool.run(["key", "--delay", "20", "Right", "q"])
    events.wait(for: "→ and q") { events in
      [Key.right, .q].allSatisfy { events.contains(.key($0)) }
    }
    try XDoTool.run(["mousemove", "--window", weston.xWindow, "--sync", "300", "200"])
    try XDoTool.run(["click", "1"])
    events.wait(for: "a click where the pointer is") { $0.contains(.click(x: 300, y: 200)) }
  }
}
