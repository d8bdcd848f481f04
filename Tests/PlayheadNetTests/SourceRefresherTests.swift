import Foundation
import PlayheadCore
import PlayheadTestSupport
import XCTest

@testable import PlayheadNet

/// A network that answers each request with a closure (bytes, or an error at `open`) and
/// logs the URLs it was sent.
private final class ScriptedNetwork: DataSourceFactory, Sendable {
  private let sent = Locked<[URL]>([])
  private let answer: @Sendable (DataRequest) -> Result<Data, PlayheadError>

  init(_ answer: @escaping @Sendable (DataRequest) -> Result<Data, PlayheadError>) {
    self.answer = answer
  }

  var sentURLs: [URL] { sent.value }

  func makeDataSource() -> any DataSource { Transfer(network: self) }

  /// One transfer: the answer's bytes from memory.
  private final class Transfer: DataSource, Sendable {
    let network: ScriptedNetwork
    private let bytes = Locked<MemoryDataSource?>(nil)

    init(network: ScriptedNetwork) { self.network = network }

    func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
      network.sent.withLock { $0.append(request.url) }
      let memory = MemoryDataSource(data: try network.answer(request).get())
      bytes.withLock { $0 = memory }
      var head = try memory.open(DataRequest(url: request.url))
      head.statusCode = 200
      return head
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
      guard let memory = bytes.value else { throw PlayheadError.notOpen(nil) }
      return try memory.read(into: buffer)
    }

    func close() { bytes.withLock { $0 = nil } }
    func cancel() { bytes.value?.cancel() }
  }
}

/// A loader whose sources refresh through `refresher` over `network`.
private func loader(_ network: ScriptedNetwork, _ refresher: SourceRefresher) -> DataLoader {
  DataLoader(
    factory: DataSourceFactories.decorating(network) {
      RefreshingDataSource(upstream: $0, refresher: refresher)
    })
}

/// Answers 403 for URLs without `fresh` in their query.
private func freshOnly(_ request: DataRequest) -> Result<Data, PlayheadError> {
  if request.url.query?.contains("fresh") == true { return .success(Data("ok".utf8)) }
  return .failure(
    PlayheadError(.httpStatus, "403 for \(request.url)", url: request.url, httpStatusCode: 403))
}

/// Collects the handler's calls.
private final class HandlerLog: @unchecked Sendable {
  private let lock = NSLock()
  private var calls: [ExpiredURLSource] = []
  private var callbacks: [SourceRefreshCallback] = []

  func add(_ expired: ExpiredURLSource, _ callback: SourceRefreshCallback) {
    lock.lock()
    calls.append(expired)
    callbacks.append(callback)
    lock.unlock()
  }

  var expired: [ExpiredURLSource] {
    lock.lock()
    defer { lock.unlock() }
    return calls
  }

  var pending: [SourceRefreshCallback] {
    lock.lock()
    defer { lock.unlock() }
    return callbacks
  }
}

final class SourceRefresherTests: XCTestCase {
  private let segment = URL(string: "https://cdn.example.com/v/segment001.ts?auth_key=old")!

  private func freshURL(_ url: URL, _ n: Int) -> URL {
    URL(string: url.absoluteString.replacingOccurrences(of: "auth_key=old", with: "fresh=\(n)"))!
  }

  func testLoad_with403_asksTheHandlerOnce_andRetriesWithTheFreshURL() throws {
    let log = HandlerLog()
    let refresher = SourceRefresher(
      handler: { expired, callback in
        log.add(expired, callback)
        callback.onSuccess(URL(string: "https://cdn.example.com/v/segment001.ts?fresh=1")!)
      }, sourceURL: URL(string: "https://cdn.example.com/v/index.m3u8"))
    let upstream = ScriptedNetwork(freshOnly)
    let source = loader(upstream, refresher)

    let response = try source.load(
      DataRequest(url: segment, range: ByteRange(offset: 10, length: 20), purpose: .segment))

    XCTAssertEqual(response.data, Data("ok".utf8))
    XCTAssertEqual(log.expired.count, 1)
    XCTAssertEqual(log.expired.first?.url, segment)
    XCTAssertEqual(log.expired.first?.purpose, .segment)
    XCTAssertEqual(log.expired.first?.reason, .httpStatus(403))
    XCTAssertEqual(log.expired.first?.attempt, 1)
    XCTAssertEqual(log.expired.first?.sourceURL?.lastPathComponent, "index.m3u8")
    XCTAssertEqual(upstream.sentURLs.map(\.query), ["auth_key=old", "fresh=1"])
    XCTAssertEqual(refresher.currentURL(for: segment).query, "fresh=1")
    guard case .refreshed(let record)? = refresher.events.first else {
      return XCTFail("no refresh event: \(refresher.events)")
    }
    XCTAssertEqual(record.newURL.query, "fresh=1")

    // The next load of the same resource goes straight to the fresh URL.
    _ = try source.load(DataRequest(url: segment, purpose: .segment))
    XCTAssertEqual(upstream.sentURLs.count, 3)
    XCTAssertEqual(upstream.sentURLs.last?.query, "fresh=1")
    XCTAssertEqual(refresher.handlerCallCount, 1)
  }

