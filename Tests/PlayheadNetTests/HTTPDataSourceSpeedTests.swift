import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// The download speed (SPEC S9) an `HTTPDataSource` measures for progressive media, as its
/// `bufferState` gives it.
final class HTTPDataSourceSpeedTests: XCTestCase {
  private let data = generatedBytes(count: 300_000)

  private func speed(of fault: HTTPTestServer.Fault?) throws -> Double? {
    let server = HTTPTestServer(
      files: ["/media.bin": data], faults: fault.map { ["/media.bin": $0] } ?? [:])
    try server.start()
    defer { server.stop() }
    let source = HTTPDataSource()
    XCTAssertNil(source.bufferState?.downloadSpeedBitsPerSecond, "no figure before a transfer")
    let reader = DataSourceReader(
      source: source, request: DataRequest(url: server.url("/media.bin")))
    XCTAssertEqual(try readToEnd(reader), data)
    XCTAssertEqual(source.receivedByteCount, Int64(data.count))
    return reader.bufferState?.downloadSpeedBitsPerSecond
  }

  func testDownloadSpeed_followsTheServersRate() throws {
    // The server paces its writes at 200 kB/s, so no stretch of 256 KiB can arrive faster
    // than 1.6 Mbit/s by more than one write; the lower bound only rules out nonsense
    // (a loaded machine may slow the server down, never speed it up).
    let rate = 200_000.0 * 8
    let slow = try XCTUnwrap(try speed(of: .slow(bytesPerSecond: 200_000)))
    XCTAssertLessThanOrEqual(slow, rate * 1.5)
    XCTAssertGreaterThan(slow, rate / 20)
    let fast = try XCTUnwrap(try speed(of: nil))
    XCTAssertGreaterThan(fast, slow * 2, "an unpaced loopback transfer measures faster")
  }

  func testReceivedByteCount_countsBytesAServerIgnoringRangeSendsAgain() throws {
    let server = try startServer(["/media.bin": data], faults: ["/media.bin": .ignoreRange])
    let source = HTTPDataSource()
    _ = try source.open(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 290_000, length: nil)))
    XCTAssertEqual(try drain(source), data.subdata(in: 290_000..<300_000))
    XCTAssertEqual(source.receivedByteCount, Int64(data.count), "the skipped bytes came too")
  }
}
