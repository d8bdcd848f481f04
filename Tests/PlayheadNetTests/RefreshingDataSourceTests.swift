import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Progressive reads through `RefreshingDataSource` (over `HTTPDataSource`, read as a
/// demuxer reads) against a server that checks type-A signatures on a manual clock's wall
/// time.
final class RefreshingDataSourceTests: XCTestCase {
  private let epoch: Int64 = 1_700_000_000
  private let signer = CDNTypeASigner(key: "cdn-secret")

  private func start(
    _ data: Data, clock: ManualClock, status: Int = 403
  ) throws -> (HTTPTestServer, SignedCDN) {
    let server = HTTPTestServer(files: ["/v/movie.mp4": data])
    try server.start()
    addTeardownBlock { server.stop() }
    let signer = self.signer
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: SourceRefreshOptions.wallClock(following: clock, epochSeconds: epoch),
      rejectionStatus: status)
    return (server, cdn)
  }

  private func refresher(clock: ManualClock, usesSigner: Bool) -> SourceRefresher {
    let wall = SourceRefreshOptions.wallClock(following: clock, epochSeconds: epoch)
    return SourceRefresher(
      handler: SourceRefresh.resigning(with: signer, validitySeconds: 10, wallClockSeconds: wall),
      options: SourceRefreshOptions(signer: usesSigner ? signer : nil, wallClockSeconds: wall),
      clock: clock)
  }

  /// A refreshing source over HTTP with a 64 KiB read-ahead.
  private func source(_ refresher: SourceRefresher, readAhead: Int = 64 * 1024)
    -> RefreshingDataSource
  {
    RefreshingDataSource(
      upstream: HTTPDataSource(configuration: RequestConfiguration(readAheadBytes: readAhead)),
      refresher: refresher)
  }

  func testRangedReads_continueOnTheFreshURL_afterA403() throws {
    let data = generatedBytes(count: 600_000)
    let clock = ManualClock()
    let (server, cdn) = try start(data, clock: clock)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch + 10)
    let refresher = refresher(clock: clock, usesSigner: false)
    let source = DataSourceReader(source: source(refresher), request: DataRequest(url: url))
    defer { source.cancel() }
    try source.open()
    XCTAssertEqual(source.length, Int64(data.count))

    // Each read after an expiry seeks back, before every byte received, so it needs a
    // new range request: refused, refreshed, and sent again on the fresh URL.
    let first = try readFully(source, at: 500_000, count: 50_000)
    clock.advance(by: MediaTime(value: 30, timescale: 1))
    let second = try readFully(source, at: 300_000, count: 150_000)
    clock.advance(by: MediaTime(value: 30, timescale: 1))
    let third = try readFully(source, at: 100_000, count: 50_000)

    XCTAssertEqual(first, data.subdata(in: 500_000..<550_000))
    XCTAssertEqual(second, data.subdata(in: 300_000..<450_000))
    XCTAssertEqual(third, data.subdata(in: 100_000..<150_000))
    // Two expiries: each refused at least once (a request in flight as the clock moves
    // may be refused too); only expired signatures are refused.
    XCTAssertGreaterThanOrEqual(cdn.refusals.count, 2, "\(cdn.refusals)")
    for refusal in cdn.refusals {
      let expiry = refusal.query.flatMap { query in
        query.split(separator: "=", maxSplits: 1).last.flatMap {
          SignedCDN.expiry(ofAuthKey: String($0))
        }
      }
      XCTAssertLessThan(try XCTUnwrap(expiry), refusal.nowSeconds)
    }
    let keys = server.requests.compactMap { $0.queryItems["auth_key"] }
    XCTAssertGreaterThanOrEqual(Set(keys).count, 3, "each refresh fetched with a new auth_key")
    XCTAssertEqual(source.url, url)
    XCTAssertNotEqual(refresher.currentURL(for: url), url)
  }

  func testExpiredByTheClock_refreshesBeforeTheNextRequest_withoutA403() throws {
    let data = generatedBytes(count: 300_000)
    let clock = ManualClock()
    let (server, cdn) = try start(data, clock: clock, status: 410)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch + 10)
    let source = DataSourceReader(
      source: source(refresher(clock: clock, usesSigner: true)), request: DataRequest(url: url))
    defer { source.cancel() }
    let first = try readFully(source, at: 0, count: 100_000)
    clock.advance(by: MediaTime(value: 60, timescale: 1))
    let second = try readFully(source, at: 250_000, count: 50_000)
    XCTAssertEqual(first + second, data.prefix(100_000) + data.subdata(in: 250_000..<300_000))
    // A continuation request sent just before the clock moved may be refused (it is in
    // flight when the URL expires); the read at the new offset is not: it goes out once,
    // already refreshed.
    let seekRequests = server.requests.filter { $0.range == "bytes=250000-" }
    XCTAssertEqual(seekRequests.count, 1, "\(server.requests.map(\.range))")
    XCTAssertEqual(
      seekRequests.first?.queryItems["auth_key"].flatMap(SignedCDN.expiry(ofAuthKey:)), epoch + 70)
    XCTAssertFalse(
      cdn.refusals.contains { $0.nowSeconds == epoch + 60 && $0.query == seekRequests.first?.query }
    )
  }

  func testMidRead_a403OnAContinuation_refreshesAndResumesWhereTheBytesStopped() throws {
    let data = generatedBytes(count: 300_000)
    let clock = ManualClock()
    let (server, cdn) = try start(data, clock: clock)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch + 10)
    let refresher = refresher(clock: clock, usesSigner: false)
    let source = source(refresher)
    _ = try source.open(DataRequest(url: url, purpose: .media))
    let first = try drain(source, limit: 100_000)
    // The response stops at the read-ahead limit; the signature expires meanwhile, so the
    // continuation request is refused.
    waitUntilHoldingBack(source)
    clock.advance(by: MediaTime(value: 30, timescale: 1))
    let rest = try drain(source)
    XCTAssertEqual(first + rest, data)
    XCTAssertEqual(cdn.refusals.count, 1, "a continuation went out on the old URL")
    // Every request before the refresh carries the old key; the refused one is the last.
    let oldKey = server.requests.first?.queryItems["auth_key"]
    let refusedRequest = try XCTUnwrap(server.requests.last { $0.queryItems["auth_key"] == oldKey })
    XCTAssertEqual(cdn.refusals.first?.query, refusedRequest.query)
    XCTAssertNotNil(refusedRequest.range)
    let resumed = try XCTUnwrap(
      server.requests.first { $0.queryItems["auth_key"] != oldKey },
      "the transfer went on with a fresh URL")
    XCTAssertEqual(resumed.range, refusedRequest.range, "resumed at the byte where it stopped")
    XCTAssertEqual(
      resumed.queryItems["auth_key"].flatMap(SignedCDN.expiry(ofAuthKey:)), epoch + 40)
    XCTAssertEqual(refresher.handlerCallCount, 1)
    guard case .refreshed(let record)? = refresher.events.first else {
      return XCTFail("no refresh event: \(refresher.events)")
    }
    XCTAssertEqual(record.expired.reason, .httpStatus(403))
    XCTAssertEqual(record.expired.purpose, .media)
    XCTAssertEqual(record.expired.originalURL, url)
  }

  func testOpen_withAnExpiredURL_andAnErrorFromTheHandler_throwsSourceExpired() throws {
    let clock = ManualClock()
    let (server, _) = try start(generatedBytes(count: 1000), clock: clock, status: 410)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch - 100)
    let refresher = SourceRefresher(handler: { _, callback in callback.onError("no token") })
    let error = playheadError { () throws(PlayheadError) in
      try self.source(refresher).open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    XCTAssertEqual(error?.httpStatusCode, 410)
    XCTAssertTrue(error?.message.hasSuffix("no token") ?? false)
  }

  func testCancel_ofOneTransfer_leavesTheRefresherItSharesWithTheOthers() throws {
    let data = generatedBytes(count: 10_000)
    let server = try startServer(["/fresh.bin": data], faults: ["/old.bin": .status(403)])
    let fresh = server.url("/fresh.bin")
    let refresher = SourceRefresher(handler: { _, callback in callback.onSuccess(fresh) })
    // One transfer of the item is cancelled (a segment download abandoned)...
    let abandoned = RefreshingDataSource(upstream: HTTPDataSource(), refresher: refresher)
    abandoned.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in
        try abandoned.open(DataRequest(url: server.url("/old.bin")))
      }?.code, .cancelled)
    // ...and the next one still gets a fresh URL for an expired one.
    let next = RefreshingDataSource(upstream: HTTPDataSource(), refresher: refresher)
    let head = try next.open(DataRequest(url: server.url("/old.bin")))
    XCTAssertEqual(head.url, fresh)
    XCTAssertEqual(try drain(next), data)
    XCTAssertEqual(refresher.handlerCallCount, 1)
  }

  func testCancel_whileWaitingForTheHandler_endsThatTransferAtOnce_andAnotherAsksAgain() throws {
    let data = generatedBytes(count: 10_000)
    let server = try startServer(["/fresh.bin": data], faults: ["/old.bin": .status(403)])
    let callbacks = Locked<[SourceRefreshCallback]>([])
    let called = DispatchSemaphore(value: 0)
    // The handler answers later; its timeout is on a clock that never moves.
    let refresher = SourceRefresher(
      handler: { _, callback in
        callbacks.withLock { $0.append(callback) }
        called.signal()
      }, clock: ManualClock())
    let url = server.url("/old.bin")
    let first = RefreshingDataSource(upstream: HTTPDataSource(), refresher: refresher)
    let second = RefreshingDataSource(upstream: HTTPDataSource(), refresher: refresher)
    let firstRun = runInBackground("first open") { try first.open(DataRequest(url: url)) }
    XCTAssertEqual(called.wait(timeout: .now() + 10), .success)
    let secondRun = runInBackground("second open") { try second.open(DataRequest(url: url)) }
    XCTAssertTrue(server.waitForRequests(count: 2))
    first.cancel()
    XCTAssertEqual(failure(of: firstRun)?.code, .cancelled)
    // The second transfer, which waited for the same answer or came after, asks again.
    XCTAssertEqual(called.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(callbacks.value.count, 2)
    XCTAssertFalse(callbacks.value[0].onSuccess(server.url("/fresh.bin")), "nobody waits for it")
    XCTAssertTrue(callbacks.value[1].onSuccess(server.url("/fresh.bin")))
    wait(for: [secondRun.done], timeout: 10)
    XCTAssertEqual(try secondRun.result.value?.get().url, server.url("/fresh.bin"))
    XCTAssertEqual(refresher.currentURL(for: url), server.url("/fresh.bin"))
  }

  func testErrorResponses_passThroughWithoutARefresh() throws {
    let clock = ManualClock()
    let (server, _) = try start(generatedBytes(count: 1000), clock: clock)
    let refresher = refresher(clock: clock, usesSigner: false)
    let source = source(refresher)
    let head = try source.open(
      DataRequest(url: server.url("/v/movie.mp4"), deliversErrorResponses: true))
    XCTAssertEqual(head.statusCode, 403)
    XCTAssertEqual(refresher.handlerCallCount, 0)
  }
}

