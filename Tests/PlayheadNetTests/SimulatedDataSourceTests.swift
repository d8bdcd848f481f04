import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTesting
import XCTest

/// Transfer timing, progress, faults and cancellation of `SimulatedDataSource`, all on
/// `ManualClock`, so every time is exact.
final class SimulatedDataSourceTests: XCTestCase {
  private let url = URL(string: "https://sim.example/seg1.ts")!

  private func source(
    _ trace: NetworkTrace, bytes: Int, clock: ManualClock, timeoutMs: Int = 10_000,
    listener: RecordingListener? = nil
  ) -> SimulatedDataSource {
    SimulatedDataSource(
      resources: [url: generatedBytes(count: bytes)], trace: trace, clock: clock,
      configuration: RequestConfiguration(timeoutMs: timeoutMs), transferListener: listener)
  }

  /// 800 kbps (100,000 B/s) for 1 s with 100 ms latency, then 1,600 kbps for 1 s.
  private func twoPeriods() throws -> NetworkTrace {
    try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 800, latencyMs: 100),
      .init(durationMs: 1_000, bandwidthKbps: 1_600, latencyMs: 10),
    ])
  }

  func testLoad_constantNetwork_takesLatencyPlusBytesOverBandwidth() throws {
    let clock = ManualClock(advancesOnWait: true)
    // 8,000 kbps = 1,000,000 bytes per second.
    let simulated = source(
      .constant(bandwidthKbps: 8_000, latencyMs: 50), bytes: 1_000_000, clock: clock)
    let response = try simulated.load(DataRequest(url: url))
    XCTAssertEqual(response.data, generatedBytes(count: 1_000_000))
    XCTAssertEqual(response.startClock, .zero)
    XCTAssertEqual(response.endClock, ms(1_050))
    XCTAssertEqual(clock.now, ms(1_050))
  }

  func testLoad_acrossAPeriodBoundary_usesEachPeriodsBandwidth() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(try twoPeriods(), bytes: 250_000, clock: clock)
    // Latency 100 ms; 90,000 bytes in the 900 ms left of period 1; 160,000 at 200,000 B/s.
    let response = try simulated.load(DataRequest(url: url))
    XCTAssertEqual(response.duration, ms(1_800))
    XCTAssertEqual(clock.now, ms(1_800))
  }

  func testLoad_afterTheTraceEnds_repeatsItFromTheStart() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(try twoPeriods(), bytes: 30_000, clock: clock)
    clock.advance(to: ms(4_500))
    // 4.5 s is 0.5 s into period 1 of the second repeat: 100 ms latency, then 300 ms.
    let response = try simulated.load(DataRequest(url: url))
    XCTAssertEqual(response.startClock, ms(4_500))
    XCTAssertEqual(response.endClock, ms(4_900))
  }

  func testLoad_traceStart_shiftsThePeriods() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = SimulatedDataSource(
      resources: [url: Data(count: 20_000)], trace: try twoPeriods(), clock: clock,
      traceStart: ms(-1_000))
    // At clock 0 the trace is 1 s in: period 2, 10 ms latency, 20,000 B at 200,000 B/s.
    XCTAssertEqual(try simulated.load(DataRequest(url: url)).endClock, ms(110))
  }

  func testLoad_progress_comesEveryIntervalAndAtPeriodBoundaries() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = SimulatedDataSource(
      resources: [url: Data(count: 250_000)], trace: try twoPeriods(), clock: clock,
      progressIntervalBytes: 100_000)
    let recorder = ProgressRecorder()
    _ = try simulated.load(DataRequest(url: url), progress: recorder.callback)
    let reports = recorder.reports.map {
      [$0.bytesLoaded, Int($0.elapsed.nanoseconds! / 1_000_000)]
    }
    // 90,000 bytes at the boundary (1 s), 100,000 at 1.05 s, 200,000 at 1.55 s, all at 1.8 s.
    XCTAssertEqual(
      reports, [[90_000, 1_000], [100_000, 1_050], [200_000, 1_550], [250_000, 1_800]])
    XCTAssertTrue(recorder.reports.allSatisfy { $0.bytesExpected == 250_000 })
  }

  func testLoad_abandonedByProgress_stopsTheClockAtTheAbandonPoint() throws {
    let clock = ManualClock(advancesOnWait: true)
    let listener = RecordingListener()
    let simulated = SimulatedDataSource(
      resources: [url: Data(count: 1_000_000)], trace: .constant(bandwidthKbps: 800), clock: clock,
      transferListener: listener, progressIntervalBytes: 50_000)
    let recorder = ProgressRecorder { $0.elapsed < ms(1_000) }
    let error = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: url), progress: recorder.callback)
    }
    XCTAssertEqual(error?.code, .cancelled)
    // 100,000 B/s: the report at 1 s (100,000 bytes) is the one that abandons.
    XCTAssertEqual(recorder.reports.last?.bytesLoaded, 100_000)
    XCTAssertEqual(clock.now, ms(1_000))
    XCTAssertTrue(listener.transfers.isEmpty)
    let entry = try XCTUnwrap(simulated.requestLog.last)
    XCTAssertEqual(entry.endClock, ms(1_000))
    XCTAssertEqual(entry.bytes, 100_000)
    XCTAssertEqual(entry.error?.code, .cancelled)
  }

  func testLoad_onATestDrivenClock_finishesWhenTheClockReachesTheTransferEnd() throws {
    let clock = ManualClock()
    let simulated = source(
      .constant(bandwidthKbps: 8_000, latencyMs: 50), bytes: 1_000_000, clock: clock)
    let request = DataRequest(url: url)
    let run = runInBackground("load") { try simulated.load(request) }
    waitUntil("the load started") { simulated.requestLog.count == 1 }
    clock.advance(by: ms(500))
    XCTAssertNil(simulated.requestLog[0].endClock)
    // Jumping past the end still yields the exact transfer end.
    clock.advance(to: ms(5_000))
    wait(for: [run.done], timeout: 10)
    let response = try XCTUnwrap(run.result.value).get()
    XCTAssertEqual(response.endClock, ms(1_050))
    XCTAssertEqual(simulated.requestLog[0].endClock, ms(1_050))
  }

  func testCancelAll_wakesALoadBlockedOnTheClock() throws {
    let clock = ManualClock()
    let simulated = source(.constant(bandwidthKbps: 800), bytes: 1_000_000, clock: clock)
    let url = self.url
    let run = runInBackground("load") { try simulated.load(DataRequest(url: url)) }
    waitUntil("the load started") { simulated.requestLog.count == 1 }
    simulated.cancelAll()
    wait(for: [run.done], timeout: 10)
    guard case .failure(let error)? = run.result.value else {
      return XCTFail("the load did not fail")
    }
    XCTAssertEqual(error.code, .cancelled)
    XCTAssertEqual(clock.now, .zero)
    let later = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: url))
    }
    XCTAssertEqual(later?.code, .cancelled)
  }

  func testLoad_zeroBandwidthLongerThanTheTimeout_timesOutOnTheClock() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 8_000),
      .init(durationMs: 3_000, bandwidthKbps: 0),
    ])
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(trace, bytes: 1_500_000, clock: clock, timeoutMs: 2_000)
    let error = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(
      error?.message, "no data from \(url.absoluteString) for 2000 ms after 1000000 bytes")
    // 1,000,000 bytes by 1 s, then nothing: the timeout fires at 3 s.
    XCTAssertEqual(clock.now, ms(3_000))
  }

  func testLoad_zeroBandwidthShorterThanTheTimeout_waitsItOut() throws {
    let trace = try NetworkTrace(periods: [
      .init(durationMs: 1_000, bandwidthKbps: 8_000),
      .init(durationMs: 3_000, bandwidthKbps: 0),
    ])
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(trace, bytes: 1_500_000, clock: clock, timeoutMs: 5_000)
    let recorder = ProgressRecorder()
    let response = try simulated.load(DataRequest(url: url), progress: recorder.callback)
    // The outage lasts until 4 s; the trace repeats and the last 500,000 bytes take 0.5 s.
    XCTAssertEqual(response.endClock, ms(4_500))
    XCTAssertTrue(
      recorder.reports.contains { $0.elapsed == ms(4_000) && $0.bytesLoaded == 1_000_000 })
  }

  func testLoad_latencyAtLeastTheTimeout_timesOutAtTheTimeout() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(
      .constant(bandwidthKbps: 8_000, latencyMs: 3_000), bytes: 10, clock: clock, timeoutMs: 2_000)
    let error = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .timedOut)
    XCTAssertEqual(clock.now, ms(2_000))
  }

  func testLoad_missingResourceAndRangePastTheEnd_failAfterTheLatency() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(.constant(bandwidthKbps: 8_000, latencyMs: 70), bytes: 100, clock: clock)
    let other = URL(string: "https://sim.example/other.ts")!
    let missing = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: other))
    }
    XCTAssertEqual(missing?.code, .httpStatus)
    XCTAssertEqual(missing?.httpStatusCode, 404)
    XCTAssertEqual(missing?.message, "HTTP 404 Not Found for https://sim.example/other.ts")
    XCTAssertEqual(clock.now, ms(70))
    let past = playheadError { () throws(PlayheadError) in
      try simulated.load(DataRequest(url: url, range: ByteRange(offset: 100, length: 5)))
    }
    XCTAssertEqual(past?.httpStatusCode, 416)
    XCTAssertEqual(clock.now, ms(140))
  }

  func testFail_scriptedErrors_failTheNextLoadsThenServe() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(
      .constant(bandwidthKbps: 8_000, latencyMs: 20), bytes: 1_000, clock: clock, timeoutMs: 4_000)
    simulated.fail(url, with: PlayheadError(.httpStatus, "HTTP 503", httpStatusCode: 503), times: 2)
    simulated.fail(url, with: PlayheadError(.timedOut, "dead"))
    simulated.fail(url, with: PlayheadError(.connectionFailed, "reset"), afterMs: 7)
    simulated.fail(url, with: PlayheadError(.connectionFailed, "never"), times: 0)
    var outcomes: [PlayheadError.Code] = []
    var times: [MediaTime] = []
    for _ in 0..<5 {
      do {
        _ = try simulated.load(DataRequest(url: url))
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

  func testRequestLog_recordsRequestsWithClockTimes() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = source(
      .constant(bandwidthKbps: 8_000, latencyMs: 10), bytes: 10_000, clock: clock)
    _ = try simulated.load(
      DataRequest(url: url, range: ByteRange(offset: 0, length: 5_000), purpose: .segment))
    _ = try simulated.load(DataRequest(url: url, purpose: .playlist))
    let log = simulated.requestLog
    XCTAssertEqual(log.map(\.request.purpose), [.segment, .playlist])
    XCTAssertEqual(log.map(\.startClock), [.zero, ms(15)])
    XCTAssertEqual(log.map(\.endClock), [ms(15), ms(35)])
    XCTAssertEqual(log.map(\.bytes), [5_000, 10_000])
    XCTAssertTrue(log.allSatisfy { $0.error == nil })
    simulated.clearRequestLog()
    XCTAssertTrue(simulated.requestLog.isEmpty)
  }

  func testResources_canBeReplacedWhileTheSourceLives() throws {
    let clock = ManualClock(advancesOnWait: true)
    let simulated = SimulatedDataSource(trace: .constant(bandwidthKbps: 8_000), clock: clock)
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try simulated.load(DataRequest(url: url)) }?
        .httpStatusCode,
      404)
    simulated.setResource(Data([1, 2, 3]), for: url)
    XCTAssertEqual(try simulated.load(DataRequest(url: url)).data, Data([1, 2, 3]))
    simulated.resources = [url: Data([4])]
    XCTAssertEqual(try simulated.load(DataRequest(url: url)).data, Data([4]))
  }

  func testListener_getsTheBytesAndTheExactDuration() throws {
    let clock = ManualClock(advancesOnWait: true)
    let listener = RecordingListener()
    let simulated = source(try twoPeriods(), bytes: 250_000, clock: clock, listener: listener)
    _ = try simulated.load(DataRequest(url: url, purpose: .segment))
    XCTAssertEqual(listener.transfers, [.init(url: url, bytes: 250_000, duration: ms(1_800))])
  }
}
