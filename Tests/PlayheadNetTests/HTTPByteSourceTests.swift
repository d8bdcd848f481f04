import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Reading, seeking and buffering of `HTTPByteSource` against the local test server.
final class HTTPByteSourceTests: XCTestCase {
  private let data = generatedBytes(count: 500_000)

  private func startServer(
    files: [String: Data]? = nil, faults: [String: HTTPTestServer.Fault] = [:]
  ) throws -> HTTPTestServer {
    let server = HTTPTestServer(files: files ?? ["/media.bin": data], faults: faults)
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testRead_sequentially_returnsEveryByteFromOneResponse() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertEqual(try readToEnd(source, chunk: 32 * 1024), data)
    XCTAssertEqual(source.length, Int64(data.count))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=0-"])
  }

  func testPrefetchHeaders_learnsLengthBeforeAnyRead() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertNil(source.length)
    try source.prefetchHeaders()
    XCTAssertEqual(source.length, Int64(data.count))
    XCTAssertEqual(try readFully(source, at: 0, count: 1000), data.subdata(in: 0..<1000))
    XCTAssertEqual(server.requests.count, 1)
  }

  func testRead_atLaterOffset_sendsNewRangeRequest() throws {
    let server = try startServer()
    // A small read-ahead keeps the first response well short of the seek target.
    let configuration = HTTPRequestConfiguration(maxBufferAheadBytes: 64 * 1024)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    XCTAssertEqual(try readFully(source, at: 0, count: 16 * 1024), data.subdata(in: 0..<16_384))
    XCTAssertEqual(
      try readFully(source, at: 400_000, count: 10_000), data.subdata(in: 400_000..<410_000))
    XCTAssertEqual(
      try readFully(source, at: 410_000, count: 10_000), data.subdata(in: 410_000..<420_000))
    let ranges = server.requests.compactMap(\.range)
    XCTAssertEqual(ranges.first, "bytes=0-")
    XCTAssertTrue(ranges.contains("bytes=400000-"), "\(ranges)")
    XCTAssertFalse(ranges.contains("bytes=410000-"), "a sequential read reuses the response")
  }

  func testRead_atEarlierOffset_sendsNewRangeRequest() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertEqual(
      try readFully(source, at: 300_000, count: 1000), data.subdata(in: 300_000..<301_000))
    XCTAssertEqual(try readFully(source, at: 1000, count: 1000), data.subdata(in: 1000..<2000))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=300000-", "bytes=1000-"])
  }

  func testRead_shortForwardSkip_readsThroughTheOpenResponse() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertEqual(try readFully(source, at: 0, count: 1000), data.subdata(in: 0..<1000))
    XCTAssertEqual(try readFully(source, at: 5000, count: 1000), data.subdata(in: 5000..<6000))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=0-"])
  }

  func testRead_withSmallReadAhead_continuesWithRangeRequestsAndReturnsEveryByte() throws {
    let server = try startServer()
    let configuration = HTTPRequestConfiguration(maxBufferAheadBytes: 64 * 1024)
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    XCTAssertEqual(try readFully(source, at: 0, count: 10_000), data.subdata(in: 0..<10_000))
    // The reader pauses until the full read-ahead buffer has stopped the response.
    let stopped = XCTNSPredicateExpectation(
      predicate: NSPredicate { _, _ in !source.isLoading }, object: nil)
    wait(for: [stopped], timeout: 10)
    XCTAssertGreaterThanOrEqual(source.bufferedByteCount, 64 * 1024 - 10_000)
    XCTAssertLessThanOrEqual(source.bufferedByteCount, 64 * 1024 + 256 * 1024)
    XCTAssertEqual(
      try readToEnd(source, from: 10_000, chunk: 10_000), data.subdata(in: 10_000..<data.count))
    let ranges = server.requests.compactMap(\.range)
    XCTAssertGreaterThan(ranges.count, 1, "a full read-ahead buffer stops the response")
    XCTAssertEqual(ranges.first, "bytes=0-")
    XCTAssertTrue(ranges.allSatisfy { $0.hasPrefix("bytes=") && $0.hasSuffix("-") }, "\(ranges)")
  }

  func testRead_atOrPastTheEnd_returnsZero() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    let tail = try readFully(source, at: Int64(data.count - 100), count: 1000)
    XCTAssertEqual(tail, data.subdata(in: data.count - 100..<data.count))
    XCTAssertEqual(try readFully(source, at: Int64(data.count), count: 1000).count, 0)
    XCTAssertEqual(try readFully(source, at: Int64(data.count) + 10, count: 1000).count, 0)
  }

  func testRead_firstReadPastTheEnd_returnsZeroAfterA416() throws {
    let server = try startServer()
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertEqual(try readFully(source, at: 600_000, count: 1000).count, 0)
    XCTAssertEqual(source.length, Int64(data.count))
  }

  func testRead_serverIgnoringRange_discardsBytesUpToTheOffset() throws {
    let server = try startServer(faults: ["/media.bin": .ignoreRange])
    let source = try HTTPByteSource(url: server.url("/media.bin"))
    XCTAssertEqual(
      try readFully(source, at: 100_000, count: 5000), data.subdata(in: 100_000..<105_000))
    XCTAssertEqual(source.length, Int64(data.count))
    XCTAssertEqual(try readToEnd(source, from: 105_000), data.subdata(in: 105_000..<data.count))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=100000-"])
  }

  func testRequests_carryConfiguredHeaders() throws {
    let server = try startServer()
    let configuration = HTTPRequestConfiguration(
      headers: ["X-Token": "abc"], userAgent: "PlayheadTests/1", referer: "http://example.test/")
    let source = try HTTPByteSource(url: server.url("/media.bin"), configuration: configuration)
    try source.prefetchHeaders()
    let headers = try XCTUnwrap(server.requests.first?.headers)
    XCTAssertEqual(headers["x-token"], "abc")
    XCTAssertEqual(headers["user-agent"], "PlayheadTests/1")
    XCTAssertEqual(headers["referer"], "http://example.test/")
  }

  func testPrefetchHeaders_emptyResource_throwsEmptySource() throws {
    let server = try startServer(files: ["/empty.bin": Data()])
    let source = try HTTPByteSource(url: server.url("/empty.bin"))
    let error = playheadError { () throws(PlayheadError) in try source.prefetchHeaders() }
    XCTAssertEqual(error?.code, .emptySource)
  }

  func testInit_invalidConfiguration_throwsInvalidArgument() throws {
    let url = URL(string: "http://127.0.0.1:9/a.bin")!
    for configuration in [
      HTTPRequestConfiguration(timeoutSeconds: 0),
      HTTPRequestConfiguration(timeoutSeconds: .nan),
      HTTPRequestConfiguration(maxBufferAheadBytes: 0),
    ] {
      let error = playheadError { () throws(PlayheadError) in
        try HTTPByteSource(url: url, configuration: configuration)
      }
      XCTAssertEqual(error?.code, .invalidArgument)
    }
  }

  func testInit_ftpURL_throwsUnsupportedScheme() throws {
    let url = URL(string: "ftp://127.0.0.1/a.bin")!
    let error = playheadError { () throws(PlayheadError) in try HTTPByteSource(url: url) }
    XCTAssertEqual(error?.code, .unsupportedScheme)
  }
}
