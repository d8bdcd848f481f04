import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Streaming, seeking and read-ahead of `HTTPDataSource` read through a `DataSourceReader`
/// (what a demuxer does), against the local test server.
final class HTTPDataSourceStreamingTests: XCTestCase {
  private let data = generatedBytes(count: 500_000)

  private func reader(
    _ server: HTTPTestServer, path: String = "/media.bin",
    configuration: RequestConfiguration = .init()
  ) -> DataSourceReader {
    DataSourceReader(
      source: HTTPDataSource(configuration: configuration),
      request: DataRequest(url: server.url(path), purpose: .media))
  }

  /// A read-ahead small enough that a response stops well short of the resource's end.
  private let smallReadAhead = RequestConfiguration(readAheadBytes: 64 * 1024)

  func testRead_sequentially_returnsEveryByteFromOneResponse() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server)
    XCTAssertEqual(try readToEnd(reader, chunk: 32 * 1024), data)
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(server.requests.map(\.range), [nil], "one request for the whole resource")
  }

  func testOpen_learnsTheLengthBeforeAnyRead() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server)
    XCTAssertNil(reader.length)
    try reader.open()
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(reader.head?.statusCode, 200)
    XCTAssertEqual(reader.head?.totalLength, Int64(data.count))
    XCTAssertEqual(try readFully(reader, at: 0, count: 1000), data.subdata(in: 0..<1000))
    XCTAssertEqual(server.requests.count, 1)
  }

  func testRead_atLaterOffset_sendsNewRangeRequest() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server, configuration: smallReadAhead)
    XCTAssertEqual(try readFully(reader, at: 0, count: 16 * 1024), data.subdata(in: 0..<16_384))
    XCTAssertEqual(
      try readFully(reader, at: 400_000, count: 10_000), data.subdata(in: 400_000..<410_000))
    XCTAssertEqual(
      try readFully(reader, at: 410_000, count: 10_000), data.subdata(in: 410_000..<420_000))
    let ranges = server.requests.map(\.range)
    XCTAssertEqual(ranges.first, .some(nil))
    XCTAssertTrue(ranges.contains("bytes=400000-"), "\(ranges)")
    XCTAssertFalse(ranges.contains("bytes=410000-"), "a sequential read reuses the response")
  }

  func testRead_atEarlierOffset_sendsNewRangeRequest() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server)
    XCTAssertEqual(
      try readFully(reader, at: 300_000, count: 1000), data.subdata(in: 300_000..<301_000))
    XCTAssertEqual(try readFully(reader, at: 1000, count: 1000), data.subdata(in: 1000..<2000))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=300000-", "bytes=1000-"])
  }

  func testRead_shortForwardSkip_readsThroughTheOpenResponse() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server)
    XCTAssertEqual(try readFully(reader, at: 0, count: 1000), data.subdata(in: 0..<1000))
    XCTAssertEqual(try readFully(reader, at: 5000, count: 1000), data.subdata(in: 5000..<6000))
    XCTAssertEqual(server.requests.map(\.range), [nil])
  }

  func testRead_withSmallReadAhead_stopsAtTheLimit_thenContinuesWithRangeRequests() throws {
    let server = try startServer(["/media.bin": data])
    let source = HTTPDataSource(configuration: smallReadAhead)
    let reader = DataSourceReader(
      source: source, request: DataRequest(url: server.url("/media.bin")))
    XCTAssertEqual(try readFully(reader, at: 0, count: 10_000), data.subdata(in: 0..<10_000))
    // The reader pauses until the full read-ahead buffer has stopped the response.
    waitUntilHoldingBack(source)
    let held = try XCTUnwrap(source.bufferState)
    XCTAssertFalse(held.reachesEnd)
    XCTAssertGreaterThanOrEqual(held.bytesAhead, 64 * 1024 - 10_000)
    XCTAssertLessThanOrEqual(held.bytesAhead, 64 * 1024 + 256 * 1024)
    XCTAssertFalse(reader.nextReadMayWait, "bytes are held ahead")
    XCTAssertEqual(
      try readToEnd(reader, from: 10_000, chunk: 10_000), data.subdata(in: 10_000..<data.count))
    let ranges = server.requests.map(\.range)
    XCTAssertGreaterThan(ranges.count, 1, "a full read-ahead buffer stops the response")
    XCTAssertEqual(ranges.first, .some(nil))
    let continuations = ranges.dropFirst().compactMap { $0 }
    XCTAssertEqual(continuations.count, ranges.count - 1, "\(ranges)")
    XCTAssertTrue(
      continuations.allSatisfy { $0.hasPrefix("bytes=") && $0.hasSuffix("-") }, "\(ranges)")
    let offsets = continuations.compactMap { Int($0.dropFirst(6).dropLast()) }
    XCTAssertEqual(offsets, offsets.sorted(), "each continuation goes on where the last stopped")
    XCTAssertEqual(Set(offsets).count, offsets.count)
  }

  func testBufferState_atTheEnd_reachesEndAndNextReadDoesNotWait() throws {
    let server = try startServer(["/small.bin": data.prefix(10_000)])
    let source = HTTPDataSource()
    let whole = expectation(description: "every byte arrived")
    whole.assertForOverFulfill = false
    source.setBufferChangeHandler { [source] in
      if source.bufferState?.reachesEnd == true { whole.fulfill() }
    }
    _ = try source.open(DataRequest(url: server.url("/small.bin")))
    wait(for: [whole], timeout: 10)
    let state = try XCTUnwrap(source.bufferState)
    XCTAssertEqual(state.bytesAhead, 10_000)
    XCTAssertTrue(state.isHoldingBack)
    XCTAssertFalse(state.isLocal)
    XCTAssertEqual(try drain(source), data.prefix(10_000))
    XCTAssertEqual(source.bufferState?.bytesAhead, 0)
  }

  func testRead_atOrPastTheEnd_returnsZeroWithoutARequest() throws {
    let server = try startServer(["/media.bin": data])
    let reader = reader(server)
    try reader.open()
    let tail = try readFully(reader, at: Int64(data.count - 100), count: 1000)
    XCTAssertEqual(tail, data.subdata(in: data.count - 100..<data.count))
    server.clearRequests()
    XCTAssertEqual(try readFully(reader, at: Int64(data.count), count: 1000).count, 0)
    XCTAssertEqual(try readFully(reader, at: Int64(data.count) + 10, count: 1000).count, 0)
    XCTAssertEqual(server.requests.count, 0)
  }

  func testOpen_rangePastTheEnd_throws416_andTheLengthIsNotGuessed() throws {
    let server = try startServer(["/media.bin": data])
    let source = HTTPDataSource()
    let error = playheadError { () throws(PlayheadError) in
      try source.open(
        DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 600_000, length: nil)))
    }
    XCTAssertEqual(error?.code, .httpStatus)
    XCTAssertEqual(error?.httpStatusCode, 416)
    XCTAssertEqual(
      error?.message,
      "byte range 600000- is past the end of the 500000-byte resource "
        + server.url("/media.bin").absoluteString)
    let head = try source.open(
      DataRequest(url: server.url("/media.bin"), range: ByteRange(offset: 499_990, length: nil)))
    XCTAssertEqual(head.length, 10)
    XCTAssertEqual(head.totalLength, Int64(data.count))
  }

  func testRead_serverIgnoringRange_discardsBytesUpToTheOffset() throws {
    let server = try startServer(["/media.bin": data], faults: ["/media.bin": .ignoreRange])
    let reader = reader(server)
    XCTAssertEqual(
      try readFully(reader, at: 100_000, count: 5000), data.subdata(in: 100_000..<105_000))
    XCTAssertEqual(reader.length, Int64(data.count))
    XCTAssertEqual(reader.head?.statusCode, 200)
    XCTAssertEqual(try readToEnd(reader, from: 105_000), data.subdata(in: 105_000..<data.count))
    XCTAssertEqual(server.requests.map(\.range), ["bytes=100000-"])
  }

  func testRead_serverIgnoringRange_withASmallReadAhead_continuesWithoutRepeatingBytes() throws {
    let server = try startServer(["/media.bin": data], faults: ["/media.bin": .ignoreRange])
    let reader = reader(server, configuration: smallReadAhead)
    XCTAssertEqual(try readFully(reader, at: 0, count: 10_000), data.prefix(10_000))
    waitUntilHoldingBack(reader.source)
    XCTAssertEqual(try readToEnd(reader, from: 10_000, chunk: 10_000), data.dropFirst(10_000))
    XCTAssertGreaterThan(server.requests.count, 1, "the read-ahead limit stopped responses")
  }

  func testRequests_carryConfiguredAndRequestHeaders() throws {
    let server = try startServer(["/media.bin": data])
    let configuration = RequestConfiguration(
      headers: ["X-Token": "abc", "X-Shared": "configured"], referer: "http://example.test/",
      userAgent: "PlayheadTests/1")
    let source = HTTPDataSource(configuration: configuration)
    XCTAssertEqual(source.configuration, configuration)
    _ = try source.open(
      DataRequest(url: server.url("/media.bin"), headers: ["x-shared": "request"]))
    let headers = try XCTUnwrap(server.requests.first?.headers)
    XCTAssertEqual(headers["x-token"], "abc")
    XCTAssertEqual(headers["x-shared"], "request")
    XCTAssertEqual(headers["user-agent"], "PlayheadTests/1")
    XCTAssertEqual(headers["referer"], "http://example.test/")
    XCTAssertEqual(headers["accept-encoding"], "identity")
  }

  func testOpen_emptyResource_opensWithLengthZero() throws {
    let server = try startServer(["/empty.bin": Data()])
    let source = HTTPDataSource()
    let head = try source.open(DataRequest(url: server.url("/empty.bin")))
    XCTAssertEqual(head.length, 0)
    XCTAssertEqual(head.totalLength, 0)
    XCTAssertEqual(try drain(source), Data())
  }

  func testConfigurationOutOfRange_neverTraps_andStillStreams() throws {
    let server = try startServer(["/media.bin": data])
    let configuration = RequestConfiguration(timeoutMs: 0, readAheadBytes: 0)
    XCTAssertEqual(configuration.effectiveReadAheadBytes, 4 * 1024)
    XCTAssertEqual(configuration.effectiveTimeoutMs, 1)
    let reader = reader(
      server, configuration: RequestConfiguration(timeoutMs: 10_000, readAheadBytes: 0))
    XCTAssertEqual(try readToEnd(reader), data)
  }

  func testOpen_ftpURL_throwsUnsupportedScheme() throws {
    let url = URL(string: "ftp://127.0.0.1/a.bin")!
    let error = playheadError { () throws(PlayheadError) in
      try HTTPDataSource().open(DataRequest(url: url))
    }
    XCTAssertEqual(error?.code, .unsupportedScheme)
    XCTAssertEqual(error?.message, "unsupported URL scheme 'ftp' in ftp://127.0.0.1/a.bin")
  }

  func testFactory_makesSourcesWithItsConfiguration() throws {
    let server = try startServer(["/media.bin": data])
    let factory = HTTPDataSourceFactory(configuration: RequestConfiguration(timeoutMs: 5_000))
    for range in [ByteRange(offset: 0, length: 1000), ByteRange(offset: 5000, length: 1000)] {
      let source = factory.makeHTTPDataSource()
      XCTAssertEqual(source.configuration.timeoutMs, 5_000)
      let head = try source.open(DataRequest(url: server.url("/media.bin"), range: range))
      XCTAssertEqual(head.statusCode, 206)
      XCTAssertEqual(head.length, 1000)
      XCTAssertEqual(try drain(source), data.subdata(in: Int(range.offset)..<Int(range.end!)))
      source.close()
    }
    XCTAssertEqual(server.requests.map(\.range), ["bytes=0-999", "bytes=5000-5999"])
  }
}
