import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Retries of opens on the clock: deterministic ones over a `SimulatedNetwork` on
/// `ManualClock`, and a few against the real test server. (Resuming broken reads:
/// `RetryingDataSourceResumeTests`.)
final class RetryingDataSourceTests: XCTestCase {
  private let url = URL(string: "https://sim.example/seg.ts")!

  private final class RetryLog: @unchecked Sendable {
    // Unchecked Sendable: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [RetryingDataSource.Retry] = []
    func add(_ retry: RetryingDataSource.Retry) {
      lock.lock()
      entries.append(retry)
      lock.unlock()
    }
    var retries: [RetryingDataSource.Retry] {
      lock.lock()
      defer { lock.unlock() }
      return entries
    }
  }

  private func simulated(
    _ configuration: RequestConfiguration, clock: ManualClock, latencyMs: Double = 20
  ) -> SimulatedNetwork {
    SimulatedNetwork(
      resources: [url: generatedBytes(count: 1_000)],
      trace: .constant(bandwidthKbps: 8_000, latencyMs: latencyMs), clock: clock,
      configuration: configuration)
  }

  /// A loader whose sources retry over `network`.
  private func loader(
    _ network: SimulatedNetwork, _ configuration: RequestConfiguration = .init(),
    policy: any LoadErrorHandlingPolicy = DefaultLoadErrorHandlingPolicy(), clock: ManualClock,
    onRetry: (@Sendable (RetryingDataSource.Retry) -> Void)? = nil
  ) -> DataLoader {
    let factory = DataSourceFactories.decorating(network) {
      RetryingDataSource(
        upstream: $0, configuration: configuration, policy: policy, clock: clock,
        onRetry: onRetry)
    }
    return DataLoader(factory: factory, clock: clock)
  }

