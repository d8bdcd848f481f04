import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Whole loads through `DataLoader`: progress, abandoning, stalled reports, cancelling,
/// listeners and per-load decorators.
final class DataLoaderTests: XCTestCase {
  private let big = generatedBytes(count: 3_000_000, seed: 0xBEEF)
  private let small = generatedBytes(count: 1_000, seed: 0x5EED)
  private let bigURL = URL(string: "https://sim.example/big.bin")!
  private let smallURL = URL(string: "https://sim.example/small.bin")!
  private let missingURL = URL(string: "https://sim.example/missing.bin")!

  /// A network serving the big and the small resource at 20 Mbit/s with 40 ms latency.
  private func network(_ clock: ManualClock) -> SimulatedNetwork {
    SimulatedNetwork(
      resources: [bigURL: big, smallURL: small],
      trace: .constant(bandwidthKbps: 20_000, latencyMs: 40), clock: clock)
  }

  func testProgress_growsAndEndsAtTheTotal() throws {
    let clock = ManualClock(advancesOnWait: true)
    let loader = DataLoader(factory: network(clock), clock: clock)
    let recorder = ProgressRecorder()
    let response = try loader.load(DataRequest(url: bigURL), progress: recorder.callback)
    XCTAssertEqual(response.data, big)
    let reports = recorder.reports
    XCTAssertGreaterThan(reports.count, 10)
    XCTAssertEqual(reports.last?.bytesLoaded, big.count)
    for (earlier, later) in zip(reports, reports.dropFirst()) {
      XCTAssertLessThan(earlier.bytesLoaded, later.bytesLoaded)
      XCTAssertLessThanOrEqual(earlier.elapsed, later.elapsed)
    }
    for report in reports {
      XCTAssertEqual(report.request.url, bigURL)
      XCTAssertEqual(report.bytesExpected, big.count)
      XCTAssertEqual(report.timeToFirstByte, ms(40))
      XCTAssertLessThanOrEqual(report.elapsed, response.duration)
    }
    XCTAssertEqual(response.duration, ms(40 + 1_200), "3 MB at 2.5 MB/s after the latency")
  }

