import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// A test case with its own X server (`XvfbDisplay`) and SDL's X11 video driver; every
/// window a test opens must be closed by its end (checked), before the server stops.
class WindowTestCase: XCTestCase {
  var display: XvfbDisplay!

  override func setUpWithError() throws {
    try super.setUpWithError()
    setenv("SDL_VIDEODRIVER", "x11", 1)
    display = try XvfbDisplay()
  }

  override func tearDown() {
    XCTAssertEqual(
      SDLRuntime.shared.userCount(of: .video), 0, "every window must be closed by the test")
    display?.stop()
    display = nil
    super.tearDown()
  }

  /// A window titled uniquely for this test (so xdotool finds only it).
  func openWindow(
    size: WindowSize? = WindowSize(width: 640, height: 240), gravity: VideoGravity = .fit,
    background: RGBAColor = .blue, alphaMode: AlphaRenderMode = .none,
    events: WindowEventLog? = nil
  ) throws -> WindowVideoSink {
    let options = WindowOptions(
      title: "playhead-test-\(UUID().uuidString.prefix(8))", size: size, gravity: gravity,
      background: background, alphaMode: alphaMode)
    return try WindowVideoSink(options: options, onEvent: events.map { log in log.record })
  }
}

/// The events a window reported, in order, and waits for them.
final class WindowEventLog: Sendable {
  private let events = Locked<[WindowEvent]>([])
  private let arrived = DispatchSemaphore(value: 0)

  /// Records `event` (the sink's `onEvent`).
  @Sendable func record(_ event: WindowEvent) {
    events.withLock { $0.append(event) }
    arrived.signal()
  }

  /// The events so far.
  var all: [WindowEvent] { events.value }

  /// Waits until `predicate` holds for the events so far (checked now and after each new
  /// one); fails the test after `timeoutMs` of real time.
  @discardableResult
  func wait(
    for description: String, timeoutMs: Int = 10_000, file: StaticString = #filePath,
    line: UInt = #line, _ predicate: ([WindowEvent]) -> Bool
  ) -> Bool {
    if waitQuietly(timeoutMs: timeoutMs, predicate) { return true }
    XCTFail("timed out waiting for \(description); events: \(all)", file: file, line: line)
    return false
  }

  /// Waits as `wait` does, but only returns false when `timeoutMs` pass first.
  func waitQuietly(timeoutMs: Int, _ predicate: ([WindowEvent]) -> Bool) -> Bool {
    let deadline = DispatchTime.now() + .milliseconds(timeoutMs)
    while !predicate(all) {
      if arrived.wait(timeout: deadline) == .timedOut { return predicate(all) }
    }
    return true
  }
}

extension RGBAColor {
  static let red = RGBAColor(r: 255, g: 0, b: 0)
  static let green = RGBAColor(r: 0, g: 255, b: 0)
  static let blue = RGBAColor(r: 0, g: 0, b: 255)
  static let white = RGBAColor(r: 255, g: 255, b: 255)
}

/// Fails unless the pixel at (`x`, `y`) of `image` is `expected` within `tolerance` per
/// channel (YUV round trips move colours by a few levels).
func assertPixel(
  _ image: RGBAImage?, x: Int, y: Int, is expected: RGBAColor, tolerance: Int = 12,
  _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  guard let image else { return XCTFail("no image", file: file, line: line) }
  let pixel = image.pixel(x: x, y: y)
  let close =
    abs(Int(pixel.r) - Int(expected.r)) <= tolerance
    && abs(Int(pixel.g) - Int(expected.g)) <= tolerance
    && abs(Int(pixel.b) - Int(expected.b)) <= tolerance
  XCTAssertTrue(
    close, "pixel (\(x), \(y)) is \(pixel), expected \(expected) \(message)", file: file,
    line: line)
}

/// Polls `condition` every 5 ms until it holds or `timeoutMs` passed (for window
/// state SDL reaches on its own thread without an event to wait for).
@discardableResult
func poll(
  _ description: String, timeoutMs: Int = 10_000, file: StaticString = #filePath,
  line: UInt = #line, _ condition: () -> Bool
) -> Bool {
  let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
  while !condition() {
    if Date() > deadline {
      XCTFail("timed out waiting for \(description)", file: file, line: line)
      return false
    }
    usleep(5_000)
  }
  return true
}