  func testLoad_with410_refreshes_butOtherStatusesPassThrough() throws {
    let refresher = SourceRefresher(handler: { _, callback in
      callback.onSuccess(URL(string: "https://cdn.example.com/a.ts?fresh=1")!)
    })
    let upstream = ScriptedNetwork { request in
      if request.url.query == "fresh=1" { return .success(Data([1])) }
      let status = request.url.lastPathComponent == "gone.ts" ? 410 : 404
      return .failure(
        PlayheadError(.httpStatus, "\(status)", url: request.url, httpStatusCode: status))
    }
    let source = loader(upstream, refresher)
    XCTAssertEqual(
      try source.load(DataRequest(url: URL(string: "https://cdn.example.com/gone.ts")!)).data,
      Data([1]))
    let missing = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: URL(string: "https://cdn.example.com/missing.ts")!))
    }
    XCTAssertEqual(missing?.code, .httpStatus)
    XCTAssertEqual(missing?.httpStatusCode, 404)
    XCTAssertEqual(refresher.handlerCallCount, 1)
  }

  func testLoad_withASignatureExpiredByTheClock_refreshesBeforeSending() throws {
    let signer = CDNTypeASigner(key: "secret")
    let wall = LockedBox<Int64>(1_000)
    let options = SourceRefreshOptions(signer: signer, wallClockSeconds: { wall.value })
    let log = HandlerLog()
    let refresher = SourceRefresher(
      handler: { expired, callback in
        log.add(expired, callback)
        callback.onSuccess(try! signer.sign(expired.url, expiry: wall.value + 60))
      }, options: options)
    let upstream = ScriptedNetwork { _ in .success(Data([7])) }
    let source = loader(upstream, refresher)
    let url = try signer.sign(URL(string: "https://cdn.example.com/v/key.bin")!, expiry: 1_010)

    _ = try source.load(DataRequest(url: url, purpose: .key))
    XCTAssertEqual(upstream.sentURLs, [url], "still valid: sent as it is")
    wall.value = 1_011
    _ = try source.load(DataRequest(url: url, purpose: .key))

    XCTAssertEqual(
      log.expired.map(\.reason), [.signatureExpired(expirySeconds: 1_010, nowSeconds: 1_011)])
    XCTAssertEqual(upstream.sentURLs.count, 2, "the expired URL is never sent")
    let sent = try XCTUnwrap(upstream.sentURLs.last)
    XCTAssertTrue(signer.verifies(sent))
    XCTAssertEqual(signer.expiry(of: sent), 1_071)
  }

  func testHugeMarginAndValidity_doNotTrap() throws {
    let signer = CDNTypeASigner(key: "secret")
    let url = try signer.sign(URL(string: "https://cdn.example.com/v/a.ts")!, expiry: 1_010)
    let options = SourceRefreshOptions(
      signer: signer, wallClockSeconds: { 1_000 }, refreshMarginSeconds: .max)
    XCTAssertEqual(
      options.clockExpiry(of: url), .signatureExpired(expirySeconds: 1_010, nowSeconds: 1_000))
    let refresher = SourceRefresher(
      handler: SourceRefresh.resigning(
        with: signer, validitySeconds: .max, wallClockSeconds: { 1_000 }))
    let fresh = try refresher.refresh(
      original: url, expiredURL: url, purpose: .segment, reason: .httpStatus(403))
    XCTAssertEqual(signer.expiry(of: fresh), .max)
  }

  func testOnError_failsTheLoadWithSourceExpired_carryingTheMessage() {
    let refresher = SourceRefresher(handler: { _, callback in
      callback.onError("REFRESH_ERROR:key fail")
    })
    let source = loader(ScriptedNetwork(freshOnly), refresher)
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: segment, purpose: .segment))
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    XCTAssertEqual(error?.category, .source)
    XCTAssertEqual(error?.httpStatusCode, 403)
    XCTAssertTrue(
      error?.message.hasSuffix("REFRESH_ERROR:key fail") ?? false, "\(String(describing: error))")
    guard case .failed(let failure)? = refresher.events.last else {
      return XCTFail("no failure event")
    }
    XCTAssertEqual(failure.reason, .handlerError("REFRESH_ERROR:key fail"))
  }

  func testNoHandler_failsWithSourceExpired() {
    let refresher = SourceRefresher(handler: nil)
    let source = loader(ScriptedNetwork(freshOnly), refresher)
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: segment))
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    guard case .failed(let failure)? = refresher.events.last else { return XCTFail("no event") }
    XCTAssertEqual(failure.reason, .noHandler)
  }

  func testHandlerThatNeverAnswers_timesOutOnTheClock() {
    let clock = ManualClock()
    let log = HandlerLog()
    let options = SourceRefreshOptions(timeoutMs: 5_000)
    let refresher = SourceRefresher(
      handler: { expired, callback in log.add(expired, callback) }, options: options, clock: clock)
    let source = loader(ScriptedNetwork(freshOnly), refresher)
    let segment = self.segment
    let (done, result) = runInBackground("load") {
      try source.load(DataRequest(url: segment, purpose: .segment)).data
    }
    waitUntil("the handler was called") { log.expired.count == 1 }
    clock.advance(by: MediaTime(value: 4, timescale: 1))
    XCTAssertNil(result.value, "still waiting before the timeout")
    clock.advance(by: MediaTime(value: 1, timescale: 1))
    wait(for: [done], timeout: 10)
    guard case .failure(let error)? = result.value else { return XCTFail("expected a failure") }
    XCTAssertEqual(error.code, .sourceExpired)
    XCTAssertTrue(error.message.contains("did not answer"), error.message)
    // A late answer is ignored.
    XCTAssertEqual(log.pending.first?.onSuccess(freshURL(segment, 1)), false)
  }

  func testHandlerReturningExpiredURLs_isBounded() {
    let options = SourceRefreshOptions(maximumAttempts: 3)
    let counter = LockedBox(0)
    let refresher = SourceRefresher(
      handler: { expired, callback in
        counter.value += 1
        callback.onSuccess(
          URL(string: "https://cdn.example.com/v/segment001.ts?auth_key=old&n=\(counter.value)")!)
      }, options: options)
    let upstream = ScriptedNetwork(freshOnly)
    let source = loader(upstream, refresher)
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: segment, purpose: .segment))
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    XCTAssertEqual(refresher.handlerCallCount, 3)
    XCTAssertEqual(upstream.sentURLs.count, 4)
    guard case .failed(let failure)? = refresher.events.last else { return XCTFail("no event") }
    XCTAssertEqual(failure.reason, .tooManyAttempts(3))
  }

  func testAttempts_startAgainAfterASuccessfulLoad() throws {
    let options = SourceRefreshOptions(maximumAttempts: 1)
    let counter = LockedBox(0)
    let refresher = SourceRefresher(
      handler: { _, callback in
        counter.value += 1
        callback.onSuccess(URL(string: "https://cdn.example.com/v/a.ts?fresh=\(counter.value)")!)
      }, options: options)
    let expiredOnce = LockedBox(Set<String>())
    let upstream = ScriptedNetwork { request in
      // Each fresh URL works once, then expires.
      let query = request.url.query ?? ""
      if query.hasPrefix("fresh"), !expiredOnce.value.contains(query) {
        expiredOnce.value.insert(query)
        return .success(Data([1]))
      }
      return .failure(PlayheadError(.httpStatus, "403", url: request.url, httpStatusCode: 403))
    }
    let source = loader(upstream, refresher)
    let url = URL(string: "https://cdn.example.com/v/a.ts")!
    for _ in 0..<4 { _ = try source.load(DataRequest(url: url, purpose: .playlist)) }
    XCTAssertEqual(refresher.handlerCallCount, 4)
  }

  func testConcurrentFailures_ofOneResource_causeOneCallback() {
    let log = HandlerLog()
    let refresher = SourceRefresher(handler: { expired, callback in log.add(expired, callback) })
    let failures = LockedBox(0)
    let upstream = ScriptedNetwork { request in
      if request.url.query?.contains("fresh") == true { return .success(Data([1])) }
      failures.value += 1
      return .failure(PlayheadError(.httpStatus, "403", url: request.url, httpStatusCode: 403))
    }
    let source = loader(upstream, refresher)
    let segment = self.segment
    let loads = (0..<4).map { index in
      runInBackground("load \(index)") {
        try source.load(
          DataRequest(url: segment, range: ByteRange(offset: Int64(index * 100), length: 100)))
      }
    }
    waitUntil("every load failed once") { failures.value == 4 && log.expired.count == 1 }
    log.pending.first?.onSuccess(freshURL(segment, 1))
    wait(for: loads.map(\.done), timeout: 10)
    for load in loads {
      guard case .success(let response)? = load.result.value else {
        return XCTFail("a load failed: \(String(describing: load.result.value))")
      }
      XCTAssertEqual(response.url.query, "fresh=1")
    }
    XCTAssertEqual(refresher.handlerCallCount, 1)
    XCTAssertEqual(log.expired.count, 1)
  }

  func testCallback_answeredLaterFromAnotherThread_isUsed_andAnsweredOnlyOnce() throws {
    let refresher = SourceRefresher(handler: { expired, callback in
      DispatchQueue.global().async {
        XCTAssertTrue(
          callback.onSuccess(
            URL(
              string: expired.url.absoluteString.replacingOccurrences(
                of: "auth_key=old", with: "fresh=2"))!))
        XCTAssertFalse(callback.onError("too late"))
        XCTAssertTrue(callback.isCompleted)
      }
    })
    let source = loader(ScriptedNetwork(freshOnly), refresher)
    XCTAssertEqual(try source.load(DataRequest(url: segment)).url.query, "fresh=2")
  }

  func testCancelAll_endsAWaitingRefreshWithCancelled() {
    let log = HandlerLog()
    let refresher = SourceRefresher(handler: { expired, callback in log.add(expired, callback) })
    let source = loader(ScriptedNetwork(freshOnly), refresher)
    let segment = self.segment
    let (done, result) = runInBackground("load") { try source.load(DataRequest(url: segment)).data }
    waitUntil("the handler was called") { log.expired.count == 1 }
    source.cancelAll()
    wait(for: [done], timeout: 10)
    guard case .failure(let error)? = result.value else { return XCTFail("expected a failure") }
    XCTAssertEqual(error.code, .cancelled)
  }

  func testResigningHandler_signsTheExpiredURLAgain() throws {
    let signer = CDNTypeASigner(key: "secret")
    let handler = SourceRefresh.resigning(
      with: signer, validitySeconds: 3600, wallClockSeconds: { 5_000 })
    let refresher = SourceRefresher(handler: handler)
    let old = try signer.sign(
      URL(string: "https://cdn.example.com/v/index.m3u8?x=1")!, expiry: 4_000)
    let fresh = try refresher.refresh(
      original: old, expiredURL: old, purpose: .playlist, reason: .httpStatus(403))
    XCTAssertTrue(signer.verifies(fresh))
    XCTAssertEqual(signer.expiry(of: fresh), 8_600)
    XCTAssertEqual(fresh.query?.hasPrefix("x=1&auth_key=8600-0-0-"), true, "\(fresh)")

    let keyless = SourceRefresher(
      handler: SourceRefresh.resigning(with: CDNTypeASigner(key: ""), validitySeconds: 10))
    let error = playheadError { () throws(PlayheadError) in
      try keyless.refresh(
        original: old, expiredURL: old, purpose: .playlist, reason: .httpStatus(403))
    }
    XCTAssertEqual(error?.code, .sourceExpired)
    XCTAssertTrue(error?.message.contains("REFRESH_ERROR") ?? false)
  }
}
