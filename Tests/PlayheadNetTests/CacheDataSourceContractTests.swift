import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceContract` against `CacheDataSource` over `HTTPDataSource` with an empty cache
/// (every check starts cold; the listener hears the upstream's transfers).
final class CacheDataSourceContractTests: XCTestCase {
  private func contract(line: UInt = #line) -> DataSourceContract {
    DataSourceContract(line: line) { [self] in
      let server = try startServer(DataSourceContract.files)
      let listener = RecordingListener()
      let source = CacheDataSource(
        upstream: HTTPDataSource(transferListener: listener), cache: try makeCache())
      return .init(source: source, url: { server.url($0) }, listener: listener)
    }
  }

  func testContract_wholeResource() throws { try contract().wholeResource() }
  func testContract_byteRanges() throws { try contract().byteRanges() }
  func testContract_rangeStartingPastTheEndFails() throws {
    try contract().rangeStartingPastTheEndFails()
  }
  func testContract_missingResource() throws { try contract().missingResourceFailsAsASourceError() }
  func testContract_progress() throws { try contract().progressGrowsAndEndsAtTheTotal() }
  func testContract_abandon() throws { try contract().abandoningThroughProgressThrowsCancelled() }
  func testContract_cancelAll() throws { try contract().cancelAllMakesLaterLoadsThrowCancelled() }
  func testContract_listener() throws { try contract().listenerHearsEachSuccessfulTransfer() }
}

/// `DataSourceContract` against `CacheDataSource` whose cache already holds every byte:
/// the same answers with no upstream request.
final class WarmCacheDataSourceContractTests: XCTestCase {
  private func contract(line: UInt = #line) -> DataSourceContract {
    DataSourceContract(line: line) { [self] in
      let server = try startServer(DataSourceContract.files)
      let cache = try makeCache()
      let warm = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
      for name in DataSourceContract.files.keys {
        _ = try warm.load(DataRequest(url: server.url(name), purpose: .media))
      }
      server.clearRequests()
      addTeardownBlock {
        let media = server.requests.filter { $0.path != "/nope.bin" }
        XCTAssertEqual(media.count, 0, "a warm cache asks upstream nothing: \(media)")
      }
      return .init(
        source: CacheDataSource(upstream: HTTPDataSource(), cache: cache),
        url: { server.url($0) }, listener: nil)
    }
  }

  func testContract_wholeResource() throws { try contract().wholeResource() }
  func testContract_byteRanges() throws { try contract().byteRanges() }
  func testContract_rangeStartingPastTheEndFails() throws {
    try contract().rangeStartingPastTheEndFails()
  }
  func testContract_missingResource() throws { try contract().missingResourceFailsAsASourceError() }
  func testContract_progress() throws { try contract().progressGrowsAndEndsAtTheTotal() }
  func testContract_abandon() throws { try contract().abandoningThroughProgressThrowsCancelled() }
  func testContract_cancelAll() throws { try contract().cancelAllMakesLaterLoadsThrowCancelled() }
}
