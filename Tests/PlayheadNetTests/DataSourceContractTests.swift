import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataSourceContract` against `HTTPDataSource` and the local test server.
final class HTTPDataSourceContractTests: XCTestCase {
  private func contract(line: UInt = #line) -> DataSourceContract {
    DataSourceContract(line: line) { [self] in
      let server = HTTPTestServer(files: DataSourceContract.files)
      try server.start()
      addTeardownBlock { server.stop() }
      let listener = RecordingListener()
      return .init(
        source: HTTPDataSource(transferListener: listener), url: { server.url($0) },
        listener: listener)
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

/// `DataSourceContract` against `FileDataSource` over files in a temporary directory.
final class FileDataSourceContractTests: XCTestCase {
  private func contract(line: UInt = #line) -> DataSourceContract {
    DataSourceContract(line: line) { [self] in
      let directory = try makeTemporaryDirectory(for: self)
      for (name, data) in DataSourceContract.files {
        try data.write(to: directory.appendingPathComponent(String(name.dropFirst())))
      }
      let listener = RecordingListener()
      return .init(
        source: FileDataSource(transferListener: listener),
        url: { directory.appendingPathComponent(String($0.dropFirst())) }, listener: listener)
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

/// `DataSourceContract` against `SimulatedDataSource` on a clock that jumps on each wait.
final class SimulatedDataSourceContractTests: XCTestCase {
  private func contract(line: UInt = #line) -> DataSourceContract {
    DataSourceContract(line: line) {
      let base = URL(string: "https://sim.example/")!
      let url: (String) -> URL = {
        URL(string: String($0.dropFirst()), relativeTo: base)!.absoluteURL
      }
      var resources: [URL: Data] = [:]
      for (name, data) in DataSourceContract.files { resources[url(name)] = data }
      let listener = RecordingListener()
      let source = SimulatedDataSource(
        resources: resources, trace: .constant(bandwidthKbps: 20_000, latencyMs: 40),
        clock: ManualClock(advancesOnWait: true), transferListener: listener)
      return .init(source: source, url: url, listener: listener)
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