  func testAbandoningThroughProgress_throwsCancelled_andTheLoaderStillWorks() throws {
    let clock = ManualClock(advancesOnWait: true)
    let loader = DataLoader(factory: network(clock), clock: clock)
    let recorder = ProgressRecorder { _ in false }
    let error = playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: self.bigURL), progress: recorder.callback)
    }
    XCTAssertEqual(error?.code, .cancelled)
    XCTAssertTrue(error?.message.hasPrefix("load abandoned after") ?? false, "\(error!)")
    XCTAssertEqual(recorder.reports.count, 1)
    // A small body may be complete by the first report; saying stop still abandons it.
    let smallError = playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: self.smallURL), progress: { _ in false })
    }
    XCTAssertEqual(smallError?.code, .cancelled)
    XCTAssertEqual(try loader.load(DataRequest(url: smallURL)).data, small)
    XCTAssertEqual(loader.loadsInFlight, 0)
  }

  func testCancelAll_makesBlockedAndLaterLoadsThrowCancelled() throws {
    let clock = ManualClock()
    let network = network(clock)
    let loader = DataLoader(factory: network, clock: clock)
    let bigURL = self.bigURL
    let run = runInBackground("blocked load") { try loader.load(DataRequest(url: bigURL)) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(loader.loadsInFlight, 1)
    loader.cancelAll()
    loader.cancelAll()
    XCTAssertEqual(failure(of: run)?.code, .cancelled)
    XCTAssertEqual(loader.loadsInFlight, 0)
    let later = playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: self.smallURL))
    }
    XCTAssertEqual(later?.code, .cancelled)
    XCTAssertEqual(later?.message, "load cancelled: \(smallURL.absoluteString)")
    XCTAssertEqual(network.requestLog.count, 1, "a cancelled loader opens nothing")
    XCTAssertEqual(clock.now, .zero)
  }

  func testListener_hearsEachSuccessfulTransfer_timedOnTheClock() throws {
    let clock = ManualClock(advancesOnWait: true)
    let listener = RecordingListener()
    let loader = DataLoader(factory: network(clock), clock: clock, transferListener: listener)
    let first = try loader.load(DataRequest(url: bigURL))
    _ = playheadError { () throws(PlayheadError) in
      try loader.load(DataRequest(url: self.missingURL))
    }
    _ = try loader.load(DataRequest(url: smallURL, range: ByteRange(offset: 100, length: 50)))
    XCTAssertEqual(listener.transfers.map(\.bytes), [big.count, 50])
    XCTAssertEqual(listener.transfers.first?.duration, first.duration)
    XCTAssertEqual(listener.transfers.first?.duration, ms(1_240))
  }

  func testStalledReports_comeEveryIntervalWhileNothingArrives_andCanAbandon() throws {
    let clock = ManualClock()
    let network = network(clock)
    // The answer would take a second; the abandon rule gives up after 300 ms.
    network.fail(bigURL, with: PlayheadError(.timedOut, "late"), afterMs: 1_000)
    let loader = DataLoader(factory: network, clock: clock)
    let recorder = ProgressRecorder { $0.elapsed < ms(300) }
    let bigURL = self.bigURL
    let run = runInBackground("stalled load") {
      try loader.load(
        DataRequest(url: bigURL), stalledReportIntervalMs: 100, progress: recorder.callback)
    }
    // The open waits for its answer, and the watch for its next report.
    for _ in 0..<3 {
      XCTAssertTrue(clock.waitForBlockedWaits(count: 2))
      clock.advance(by: ms(100))
    }
    let error = failure(of: run)
    XCTAssertEqual(error?.code, .cancelled)
    XCTAssertEqual(error?.message, "load abandoned after 0 bytes: \(bigURL.absoluteString)")
    XCTAssertEqual(recorder.reports.map(\.elapsed), [ms(100), ms(200), ms(300)])
    XCTAssertTrue(recorder.reports.allSatisfy { $0.bytesLoaded == 0 && $0.timeToFirstByte == nil })
    XCTAssertEqual(clock.now, ms(300))
    XCTAssertEqual(loader.loadsInFlight, 0)
  }

  func testStalledReports_stopWhenTheLoadEnds() throws {
    let clock = ManualClock(advancesOnWait: true)
    let loader = DataLoader(factory: network(clock), clock: clock)
    let recorder = ProgressRecorder()
    let response = try loader.load(
      DataRequest(url: smallURL), stalledReportIntervalMs: 10, progress: recorder.callback)
    XCTAssertEqual(response.data, small)
    let count = recorder.reports.count
    clock.advance(by: ms(1_000))
    XCTAssertEqual(recorder.reports.count, count, "no report after the load returned")
  }

  /// One watch serves a loader's loads at once: the stalled one is reported every
  /// interval, the flowing one only as its bytes arrive.
  func testStalledReports_concurrentLoads_onlyTheStalledOneIsReportedWhileStalled() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(clock)
    network.fail(smallURL, with: PlayheadError(.timedOut, "late"), afterMs: 1_000)
    let loader = DataLoader(factory: network, clock: clock)
    let stalled = ProgressRecorder()
    let flowing = ProgressRecorder()
    let results = Locked<[String: Result<Int, PlayheadError>]>([:])
    let done = DispatchSemaphore(value: 0)
    let (bigURL, smallURL) = (self.bigURL, self.smallURL)
    clock.runAsWorker {
      for (name, url, recorder) in [("stalled", smallURL, stalled), ("flowing", bigURL, flowing)] {
        clock.startThread(named: name) {
          let result = Result { () throws(PlayheadError) -> Int in
            try loader.load(
              DataRequest(url: url), stalledReportIntervalMs: 100, progress: recorder.callback
            ).data.count
          }
          results.withLock { $0[name] = result }
          done.signal()
        }
      }
    }
    done.wait()
    done.wait()
    XCTAssertEqual(try results.value["flowing"]?.get(), big.count)
    guard case .failure(let error)? = results.value["stalled"] else {
      return XCTFail(
        "the stalled load should fail: \(String(describing: results.value["stalled"]))")
    }
    XCTAssertEqual(error.code, .timedOut)
    // The failure at 1 s comes before the report due then.
    XCTAssertEqual(stalled.reports.map(\.elapsed), (1...9).map { ms(Int64($0) * 100) })
    XCTAssertTrue(stalled.reports.allSatisfy { $0.bytesLoaded == 0 })
    let flowed = flowing.reports.map(\.bytesLoaded)
    XCTAssertEqual(flowed, flowed.sorted())
    XCTAssertEqual(Set(flowed).count, flowed.count, "no report without new bytes")
    XCTAssertEqual(flowed.last, big.count)
    XCTAssertEqual(loader.loadsInFlight, 0)
  }

  func testThrough_decoratesOnlyThatLoadsSource() throws {
    let clock = ManualClock(advancesOnWait: true)
    let loader = DataLoader(factory: network(clock), clock: clock)
    let inverted = try loader.load(
      DataRequest(url: smallURL), through: DataSourceDecorator { InvertingDataSource($0) })
    XCTAssertEqual(inverted.data, Data(small.map { ~$0 }))
    XCTAssertEqual(try loader.load(DataRequest(url: smallURL)).data, small)
  }

  func testFactories_makeAFreshSourcePerLoad() throws {
    let made = Locked(0)
    let factory = DataSourceFactories.make {
      made.withLock { $0 += 1 }
      return MemoryDataSource(data: Data([1, 2, 3]))
    }
    let loader = DataLoader(factory: factory)
    for _ in 0..<3 {
      XCTAssertEqual(
        try loader.load(DataRequest(url: URL(string: "memory:a")!)).data, Data([1, 2, 3]))
    }
    XCTAssertEqual(made.value, 3)
  }
}

/// Inverts every byte that passes through: a decorator to see where it sits.
private final class InvertingDataSource: DataSource, Sendable {
  let upstream: any DataSource

  init(_ upstream: any DataSource) { self.upstream = upstream }

  func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    try upstream.open(request)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let count = try upstream.read(into: buffer)
    for index in 0..<count { buffer[index] = ~buffer[index] }
    return count
  }

  func close() { upstream.close() }
  func cancel() { upstream.cancel() }
}
