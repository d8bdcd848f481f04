import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTesting
import XCTest

/// Transfer timing, progress, faults and cancellation of `SimulatedNetwork` and its
/// `SimulatedDataSource`s, all on `ManualClock`, so every time is exact.
final class SimulatedNetworkTests: XCTestCase {
  private let url = URL(string: "https://sim.example/seg1.ts")!

  private func network(
    _ trace: NetworkTrace, bytes: Int, clock: ManualClock, timeoutMs: Int = 10_000,
    progressIntervalBytes: Int = 64 * 1024, progressIntervalMs: Double? = nil
  ) -> SimulatedNetwork {
    SimulatedNetwork(
      resources: [url: generatedBytes(count: bytes)], trace: trace, clock: clock,
      configuration: RequestConfiguration(timeoutMs: timeoutMs),
      progressIntervalBytes: progressIntervalBytes, progressIntervalMs: progressIntervalMs)
  }

  /// 800 kbps (100,000 B/s) for 1 s with 100 ms latency, then 1,600 kbps for 1 s.
  private func twoPeriods() throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 800, latencyMs: 100),
      .init(durationMs: 1_000, bandwidthKbps: 1_600, latencyMs: 10),
    ])
  }

  /// 8,000 kbps for 1 s, then an outage of 3 s.
  private func outage() throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 8_000),
      .init(durationMs: 3_000, bandwidthKbps: 0),
    ])
  }

  /// Each report as [bytes loaded, whole milliseconds since the request].
  private func steps(_ recorder: ProgressRecorder) -> [[Int]] {
    recorder.reports.map { [$0.bytesLoaded, Int($0.elapsed.nanoseconds! / 1_000_000)] }
  }

  func testLoad_constantNetwork_takesLatencyPlusBytesOverBandwidth() throws {
    let clock = ManualClock(advancesOnWait: true)
    // 8,000 kbps = 1,000,000 bytes per second.
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 50), bytes: 1_000_000, clock: clock)
    let response = try network.load(DataRequest(url: url))
    XCTAssertEqual(response.data, generatedBytes(count: 1_000_000))
    XCTAssertEqual(response.statusCode, 200)
    XCTAssertEqual(response.startClock, .zero)
    XCTAssertEqual(response.endClock, ms(1_050))
    XCTAssertEqual(clock.now, ms(1_050))
  }

  func testOpen_waitsTheLatency_andTheHeadTellsTheLengths() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 30), bytes: 10_000, clock: clock)
    let source = network.makeDataSource()
    let head = try source.open(
      DataRequest(url: url, range: ByteRange(offset: 9_000, length: 5_000)))
    XCTAssertEqual(clock.now, ms(30))
    XCTAssertEqual(head.statusCode, 206)
    XCTAssertEqual(head.length, 1_000)
    XCTAssertEqual(head.totalLength, 10_000)
    XCTAssertEqual(try drain(source), generatedBytes(count: 10_000).subdata(in: 9_000..<10_000))
    XCTAssertEqual(clock.now, ms(31))
  }

  func testLoad_acrossAPeriodBoundary_usesEachPeriodsBandwidth() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(try twoPeriods(), bytes: 250_000, clock: clock)
    // Latency 100 ms; 90,000 bytes in the 900 ms left of period 1; 160,000 at 200,000 B/s.
    let response = try network.load(DataRequest(url: url))
    XCTAssertEqual(response.duration, ms(1_800))
    XCTAssertEqual(clock.now, ms(1_800))
  }

  func testLoad_afterTheTraceEnds_repeatsItFromTheStart() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(try twoPeriods(), bytes: 30_000, clock: clock)
    clock.advance(to: ms(4_500))
    // 4.5 s is 0.5 s into period 1 of the second repeat: 100 ms latency, then 300 ms.
    let response = try network.load(DataRequest(url: url))
    XCTAssertEqual(response.startClock, ms(4_500))
    XCTAssertEqual(response.endClock, ms(4_900))
  }

  func testLoad_traceStart_shiftsThePeriods() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = SimulatedNetwork(
      resources: [url: Data(count: 20_000)], trace: try twoPeriods(), clock: clock,
      traceStart: ms(-1_000))
    // At clock 0 the trace is 1 s in: period 2, 10 ms latency, 20,000 B at 200,000 B/s.
    XCTAssertEqual(try network.load(DataRequest(url: url)).endClock, ms(110))
  }

  func testReads_returnEveryIntervalOfBytes_andAtPeriodBoundaries() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      try twoPeriods(), bytes: 250_000, clock: clock, progressIntervalBytes: 50_000)
    let recorder = ProgressRecorder()
    _ = try network.load(DataRequest(url: url), progress: recorder.callback)
    // 50,000 bytes by 0.6 s; 90,000 at the boundary (1 s); then 50,000 every 0.25 s, and
    // the last 10,000 by 1.8 s.
    XCTAssertEqual(
      steps(recorder),
      [
        [50_000, 600], [90_000, 1_000], [140_000, 1_250], [190_000, 1_500], [240_000, 1_750],
        [250_000, 1_800],
      ])
    XCTAssertTrue(recorder.reports.allSatisfy { $0.bytesExpected == 250_000 })
    XCTAssertTrue(recorder.reports.allSatisfy { $0.timeToFirstByte == ms(100) })
  }

  func testReads_withATimeInterval_returnAtEachTimedReport() throws {
    let clock = ManualClock(advancesOnWait: true)
    // 100,000 B/s: 10,000 bytes per 100 ms report, well before the byte interval.
    let network = network(
      .constant(bandwidthKbps: 800), bytes: 35_000, clock: clock, progressIntervalBytes: 1_000_000,
      progressIntervalMs: 100)
    let recorder = ProgressRecorder()
    _ = try network.load(DataRequest(url: url), progress: recorder.callback)
    XCTAssertEqual(
      steps(recorder), [[10_000, 100], [20_000, 200], [30_000, 300], [35_000, 350]])
  }

  func testLoad_abandonedByProgress_stopsTheClockAtTheAbandonPoint() throws {
    let clock = ManualClock(advancesOnWait: true)
    let listener = RecordingListener()
    let network = SimulatedNetwork(
      resources: [url: Data(count: 1_000_000)], trace: .constant(bandwidthKbps: 800), clock: clock,
      progressIntervalBytes: 50_000)
    let loader = DataLoader(factory: network, clock: clock, transferListener: listener)
    let recorder = ProgressRecorder { $0.elapsed < ms(1_000) }
    let error = playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: url), progress: recorder.callback)
    }
    XCTAssertEqual(error?.code, .cancelled)
    // 100,000 B/s: the report at 1 s (100,000 bytes) is the one that abandons.
    XCTAssertEqual(recorder.reports.last?.bytesLoaded, 100_000)
    XCTAssertEqual(clock.now, ms(1_000))
    XCTAssertTrue(listener.transfers.isEmpty)
    let entry = try XCTUnwrap(network.requestLog.last)
    // The loader closed the transfer there: the network logs a close, not a failure.
    XCTAssertEqual(entry.endClock, ms(1_000))
    XCTAssertEqual(entry.bytes, 100_000)
    XCTAssertNil(entry.error)
  }

  func testLoad_onATestDrivenClock_finishesWhenTheClockReachesTheTransferEnd() throws {
    let clock = ManualClock()
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 50), bytes: 1_000_000, clock: clock)
    let request = DataRequest(url: url)
    let run = runInBackground("load") { try network.load(request) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(clock.nextBlockedDeadline, ms(50), "the latency")
    clock.advance(by: ms(500))
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertNil(network.requestLog[0].endClock)
    XCTAssertGreaterThan(network.requestLog[0].bytes, 0)
    // Jumping past the end still yields the exact transfer end in the network's log; the
    // loader reads the clock when its thread runs again.
    clock.advance(to: ms(5_000))
    wait(for: [run.done], timeout: 10)
    let response = try XCTUnwrap(run.result.value).get()
    XCTAssertEqual(response.data.count, 1_000_000)
    XCTAssertEqual(network.requestLog[0].endClock, ms(1_050))
    XCTAssertEqual(response.endClock, ms(5_000))
  }

  func testCancelAll_wakesATransferBlockedOnTheClock_andLaterOnesFail() throws {
    let clock = ManualClock()
    let network = network(.constant(bandwidthKbps: 800), bytes: 1_000_000, clock: clock)
    let url = self.url
    let run = runInBackground("load") { try network.load(DataRequest(url: url)) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    network.cancelAll()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertEqual(clock.now, .zero)
    let later = playheadError { () throws(PlayheadError) in
      try network.load(DataRequest(url: url))
    }
    XCTAssertEqual(later?.code, .cancelled)
    XCTAssertEqual(network.requestLog.count, 1, "a cancelled network starts no transfer")
  }

  func testCancel_ofOneSource_leavesTheOthersAlone() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(.constant(bandwidthKbps: 8_000), bytes: 1_000, clock: clock)
    let cancelled = network.makeDataSource()
    cancelled.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in
        try cancelled.open(DataRequest(url: self.url))
      }?.code, .cancelled)
    XCTAssertEqual(try network.load(DataRequest(url: url)).data.count, 1_000)
  }

  func testLoad_zeroBandwidthLongerThanTheTimeout_timesOutOnTheClock() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(try outage(), bytes: 1_500_000, clock: clock, timeoutMs: 2_000)
    let error = playheadError { () throws(PlayheadError) in
      try network.load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(
      error?.message, "no data from \(url.absoluteString) for 2000 ms after 1000000 bytes")
    // 1,000,000 bytes by 1 s, then nothing: the timeout fires at 3 s.
    XCTAssertEqual(clock.now, ms(3_000))
    XCTAssertEqual(network.requestLog.last?.error?.code, .timedOut)
    XCTAssertEqual(network.requestLog.last?.bytes, 1_000_000)
  }

  func testLoad_zeroBandwidthShorterThanTheTimeout_waitsItOut() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(try outage(), bytes: 1_500_000, clock: clock, timeoutMs: 5_000)
    let recorder = ProgressRecorder()
    let response = try network.load(DataRequest(url: url), progress: recorder.callback)
    // The outage lasts until 4 s; the trace repeats and the last 500,000 bytes take 0.5 s.
    XCTAssertEqual(response.endClock, ms(4_500))
    // No read returns during the outage: the bytes after it come at 4 s at the earliest.
    XCTAssertFalse(
      recorder.reports.contains { $0.elapsed > ms(1_000) && $0.elapsed < ms(4_000) },
      "\(steps(recorder))")
    XCTAssertEqual(recorder.reports.last?.bytesLoaded, 1_500_000)
  }

  func testLoad_latencyAtLeastTheTimeout_timesOutAtTheTimeout() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 3_000), bytes: 10, clock: clock, timeoutMs: 2_000)
    let error = playheadError { () throws(PlayheadError) in
      try network.load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(
      error?.message, "no answer from \(url.absoluteString) within 2000 ms")
    XCTAssertEqual(clock.now, ms(2_000))
  }

  func testLoad_missingResourceAndRangePastTheEnd_failAfterTheLatency() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(.constant(bandwidthKbps: 8_000, latencyMs: 70), bytes: 100, clock: clock)
    let other = URL(string: "https://sim.example/other.ts")!
    let missing = playheadError { () throws(PlayheadError) in
      try network.load(DataRequest(url: other))
    }
    XCTAssertEqual(missing?.code, .httpStatus)
    XCTAssertEqual(missing?.httpStatusCode, 404)
    XCTAssertEqual(missing?.message, "HTTP 404 Not Found for https://sim.example/other.ts")
    XCTAssertEqual(clock.now, ms(70))
    let past = playheadError { () throws(PlayheadError) in
      try network.load(DataRequest(url: url, range: ByteRange(offset: 100, length: 5)))
    }
    XCTAssertEqual(past?.httpStatusCode, 416)
    XCTAssertEqual(clock.now, ms(140))
    XCTAssertEqual(network.requestLog.map(\.error?.httpStatusCode), [404, 416])
  }

  func testFail_scriptedErrors_failTheNextLoadsThenServe() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 20), bytes: 1_000, clock: clock, timeoutMs: 4_000)
    network.fail(url, with: PlayheadError(.httpStatus, "HTTP 503", httpStatusCode: 503), times: 2)
    network.fail(url, with: PlayheadError(.timedOut, "dead"))
    network.fail(url, with: PlayheadError(.connectionFailed, "reset"), afterMs: 7)
    network.fail(url, with: PlayheadError(.connectionFailed, "never"), times: 0)
    var outcomes: [PlayheadError.Code] = []
    var times: [MediaTime] = []
    for _ in 0..<5 {
      do {
        _ = try network.load(DataRequest(url: url))
        outcomes.append(.invalidState)
      } catch {
        outcomes.append(error.code)
        XCTAssertEqual(error.url, url)
      }
      times.append(clock.now)
    }
    XCTAssertEqual(
      outcomes, [.httpStatus, .httpStatus, .timedOut, .connectionFailed, .invalidState])
    // Status errors take the latency, a timeout the timeout, `afterMs` its own time; the
    // successful load takes 20 ms latency plus 1 ms for 1,000 bytes.
    XCTAssertEqual(times, [ms(20), ms(40), ms(4_040), ms(4_047), ms(4_068)])
  }

  func testFail_clearFaults_forgetsTheScript() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(.constant(bandwidthKbps: 8_000), bytes: 1_000, clock: clock)
    network.fail(url, with: PlayheadError(.connectionFailed, "reset"), times: 3)
    network.clearFaults()
    XCTAssertEqual(try network.load(DataRequest(url: url)).data.count, 1_000)
  }

  func testRequestLog_recordsRequestsWithClockTimes() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      .constant(bandwidthKbps: 8_000, latencyMs: 10), bytes: 10_000, clock: clock)
    _ = try network.load(
      DataRequest(url: url, range: ByteRange(offset: 0, length: 5_000), purpose: .segment))
    _ = try network.load(DataRequest(url: url, purpose: .playlist))
    let log = network.requestLog
    XCTAssertEqual(log.map(\.request.purpose), [.segment, .playlist])
    XCTAssertEqual(log.map(\.startClock), [.zero, ms(15)])
    XCTAssertEqual(log.map(\.endClock), [ms(15), ms(35)])
    XCTAssertEqual(log.map(\.bytes), [5_000, 10_000])
    XCTAssertTrue(log.allSatisfy { $0.error == nil })
    network.clearRequestLog()
    XCTAssertTrue(network.requestLog.isEmpty)
  }

  func testRequestLog_aTransferClosedEarly_endsWhereItWasClosed() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(
      .constant(bandwidthKbps: 8_000), bytes: 1_000_000, clock: clock,
      progressIntervalBytes: 100_000)
    let source = network.makeDataSource()
    _ = try source.open(DataRequest(url: url))
    XCTAssertEqual(try drain(source, chunk: 100_000, limit: 200_000).count, 200_000)
    XCTAssertNil(network.requestLog[0].endClock, "still open")
    source.close()
    XCTAssertEqual(network.requestLog[0].endClock, ms(200))
    XCTAssertEqual(network.requestLog[0].bytes, 200_000)
  }

  func testResources_canBeReplacedWhileTheNetworkLives() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = SimulatedNetwork(trace: .constant(bandwidthKbps: 8_000), clock: clock)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try network.load(DataRequest(url: url)) }?
        .httpStatusCode,
      404)
    network.setResource(Data([1, 2, 3]), for: url)
    XCTAssertEqual(try network.load(DataRequest(url: url)).data, Data([1, 2, 3]))
    network.resources = [url: Data([4])]
    XCTAssertEqual(try network.load(DataRequest(url: url)).data, Data([4]))
    network.setResource(nil, for: url)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try network.load(DataRequest(url: url)) }?
        .httpStatusCode,
      404)
  }

  func testListener_ofALoader_getsTheBytesAndTheExactDuration() throws {
    let clock = ManualClock(advancesOnWait: true)
    let listener = RecordingListener()
    let network = network(try twoPeriods(), bytes: 250_000, clock: clock)
    let loader = DataLoader(factory: network, clock: clock, transferListener: listener)
    _ = try loader.load(DataRequest(url: url, purpose: .segment))
    XCTAssertEqual(listener.transfers, [.init(url: url, bytes: 250_000, duration: ms(1_800))])
  }
}