  func testLoad_deadServer_failsAfterTimeoutTimesAttemptsPlusTheDelays() throws {
    let configuration = RequestConfiguration(timeoutMs: 2_000, retryCount: 3)
    let clock = ManualClock(advancesOnWait: true)
    let upstream = simulated(configuration, clock: clock)
    upstream.fail(url, with: PlayheadError(.timedOut, "no answer"), times: .max)
    let log = RetryLog()
    let source = loader(upstream, configuration, clock: clock, onRetry: log.add)
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: url, purpose: .segment))
    }
    XCTAssertEqual(error?.code, .timedOut)
    // 4 attempts of 2 s, and delays of 0.5 s, 1 s and 2 s (the backoff, capped by the timeout).
    XCTAssertEqual(clock.now, ms(4 * 2_000 + 500 + 1_000 + 2_000))
    XCTAssertEqual(upstream.requestLog.map(\.startClock), [ms(0), ms(2_500), ms(5_500), ms(9_500)])
    XCTAssertEqual(log.retries.map(\.attempt), [1, 2, 3])
    XCTAssertEqual(log.retries.map(\.delay), [ms(500), ms(1_000), ms(2_000)])
    XCTAssertTrue(log.retries.allSatisfy { $0.error.code == .timedOut && $0.request.url == url })
  }

  func testLoad_spacedByTimeout_waitsTheTimeoutBetweenAttempts() throws {
    let configuration = RequestConfiguration.spacedByTimeout(timeoutMs: 1_000, retryCount: 2)
    let clock = ManualClock(advancesOnWait: true)
    let upstream = simulated(configuration, clock: clock)
    upstream.fail(url, with: PlayheadError(.timedOut, "no answer"), times: .max)
    let source = loader(upstream, configuration, clock: clock)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.load(DataRequest(url: url)) }?.code,
      .timedOut)
    XCTAssertEqual(clock.now, ms(3 * 1_000 + 2 * 1_000))
  }

  func testLoad_failingTwiceThenServing_succeedsOnTheThirdAttempt() throws {
    let configuration = RequestConfiguration(retryCount: 3, retryBaseDelayMs: 100)
    let clock = ManualClock(advancesOnWait: true)
    let upstream = simulated(configuration, clock: clock)
    upstream.fail(url, with: PlayheadError(.httpStatus, "HTTP 503", httpStatusCode: 503), times: 2)
    let source = loader(upstream, configuration, clock: clock)
    let response = try source.load(DataRequest(url: url))
    XCTAssertEqual(response.data, generatedBytes(count: 1_000))
    // 20 ms per failed answer, 100 ms and 200 ms of delay, then 20 ms + 1 ms for the body.
    XCTAssertEqual(upstream.requestLog.map(\.startClock), [ms(0), ms(120), ms(340)])
    XCTAssertEqual(upstream.requestLog.map(\.error?.httpStatusCode), [503, 503, nil])
    XCTAssertEqual(response.startClock, .zero, "the load's clock includes the retries")
    XCTAssertEqual(response.endClock, ms(361))
    XCTAssertEqual(clock.now, ms(361))
  }

  func testLoad_clientErrorOrNoRetries_failsAtOnce() throws {
    let clock = ManualClock(advancesOnWait: true)
    let configuration = RequestConfiguration(retryCount: 3)
    let upstream = simulated(configuration, clock: clock)
    let source = loader(upstream, configuration, clock: clock)
    let missing = URL(string: "https://sim.example/missing.ts")!
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.load(DataRequest(url: missing)) }?
        .httpStatusCode, 404)
    XCTAssertEqual(upstream.requestLog.count, 1)

    let none = RequestConfiguration(retryCount: 0)
    let plain = simulated(none, clock: clock)
    plain.fail(url, with: PlayheadError(.connectionFailed, "refused"), times: 5)
    let noRetries = loader(plain, none, clock: clock)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try noRetries.load(DataRequest(url: url)) }?.code,
      .connectionFailed)
    XCTAssertEqual(plain.requestLog.count, 1)
  }

  func testLoad_abandonedByProgress_isNotRetried() throws {
    let clock = ManualClock(advancesOnWait: true)
    let configuration = RequestConfiguration(retryCount: 3)
    let upstream = simulated(configuration, clock: clock)
    let source = loader(upstream, configuration, clock: clock)
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: url), progress: { _ in false })
    }
    XCTAssertEqual(error?.code, .cancelled)
    XCTAssertEqual(upstream.requestLog.count, 1)
  }

  /// A network that refuses every request at once, and settings that wait a minute before
  /// each retry.
  private func refusingForAMinute(_ clock: ManualClock) -> (SimulatedNetwork, RequestConfiguration)
  {
    let configuration = RequestConfiguration(
      timeoutMs: 60_000, retryCount: 3, retryBaseDelayMs: 60_000, retryMaxDelayMs: 60_000)
    let network = simulated(configuration, clock: clock, latencyMs: 0)
    network.fail(url, with: PlayheadError(.connectionFailed, "refused"), times: .max, afterMs: 0)
    return (network, configuration)
  }

  func testCancel_duringTheDelay_wakesTheOpenAtOnce_andReachesTheUpstream() throws {
    let clock = ManualClock()
    let (network, configuration) = refusingForAMinute(clock)
    let log = RetryLog()
    let upstream = network.makeDataSource()
    let source = RetryingDataSource(
      upstream: upstream, configuration: configuration, clock: clock, onRetry: log.add)
    let url = self.url
    let run = runInBackground("open") { try source.open(DataRequest(url: url)) }
    // The failed attempt took no clock time; the delay before the retry is the one wait.
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(clock.nextBlockedDeadline, ms(60_000))
    XCTAssertEqual(log.retries.map(\.attempt), [1])
    source.cancel()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertEqual(network.requestLog.count, 1)
    XCTAssertEqual(clock.now, .zero)
    let later = playheadError { () throws(PlayheadError) in try upstream.open(DataRequest(url: url))
    }
    XCTAssertEqual(later?.code, .cancelled, "cancel reaches the upstream source")
  }

  func testCancelAll_ofALoader_wakesALoadWaitingForItsRetry() throws {
    let clock = ManualClock()
    let (network, configuration) = refusingForAMinute(clock)
    let loader = loader(network, configuration, clock: clock)
    let url = self.url
    let run = runInBackground("load") { try loader.load(DataRequest(url: url)) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    loader.cancelAll()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertEqual(network.requestLog.count, 1)
  }

  func testLoad_customPolicy_decidesTheDelays() throws {
    struct EveryErrorTwice: LoadErrorHandlingPolicy {
      func retryDelay(
        for error: PlayheadError, request: DataRequest, attempt: Int,
        configuration: RequestConfiguration
      ) -> MediaTime? {
        attempt <= 2 ? ms(Int64(attempt) * 7) : nil
      }
      func shouldFailOver(for error: PlayheadError, request: DataRequest) -> Bool { false }
    }
    let clock = ManualClock(advancesOnWait: true)
    let upstream = simulated(.init(), clock: clock, latencyMs: 0)
    upstream.fail(
      url, with: PlayheadError(.httpStatus, "HTTP 404", httpStatusCode: 404), times: .max)
    let source = loader(upstream, policy: EveryErrorTwice(), clock: clock)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try source.load(DataRequest(url: url)) }?.code,
      .httpStatus)
    XCTAssertEqual(upstream.requestLog.map(\.startClock), [ms(0), ms(7), ms(21)])
    XCTAssertEqual(
      EveryErrorTwice().exclusionDuration(
        for: PlayheadError(.timedOut, ""), request: DataRequest(url: url)), ms(60_000))
  }

  // MARK: Real HTTP

  func testLoad_hangingHTTPServer_failsAfterEveryAttemptTimedOut() throws {
    let server = HTTPTestServer(files: ["/seg.ts": Data(count: 10)], faults: ["/seg.ts": .hang])
    try server.start()
    addTeardownBlock { server.stop() }
    let configuration = RequestConfiguration(
      timeoutMs: 200, retryCount: 2, retryBaseDelayMs: 50, retryMaxDelayMs: 1_000)
    let source = DataLoader(
      source: RetryingDataSource(
        upstream: HTTPDataSource(configuration: configuration), configuration: configuration))
    let started = HostClock.shared.now
    let error = playheadError { () throws(PlayheadError) in
      try source.load(DataRequest(url: server.url("/seg.ts")))
    }
    let elapsed = HostClock.shared.now - started
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(server.requestCount(for: "/seg.ts"), 3)
    // Three timeouts of 200 ms and delays of 50 ms and 100 ms cannot take less.
    XCTAssertGreaterThanOrEqual(elapsed, ms(3 * 200 + 50 + 100))
    XCTAssertLessThan(elapsed, ms(10_000))
  }

  func testLoad_httpServerFailingTwice_isRetriedAndServes() throws {
    let body = generatedBytes(count: 50_000)
    let server = HTTPTestServer(
      files: ["/seg.ts": body], faults: ["/seg.ts": .failTimes(2, status: 503)])
    try server.start()
    addTeardownBlock { server.stop() }
    let configuration = RequestConfiguration(retryCount: 3, retryBaseDelayMs: 10)
    let source = DataLoader(
      source: RetryingDataSource(
        upstream: HTTPDataSource(configuration: configuration), configuration: configuration))
    XCTAssertEqual(try source.load(DataRequest(url: server.url("/seg.ts"))).data, body)
    XCTAssertEqual(server.requestCount(for: "/seg.ts"), 3)
  }
}
