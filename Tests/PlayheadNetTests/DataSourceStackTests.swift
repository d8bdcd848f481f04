import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceStack`: the layers it puts on the network, in order, and the ones it leaves out.
final class DataSourceStackTests: XCTestCase {
  func testLayers_areInTheDocumentedOrder() throws {
    let cache = try makeCache()
    let file = try makeTemporaryDirectory(for: self).appendingPathComponent("s.jsonl")
    let recorder = try SessionRecorder(fileURL: file, clock: HostClock.shared)
    let stack = DataSourceStack(cache: cache, recorder: recorder)
      .with(refresher: SourceRefresher(handler: nil))
      .with(meter: TransferMeter())
    let metered = try XCTUnwrap(stack.makeDataSource() as? MeteredDataSource)
    let retrying = try XCTUnwrap(metered.upstream as? RetryingDataSource)
    let caching = try XCTUnwrap(retrying.upstream as? CacheDataSource)
    let refreshing = try XCTUnwrap(caching.upstream as? RefreshingDataSource)
    let recording = try XCTUnwrap(refreshing.upstream as? RecordingDataSource)
    XCTAssertTrue(recording.upstream is DefaultDataSource)
    XCTAssertTrue(caching.cache === cache)
    XCTAssertTrue(recording.recorder === recorder)
    try recorder.finish()
  }

  func testParts_leftOut_areNotThere() throws {
    let network = MemoryDataSource(data: Data([1]))
    let plain = DataSourceStack(
      request: RequestConfiguration(retryCount: 0), network: DataSourceFactories.make { network })
    XCTAssertTrue(plain.makeDataSource() === network)
    XCTAssertEqual(
      try plain.loader().load(DataRequest(url: URL(string: "memory:a")!)).data, Data([1]))
    let retrying = DataSourceStack(network: DataSourceFactories.make { network })
    XCTAssertTrue((retrying.makeDataSource() as? RetryingDataSource)?.upstream === network)
    let cache = try makeCache()
    cache.close()
    XCTAssertTrue(
      (DataSourceStack(network: DataSourceFactories.make { network }, cache: cache)
        .makeDataSource() as? RetryingDataSource)?.upstream === network,
      "a closed cache is left out")
  }
}
