import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

final class WindowWithoutDisplayTests: XCTestCase {
  func testNoXServer_throwsWithSDLsMessage_andLeavesVideoStopped() {
    let previous = ProcessInfo.processInfo.environment["DISPLAY"]
    setenv("SDL_VIDEODRIVER", "x11", 1)
    unsetenv("DISPLAY")
    defer { if let previous { setenv("DISPLAY", previous, 1) } }
    XCTAssertThrowsError(try WindowVideoSink()) { error in
      let error = error as? PlayheadError
      XCTAssertEqual(error?.code, .ioError)
      XCTAssertTrue(
        error?.message.hasPrefix("SDL could not start its video") ?? false,
        "\(String(describing: error))")
    }
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .video), 0)
  }

  func testAnUnknownVideoDriver_throws() {
    setenv("SDL_VIDEODRIVER", "no-such-driver", 1)
    defer { setenv("SDL_VIDEODRIVER", "x11", 1) }
    XCTAssertThrowsError(try WindowVideoSink()) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .ioError)
    }
  }
}
