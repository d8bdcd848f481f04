import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Retries of progressive HTTP media (`RetryingDataSource` over `HTTPDataSource`): resuming
/// a broken read with a range request, skipping what a server that ignores `Range` sends
/// again, the attempt budget, delays on the player's clock, and cancellation.
final class RetryingDataSourceResumeTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)
  private let path = "/media.bin"

  private func startServer(_ fault: HTTPTestServer.Fault? = nil) throws -> HTTPTestServer {
    try startServer([path: data], faults: fault.map { [path: $0] } ?? [:])
  }

  private func settings(retries: Int, timeoutMs: Int = 2_000) -> RequestConfiguration {
    RequestConfiguration(timeoutMs: timeoutMs, retryCount: retries)
  }

  /// A retrying source over HTTP, waiting on `clock` (a clock that jumps by default).
  private func source(
    retries: Int, clock: any Clock = ManualClock(advancesOnWait: true)
  ) -> RetryingDataSource {
    let configuration = settings(retries: retries)
    return RetryingDataSource(
      upstream: HTTPDataSource(configuration: configuration), configuration: configuration,
      clock: clock)
  }

  private func reader(_ server: HTTPTestServer, retries: Int) -> DataSourceReader {
    DataSourceReader(source: source(retries: retries), request: DataRequest(url: server.url(path)))
  }

  private func ranges(_ server: HTTPTestServer) -> [String] {
    server.requests.filter { $0.path == path }.map { $0.range ?? "none" }
  }

  func testRead_afterACloseMidBody_resumesWithARangeFromTheByteWhereItStopped() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 100_000)], then: nil))
    let reader = reader(server, retries: 2)
    XCTAssertEqual(try readToEnd(reader), data)
    XCTAssertEqual(ranges(server), ["none", "bytes=100000-"])
  }

  func testRead_ofARange_resumesInsideTheRange_keepingItsEnd() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 10_000)], then: nil))
    let source = source(retries: 2)
    let head = try source.open(
      DataRequest(url: server.url(path), range: ByteRange(offset: 50_000, length: 100_000)))
    XCTAssertEqual(head.length, 100_000)
    XCTAssertEqual(try drain(source), data.subdata(in: 50_000..<150_000))
    XCTAssertEqual(ranges(server), ["bytes=50000-149999", "bytes=60000-149999"])
  }

  func testRead_afterACloseMidBody_fromAServerThatIgnoresRange_skipsTheBytesAlreadyRead() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 100_000)], then: .ignoreRange))
    let reader = reader(server, retries: 2)
    XCTAssertEqual(try readToEnd(reader), data, "the resent first 100000 bytes are skipped")
    XCTAssertEqual(ranges(server), ["none", "bytes=100000-"])
  }

  func testRead_aCloseOnEveryResponse_completes_becauseEachRetryMakesProgress() throws {
    // One retry allowed, six closes in all: the budget starts again after each read that
    // succeeds, so a long file survives many brief outages.
    let server = try startServer(.closeAfter(bytes: 50_000))
    let reader = reader(server, retries: 1)
    XCTAssertEqual(try readToEnd(reader), data)
    XCTAssertEqual(
      ranges(server), ["none"] + (1..<6).map { "bytes=\($0 * 50_000)-" },
      "each retry resumes where it stopped")
  }

  func testRead_failingForGood_makesRetryCountPlusOneAttempts_andLaterReadsFailAtOnce() throws {
    let server = try startServer(.closeAtByte(offset: 100_000))
    let source = source(retries: 2)
    _ = try source.open(DataRequest(url: server.url(path)))
    let (received, error) = drainUntilFailure(source)
    XCTAssertEqual(received, data.prefix(100_000))
    XCTAssertEqual(error?.code, .connectionFailed)
    XCTAssertEqual(
      error?.message,
      "connection to \(server.url(path).absoluteString) closed after 100000 of 300000 bytes")
    XCTAssertEqual(ranges(server), ["none", "bytes=100000-", "bytes=100000-"])
    let later = playheadError { () throws(PlayheadError) in try readSome(source, count: 10) }
    XCTAssertEqual(later, error, "a source that gave up stays given up")
    XCTAssertEqual(ranges(server).count, 3, "and sends no more requests")
    // Opening again starts afresh.
    server.setFault(nil, for: path)
    _ = try source.open(DataRequest(url: server.url(path), range: ByteRange(offset: 0, length: 10)))
    XCTAssertEqual(try drain(source), data.prefix(10))
  }

  func testResume_findingAnotherLength_failsWithIOError_notRetried() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 100_000)], then: nil))
    let clock = ManualClock()
    let source = source(retries: 3, clock: clock)
    _ = try source.open(DataRequest(url: server.url(path)))
    let run = runInBackground("read to the end") { try drain(source) }
    // The read broke at 100000 bytes and waits on the clock for its retry.
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    server.setFile(generatedBytes(count: 200_000, seed: 2), at: path)
    clock.advance(by: ms(500))
    let error = failure(of: run)
    XCTAssertEqual(error?.code, .ioError)
    XCTAssertEqual(
      error?.message,
      "\(server.url(path).absoluteString) had 300000 bytes, but resuming at byte 100000 found "
        + "200000: the resource changed")
    XCTAssertEqual(ranges(server), ["none", "bytes=100000-"])
  }

  func testOpen_afterTwoServerErrors_retriesAfterTheDelays_onTheGivenClock() throws {
    let server = try startServer(.failTimes(2, status: 503))
    let clock = ManualClock()
    let source = source(retries: 3, clock: clock)
    let url = server.url(path)
    let opened = runInBackground("open") { try source.open(DataRequest(url: url)) }
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
    wait(for: [opened.done], timeout: 10)
    let head = try XCTUnwrap(opened.result.value).get()
    XCTAssertEqual(head.statusCode, 200)
    XCTAssertEqual(server.requestCount(for: path), 3)
    XCTAssertEqual(try drain(source, limit: 1000), data.prefix(1000))
  }

  func testCancel_duringTheWaitBeforeARetry_endsTheReadAtOnceWithCancelled() throws {
    let server = try startServer(.sequence([.closeAfter(bytes: 1_000)], then: nil))
    let clock = ManualClock()
    let source = source(retries: 3, clock: clock)
    _ = try source.open(DataRequest(url: server.url(path)))
    XCTAssertEqual(try drain(source, limit: 1_000), data.prefix(1_000))
    let run = runInBackground("read") { try readSome(source, count: 100) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1), "the read waits for its retry")
    source.cancel()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertEqual(server.requestCount(for: path), 1, "no retry after the cancel")
    let later = playheadError { () throws(PlayheadError) in try readSome(source, count: 10) }
    XCTAssertEqual(later?.code, .cancelled)
  }

  func testStack_withoutRetries_hasNoRetryingLayer_andFailsOnTheFirstError() throws {
    let server = try startServer(.status(503))
    let stack = DataSourceStack(request: settings(retries: 0))
    XCTAssertTrue(stack.makeDataSource() is DefaultDataSource)
    let error = playheadError { () throws(PlayheadError) in
      try stack.loader().load(DataRequest(url: server.url(self.path)))
    }
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertEqual(server.requestCount(for: path), 1)
  }

  func testOpen_clientErrors_areNotRetried() throws {
    let server = try startServer(.status(404))
    let error = playheadError { () throws(PlayheadError) in
      try self.source(retries: 3).open(DataRequest(url: server.url(self.path)))
    }
    XCTAssertEqual(error?.httpStatusCode, 404)
    XCTAssertEqual(server.requestCount(for: path), 1)
  }

  func testErrorResponses_areReadAsTheyAre_neverResumed() throws {
    let body = generatedBytes(count: 50_000, seed: 3)
    let server = try startServer([:], faults: ["/api": .respond(status: 500, body: body)])
    let source = source(retries: 3)
    let head = try source.open(DataRequest(url: server.url("/api"), deliversErrorResponses: true))
    XCTAssertEqual(head.statusCode, 500)
    XCTAssertEqual(try drain(source), body)
    XCTAssertEqual(server.requestCount(for: "/api"), 1)
  }
}
