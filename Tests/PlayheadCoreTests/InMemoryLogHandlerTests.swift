import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

/// `InMemoryLogHandler` (PlayheadTesting): copies share one record, entries from any
/// thread are kept, and a wait returns when the entry is logged.
final class InMemoryLogHandlerTests: XCTestCase {
  func testCopies_shareOneRecord_eachUnderItsOwnLabel() {
    let handler = InMemoryLogHandler()
    let player = handler.logger(label: "player", level: .debug)
    let network = handler.logger(label: "network", level: .warning)
    player.debug("decision")
    network.info("dropped: below the network logger's level")
    network.warning("retry")
    XCTAssertEqual(handler.entries.map(\.label), ["player", "network"])
    XCTAssertEqual(handler.entries.map(\.message), ["decision", "retry"])
    handler.clear()
    XCTAssertTrue(handler.entries.isEmpty)
  }

  func testEntries_fromManyThreads_areAllKept() {
    let handler = InMemoryLogHandler()
    let logger = handler.logger(label: "threads")
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<250 {
        logger.debug("entry", metadata: ["thread": "\(thread)", "index": "\(index)"])
      }
    }
    XCTAssertEqual(handler.entries.count, 2_000)
    let perThread = Dictionary(grouping: handler.entries) { $0["thread"] ?? "" }
    XCTAssertEqual(perThread.count, 8)
    for (thread, entries) in perThread {
      // Each thread's entries keep the order it logged them in.
      XCTAssertEqual(entries.map { $0["index"] ?? "" }, (0..<250).map(String.init), thread)
    }
  }

  func testWait_returnsTheEntryOnceAnotherThreadLogsIt() {
    let handler = InMemoryLogHandler()
    let logger = handler.logger(label: "waiter")
    let go = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      go.wait()
      logger.info("not this one")
      logger.info("ready", metadata: ["item": "7"])
    }
    go.signal()
    let entry = handler.waitForEntry { $0.message == "ready" }
    XCTAssertEqual(entry?["item"], "7")
    XCTAssertEqual(handler.entries.map(\.message), ["not this one", "ready"])
  }

  func testWait_forAnEntryThatNeverComes_returnsNilAtTheLimit() {
    let handler = InMemoryLogHandler()
    handler.logger(label: "quiet").info("something else")
    XCTAssertNil(handler.waitForEntry(timeoutMs: 50) { $0.message == "never" })
  }

  func testEntryDescription_isTheTextLineWithoutTheTime() {
    let entry = InMemoryLogHandler.Entry(
      level: .debug, label: "playhead.player", message: "ABR decision",
      metadata: ["reason": "buffer", "level": "2"])
    XCTAssertEqual(entry.description, "debug playhead.player: ABR decision level=2 reason=buffer")
  }
}