/// The test CDN itself: it must refuse what a CDN refuses, or the tests above prove nothing.
final class SignedCDNTests: XCTestCase {
  func testGate_refusesUnsignedBadAndTooOldSignatures_withinItsGrace() throws {
    let server = HTTPTestServer(files: ["/v/a.ts": Data([1, 2, 3])])
    try server.start()
    addTeardownBlock { server.stop() }
    let clock = ManualClock()
    let signer = CDNTypeASigner(key: "k")
    let epoch: Int64 = 1_600_000_000
    let cdn = SignedCDN(
      server: server, verifies: { signer.verifies($0) },
      sign: { url, expiry in (try? signer.sign(url, expiry: expiry)) ?? url },
      nowSeconds: SourceRefreshOptions.wallClock(following: clock, epochSeconds: epoch),
      graceSeconds: 5)
    let http = DataLoader(factory: HTTPDataSourceFactory())
    func status(_ url: URL) -> Int {
      do {
        return try http.load(DataRequest(url: url)).statusCode ?? 0
      } catch {
        return error.httpStatusCode ?? -1
      }
    }
    let plain = server.url("/v/a.ts")
    let signed = try signer.sign(plain, expiry: epoch + 10)
    XCTAssertEqual(status(plain), 403, "unsigned")
    XCTAssertEqual(status(try CDNTypeASigner(key: "other").sign(plain, expiry: epoch + 10)), 403)
    XCTAssertEqual(status(signed), 200)
    clock.advance(by: MediaTime(value: 15, timescale: 1))
    XCTAssertEqual(status(signed), 200, "5 s past its expiry: within the grace")
    clock.advance(by: MediaTime(value: 1, timescale: 1))
    XCTAssertEqual(status(signed), 403, "older than the grace")
    XCTAssertEqual(cdn.refusals.count, 3)
    XCTAssertEqual(cdn.refusals.last?.nowSeconds, epoch + 16)
  }
}
