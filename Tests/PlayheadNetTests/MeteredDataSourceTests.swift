import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `MeteredDataSource` and `TransferMeter`: bytes, opens and reads under way, and the
/// transfers a bandwidth meter is told of.
final class MeteredDataSourceTests: XCTestCase {
  private let url = URL(string: "https://sim.example/seg.ts")!
  private let body = generatedBytes(count: 500_000, seed: 5)

  private func network(_ clock: ManualClock, latencyMs: Double = 0) -> SimulatedNetwork {
    SimulatedNetwork(
      resources: [url: body], trace: .constant(bandwidthKbps: 4_000, latencyMs: latencyMs),
      clock: clock)
  }

  func testCounts_bytesOpensAndCompletedTransfers() throws {
    let clock = ManualClock(advancesOnWait: true)
    let network = network(clock)
    let meter = TransferMeter()
    let listener = RecordingListener()
    let source = MeteredDataSource(
      upstream: network.makeDataSource(), meter: meter, clock: clock, listener: listener)
    _ = try source.open(DataRequest(url: url))
    XCTAssertEqual(meter.openTransfers, 1)
    XCTAssertEqual(try drain(source, limit: 100_000).count, 100_000)
    XCTAssertEqual(meter.bytesTransferred, 100_000)
    XCTAssertEqual(meter.completedTransfers, 0)
    // Closed early: counted as bytes, not as a finished transfer.
    source.close()
    XCTAssertEqual(meter.openTransfers, 0)
    XCTAssertTrue(listener.transfers.isEmpty)

    let start = clock.now
    _ = try source.open(DataRequest(url: url, range: ByteRange(offset: 0, length: 250_000)))
    XCTAssertEqual(try drain(source), body.prefix(250_000))
    XCTAssertEqual(try drain(source), Data(), "the end is told once")
    source.close()
    XCTAssertEqual(meter.bytesTransferred, 350_000)
    XCTAssertEqual(meter.completedTransfers, 1)
    XCTAssertEqual(meter.openTransfers, 0)
    // 250,000 bytes at 500,000 B/s, timed on the clock from the open to the last byte.
    XCTAssertEqual(listener.transfers, [.init(url: url, bytes: 250_000, duration: ms(500))])
    XCTAssertEqual(clock.now - start, ms(500))
    XCTAssertFalse(meter.isBusy)
  }

  func testBusy_whileAnOpenOrAReadWaits() throws {
    let clock = ManualClock()
    let meter = TransferMeter()
    let source = MeteredDataSource(
      upstream: network(clock, latencyMs: 100).makeDataSource(), meter: meter, clock: clock)
    let url = self.url
    let opened = runInBackground("open") { try source.open(DataRequest(url: url)) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(meter.opensUnderWay, 1)
    XCTAssertTrue(meter.isBusy)
    clock.advance(by: ms(100))
    wait(for: [opened.done], timeout: 10)
    XCTAssertEqual(meter.opensUnderWay, 0)
    XCTAssertFalse(meter.isBusy, "open, but nothing waits")
    let read = runInBackground("read") { try readSome(source, count: 1_000) }
    XCTAssertTrue(clock.waitForBlockedWaits(count: 1))
    XCTAssertEqual(meter.readsUnderWay, 1)
    XCTAssertTrue(meter.isBusy)
    clock.advance(by: ms(2))
    wait(for: [read.done], timeout: 10)
    XCTAssertEqual(try read.result.value?.get(), body.prefix(1_000))
    XCTAssertEqual(meter.readsUnderWay, 0)
    XCTAssertFalse(meter.isBusy)
  }

  func testTransfersServedByACache_areCountedButNotTimed() throws {
    let server = try startServer(["/seg.ts": body])
    let cache = try makeCache()
    let clock = ManualClock(advancesOnWait: true)
    let meter = TransferMeter()
    let listener = RecordingListener()
    let stack = DataSourceStack(
      request: RequestConfiguration(retryCount: 0), clock: clock, cache: cache
    ).with(meter: meter, listener: listener)
    XCTAssertTrue(stack.makeDataSource() is MeteredDataSource)
    let request = DataRequest(url: server.url("/seg.ts"), purpose: .segment)
    for _ in 0..<2 {
      let source = stack.makeDataSource()
      _ = try source.open(request)
      XCTAssertEqual(try drain(source), body)
      source.close()
    }
    XCTAssertEqual(server.requestCount(for: "/seg.ts"), 1)
    XCTAssertEqual(meter.bytesTransferred, 1_000_000)
    XCTAssertEqual(meter.completedTransfers, 2)
    XCTAssertEqual(listener.transfers.map(\.bytes), [500_000], "the cache hit is no sample")
  }

  func testCancel_reachesTheUpstream() throws {
    let clock = ManualClock(advancesOnWait: true)
    let upstream = network(clock).makeDataSource()
    let source = MeteredDataSource(upstream: upstream, meter: TransferMeter(), clock: clock)
    source.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in
        try upstream.open(DataRequest(url: self.url))
      }?.code, .cancelled)
  }
}
