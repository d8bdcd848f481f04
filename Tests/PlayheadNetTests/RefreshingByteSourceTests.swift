import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Progressive reads through `RefreshingByteSource` against a server that checks type-A
/// signatures on a manual clock's wall time.
final class RefreshingByteSourceTests: XCTestCase {
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

  func testRangedReads_continueOnTheFreshURL_afterA403() throws {
    let data = generatedBytes(count: 600_000)
    let clock = ManualClock()
    let (server, cdn) = try start(data, clock: clock)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch + 10)
    let source = try RefreshingByteSource(
      url: url, configuration: HTTPRequestConfiguration(maxBufferAheadBytes: 64 * 1024),
      refresher: refresher(clock: clock, usesSigner: false))
    defer { source.cancel() }
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
    XCTAssertNotEqual(source.currentURL, url)
  }

  func testExpiredByTheClock_refreshesBeforeTheNextRequest_withoutA403() throws {
    let data = generatedBytes(count: 300_000)
    let clock = ManualClock()
    let (server, cdn) = try start(data, clock: clock, status: 410)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch + 10)
    let source = try RefreshingByteSource(
      url: url, configuration: HTTPRequestConfiguration(maxBufferAheadBytes: 32 * 1024),
      refresher: refresher(clock: clock, usesSigner: true))
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

  func testOpen_withAnExpiredURL_andAnErrorFromTheHandler_throwsSourceExpired() throws {
    let clock = ManualClock()
    let (server, _) = try start(generatedBytes(count: 1000), clock: clock, status: 410)
    let url = try signer.sign(server.url("/v/movie.mp4"), expiry: epoch - 100)
    let refresher = SourceRefresher(handler: { _, callback in callback.onError("no token") })
    let error = playheadError { () throws(PlayheadError) in
      try ByteSources.open(url, cache: nil, refresher: refresher)
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    XCTAssertEqual(error?.httpStatusCode, 410)
    XCTAssertTrue(error?.message.hasSuffix("no token") ?? false)
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
    let http = HTTPDataSource()
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
