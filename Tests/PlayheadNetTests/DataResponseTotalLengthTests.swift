import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// `DataResponse.totalLength`, which the disk cache uses to know where a resource ends.
final class DataResponseTotalLengthTests: XCTestCase {
  private let body = generatedBytes(count: 50_000, seed: 9)

  func testHTTP_reportsTheTotalFromContentRangeOrContentLength() throws {
    let server = try startServer(["/a.bin": body])
    let source = DataLoader(factory: HTTPDataSourceFactory())
    let url = server.url("/a.bin")
    XCTAssertEqual(try source.load(DataRequest(url: url)).totalLength, 50_000)
    XCTAssertEqual(
      try source.load(DataRequest(url: url, range: ByteRange(offset: 10, length: 5))).totalLength,
      50_000)
    server.setFault(.ignoreRange, for: "/a.bin")
    let ignored = try source.load(DataRequest(url: url, range: ByteRange(offset: 10, length: 5)))
    XCTAssertEqual(ignored.data, body.subdata(in: 10..<15))
    XCTAssertEqual(ignored.totalLength, 50_000)
  }

  func testFileMemoryAndSimulatedSources_reportTheirResourceLength() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let file = directory.appendingPathComponent("a.bin")
    try body.write(to: file)
    let range = ByteRange(offset: 3, length: 4)
    XCTAssertEqual(
      try DataLoader(source: FileDataSource()).load(DataRequest(url: file, range: range))
        .totalLength, 50_000)
    XCTAssertEqual(
      try DataLoader(source: MemoryDataSource(data: body)).load(
        DataRequest(url: file, range: range)
      )
      .totalLength, 50_000)
    let url = URL(string: "https://sim.example/a.bin")!
    let simulated = SimulatedNetwork(
      resources: [url: body], trace: .constant(bandwidthKbps: 10_000, latencyMs: 10),
      clock: ManualClock(advancesOnWait: true))
    XCTAssertEqual(
      try simulated.load(DataRequest(url: url, range: range)).totalLength, 50_000)
  }
}
