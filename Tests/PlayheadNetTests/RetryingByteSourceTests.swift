import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Retries of progressive HTTP media (`ByteSources.open` with `retryCount`): resuming with
/// a range request, skipping what a server that ignores `Range` sends again, the attempt
/// budget, delays on the player's clock, and cancellation.
final class RetryingByteSourceTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)
  private let path = "/media.bin"

  private func startServer(_ fault: HTTPTestServer.Fault? = nil) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: [path: data], faults: fault.map { [path: $0] } ?? [:])
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  private func settings(retries: Int, timeoutSeconds: Double = 2) -> HTTPRequestConfiguration {
    HTTPRequestConfiguration(timeoutSeconds: timeoutSeconds, retryCount: retries)
  }

  private func ranges(_ server: HTTPTestServer) -> [String] {
    server.requests.filter { $0.path == path }.map { $0.range ?? "none" }
  }

  func testRead_afterACloseMidBody_resumesWithARangeFromTheByteWhereItStopped() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 100_000)], then: nil))
    let source = try ByteSources.open(
      server.url(path), http: settings(retries: 2), clock: ManualClock(advancesOnWait: true))
    XCTAssertEqual(try readToEnd(source), data)
    XCTAssertEqual(ranges(server), ["bytes=0-", "bytes=100000-"])
  }

  func testRead_afterACloseMidBody_fromAServerThatIgnoresRange_skipsTheBytesAlreadyRead() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 100_000)], then: .ignoreRange))
    let source = try ByteSources.open(
      server.url(path), http: settings(retries: 2), clock: ManualClock(advancesOnWait: true))
    XCTAssertEqual(try readToEnd(source), data, "the resent first 100000 bytes are skipped")
    XCTAssertEqual(ranges(server), ["bytes=0-", "bytes=100000-"])
  }

  func testRead_aCloseOnEveryResponse_completes_becauseEachRetryMakesProgress() throws {
    // One retry allowed, six closes in all: the budget starts again after each read that
    // succeeds, so a long file survives many brief outages.
    let server = try startServer(.closeAfter(bytes: 50_000))
    let source = try ByteSources.open(
      server.url(path), http: settings(retries: 1), clock: ManualClock(advancesOnWait: true))
    XCTAssertEqual(try readToEnd(source), data)
    XCTAssertEqual(
      ranges(server), (0..<6).map { "bytes=\($0 * 50_000)-" }, "each retry resumes where it stopped"
    )
  }

  func testRead_failingForGood_makesRetryCountPlusOneAttempts_andLaterReadsFailAtOnce() throws {
    let server = try startServer(.closeAtByte(offset: 100_000))
    let source = try ByteSources.open(
      server.url(path), http: settings(retries: 2), clock: ManualClock(advancesOnWait: true))
    let error = playheadError { () throws(PlayheadError) in try readToEnd(source) }
    XCTAssertEqual(error?.code, .connectionFailed)
    XCTAssertEqual(
      error?.message,
      "connection to \(server.url(path).absoluteString) closed after 100000 of 300000 bytes")
    XCTAssertEqual(ranges(server), ["bytes=0-", "bytes=100000-", "bytes=100000-"])
    let later = playheadError { () throws(PlayheadError) in try readOnce(source, at: 0, count: 10) }
    XCTAssertEqual(later, error, "a source that gave up stays given up")
    XCTAssertEqual(ranges(server).count, 3, "and sends no more requests")
  }

  func testOpen_afterTwoServerErrors_retriesAfterTheDelays_onTheGivenClock() throws {
    let server = try startServer(.failTimes(2, status: 503))
    let clock = ManualClock()
    let opened = OpenBox()
    let url = server.url(path)
    let configuration = settings(retries: 3)
    let opener = Thread {
      opened.set(
        Result { () throws(PlayheadError) in
          try ByteSources.open(url, http: configuration, clock: clock)
        })
    }
    opener.start()
    // The first retry waits 0.5 s of clock time, the second 1 s; no request goes out
    // while the clock stands still.
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(server.requestCount(for: path), 1)
    XCTAssertEqual(clock.nextBlockedDeadline, clock.now + MediaTime(value: 1, timescale: 2))
    clock.advance(by: MediaTime(value: 1, timescale: 2))
    XCTAssertTrue(server.waitForRequests(count: 2))
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(clock.nextBlockedDeadline, clock.now + MediaTime(value: 1, timescale: 1))
    XCTAssertEqual(server.requestCount(for: path), 2)
    clock.advance(by: MediaTime(value: 1, timescale: 1))
    let source = try XCTUnwrap(opened.wait()).get()
    XCTAssertEqual(server.requestCount(for: path), 3)
    XCTAssertEqual(try readFully(source, at: 0, count: 1000), data.prefix(1000))
  }

  func testCancel_duringTheWaitBeforeARetry_endsTheReadAtOnceWithCancelled() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 1_000)], then: nil))
    let clock = ManualClock()
    let source = try ByteSources.open(server.url(path), http: settings(retries: 3), clock: clock)
    XCTAssertEqual(try readFully(source, at: 0, count: 1_000), data.prefix(1_000))
    let failure = OpenBox()
    let reader = Thread {
      failure.set(
        Result { () throws(PlayheadError) -> any ByteSource in
          _ = try readOnce(source, at: 1_000, count: 100)
          return source
        })
    }
    reader.start()
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1), "the read waits for its retry")
    source.cancel()
    let result = try XCTUnwrap(failure.wait())
    XCTAssertEqual(playheadError { () throws(PlayheadError) in try result.get() }?.code, .cancelled)
    XCTAssertEqual(server.requestCount(for: path), 1, "no retry after the cancel")
  }

  func testOpen_withoutRetries_isAPlainHTTPByteSource_andFailsOnTheFirstError() throws {
    let server = try startServer(.status(503))
    let error = playheadError { () throws(PlayheadError) in
      try ByteSources.open(server.url(self.path), http: self.settings(retries: 0))
    }
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertEqual(server.requestCount(for: path), 1)
    server.setFault(nil, for: path)
    XCTAssertTrue(
      try ByteSources.open(server.url(path), http: settings(retries: 0)) is HTTPByteSource)
  }

  func testOpen_clientErrors_areNotRetried() throws {
    let server = try startServer(.status(404))
    let error = playheadError { () throws(PlayheadError) in
      try ByteSources.open(
        server.url(self.path), http: self.settings(retries: 3),
        clock: ManualClock(advancesOnWait: true))
    }
    XCTAssertEqual(error?.httpStatusCode, 404)
    XCTAssertEqual(server.requestCount(for: path), 1)
  }
}

/// A result handed from a background thread to the test.
private final class OpenBox: @unchecked Sendable {
  // Unchecked Sendable: `value` is guarded by `condition`.
  private let condition = NSCondition()
  private var value: Result<any ByteSource, PlayheadError>?

  func set(_ result: Result<any ByteSource, PlayheadError>) {
    condition.lock()
    value = result
    condition.broadcast()
    condition.unlock()
  }

  /// The result, once set (a generous limit guards against a hang only).
  func wait() -> Result<any ByteSource, PlayheadError>? {
    let limit = Date(timeIntervalSinceNow: 30)
    condition.lock()
    defer { condition.unlock() }
    while value == nil {
      if !condition.wait(until: limit) { return nil }
    }
    return value
  }
}
