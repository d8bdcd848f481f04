import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceContract` (PlayheadTesting) over every source and decorator of PlayheadNet and
/// the simulated network, each with a fresh fixture. (AES-128: PlayheadMediaTests.)
final class DataSourceContractTests: XCTestCase {
  func testHTTPDataSource() throws {
    let server = try contractServer()
    let contract = DataSourceContract(fixture: httpFixture(server) { HTTPDataSource() })
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testHTTPDataSource_fromAFactory_withASmallReadAhead() throws {
    let server = try contractServer()
    let factory = HTTPDataSourceFactory(configuration: RequestConfiguration(readAheadBytes: 0))
    let contract = DataSourceContract(fixture: httpFixture(server) { factory.makeDataSource() })
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testDefaultDataSource_overHTTP() throws {
    let server = try contractServer()
    let factory = DefaultDataSourceFactory()
    let contract = DataSourceContract(fixture: httpFixture(server) { factory.makeDataSource() })
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testDefaultDataSource_overFiles() throws {
    let url = try contractFiles()
    let factory = DefaultDataSourceFactory()
    let contract = DataSourceContract(
      fixture: .init(makeSource: { factory.makeDataSource() }, url: url))
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testFileDataSource() throws {
    let url = try contractFiles()
    let contract = DataSourceContract(fixture: .init(makeSource: { FileDataSource() }, url: url))
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testMemoryDataSource() {
    let url: @Sendable (String) -> URL = { URL(string: "memory:" + $0)! }
    let resources = Dictionary(
      uniqueKeysWithValues: DataSourceContract.resources.map { (url($0.key), $0.value) })
    let contract = DataSourceContract(
      fixture: .init(makeSource: { MemoryDataSource(resources: resources) }, url: url))
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testSimulatedDataSource() {
    let clock = ManualClock()
    let url: @Sendable (String) -> URL = { URL(string: "https://sim.example" + $0)! }
    let network = SimulatedNetwork(
      resources: Dictionary(
        uniqueKeysWithValues: DataSourceContract.resources.map { (url($0.key), $0.value) }),
      trace: .constant(bandwidthKbps: 20_000, latencyMs: 40), clock: clock)
    // The stalled request answers after an hour of clock time, which the driver never
    // advances to: the transfer stays blocked until it is cancelled.
    let stalled = url(Self.stalledPath)
    network.fail(
      stalled, with: PlayheadError(.timedOut, "stalled"), times: .max, afterMs: 3_600_000)
    let driver = ClockDriver(clock)
    defer { driver.stop() }
    let contract = DataSourceContract(
      fixture: .init(
        makeSource: {
          driver.resume()
          return network.makeDataSource()
        }, url: url,
        stalled: .init(url: stalled, untilBlocked: { clock.waitForBlockedWaits(count: 1) })))
    XCTAssertEqual(contract.run().map(\.description), [])
    XCTAssertLessThan(clock.now, ms(3_600_000), "the stalled request never answered")
  }

  func testRetryingDataSource_overHTTP() throws {
    let server = try contractServer()
    let configuration = RequestConfiguration(retryCount: 3)
    let contract = DataSourceContract(
      fixture: httpFixture(server) {
        RetryingDataSource(
          upstream: HTTPDataSource(configuration: configuration), configuration: configuration)
      })
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testRefreshingDataSource_overHTTP() throws {
    let server = try contractServer()
    let refresher = SourceRefresher(
      handler: SourceRefresh.resigning(with: CDNTypeASigner(key: "k"), validitySeconds: 60))
    let contract = DataSourceContract(
      fixture: httpFixture(server) {
        RefreshingDataSource(upstream: HTTPDataSource(), refresher: refresher)
      })
    XCTAssertEqual(contract.run().map(\.description), [])
    XCTAssertEqual(refresher.handlerCallCount, 0)
  }

  func testCacheDataSource_overHTTP_cold() throws {
    let server = try contractServer()
    let folder = try makeTemporaryDirectory(for: self)
    let caches = Locked<[MediaCache]>([])
    addTeardownBlock { caches.value.forEach { $0.close() } }
    // A new, empty cache for every source: each check starts cold.
    let contract = DataSourceContract(
      fixture: httpFixture(server) {
        let cache = try! MediaCache.open(
          directory: folder.appendingPathComponent(UUID().uuidString))
        caches.withLock { $0.append(cache) }
        return CacheDataSource(upstream: HTTPDataSource(), cache: cache)
      })
    XCTAssertEqual(contract.run().map(\.description), [])
  }

  func testCacheDataSource_overHTTP_warm() throws {
    let server = try contractServer()
    let cache = try makeCache()
    let loader = DataLoader(
      factory: DataSourceFactories.make {
        CacheDataSource(upstream: HTTPDataSource(), cache: cache)
      })
    for path in DataSourceContract.resources.keys {
      _ = try loader.load(DataRequest(url: server.url(path), purpose: .media))
    }
    server.clearRequests()
    // A missing resource is not in the cache: its open still fails.
    let contract = DataSourceContract(
      fixture: httpFixture(server, failsForMissing: true) {
        CacheDataSource(upstream: HTTPDataSource(), cache: cache)
      })
    XCTAssertEqual(contract.run().map(\.description), [])
    let media = server.requests.filter { DataSourceContract.resources[$0.path] != nil }
    XCTAssertEqual(media.map(\.path), [], "a warm cache asks upstream nothing")
  }

  func testMeteredDataSource_overHTTP() throws {
    let server = try contractServer()
    let meter = TransferMeter()
    let contract = DataSourceContract(
      fixture: httpFixture(server) {
        MeteredDataSource(upstream: HTTPDataSource(), meter: meter, listener: RecordingListener())
      })
    XCTAssertEqual(contract.run().map(\.description), [])
    XCTAssertGreaterThan(meter.bytesTransferred, 3_000_000)
    XCTAssertEqual(meter.openTransfers, 0)
    XCTAssertFalse(meter.isBusy)
  }

  func testRecordingDataSource_overHTTP() throws {
    let server = try contractServer()
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("contract.jsonl")
    let recorder = try SessionRecorder(fileURL: file, clock: HostClock.shared)
    let contract = DataSourceContract(
      fixture: httpFixture(server) {
        RecordingDataSource(upstream: HTTPDataSource(), recorder: recorder)
      })
    XCTAssertEqual(contract.run().map(\.description), [])
    try recorder.finish()
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    XCTAssertGreaterThan(lines.count, 20)
  }

  func testDataSourceStack_retryCacheMeterAndRecorder() throws {
    let server = try contractServer()
    let cache = try makeCache()
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("stack.jsonl")
    let recorder = try SessionRecorder(fileURL: file, clock: HostClock.shared)
    let meter = TransferMeter()
    let stack = DataSourceStack(
      request: RequestConfiguration(retryCount: 2), cache: cache, recorder: recorder
    ).with(meter: meter)
    let contract = DataSourceContract(fixture: httpFixture(server) { stack.makeDataSource() })
    XCTAssertEqual(contract.run().map(\.description), [])
    try recorder.finish()
    XCTAssertGreaterThan(meter.completedTransfers, 0)
  }
}
