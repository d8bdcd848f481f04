import Dispatch
import XCTest

@testable import PlayheadEngine

extension Player {
  /// Returns once the playback loop has run every command posted before this call (the
  /// loop runs commands in order), so that their effect on the published state can be
  /// read: a command such as a queue edit reports no event to wait for.
  func waitForPostedCommands(file: StaticString = #filePath, line: UInt = #line) {
    let done = DispatchSemaphore(value: 0)
    loop.post { _ in done.signal() }
    // A guard against hangs only: the loop runs the command as soon as it is free.
    if done.wait(timeout: .now() + 60) == .timedOut {
      XCTFail("the playback loop did not run its commands", file: file, line: line)
    }
  }
}
