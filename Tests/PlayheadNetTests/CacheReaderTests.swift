import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// Progressive media through `CacheDataSource`, read as a demuxer reads it (a
/// `DataSourceReader`): cold and warm, seeks into holes, failures, and the stack's cache.
final class CacheReaderTests: XCTestCase {
  private let movie = generatedBytes(count: 1_000_000, seed: 0xF00D)
  private let chunk = 64 * 1024

  private func reader(_ url: URL, _ cache: MediaCache, readAhead: Int = 4 * 1024 * 1024)
    -> DataSourceReader
  {
    let http = HTTPDataSource(configuration: RequestConfiguration(readAheadBytes: readAhead))
    return DataSourceReader(
      source: CacheDataSource(upstream: http, cache: cache),
      request: DataRequest(url: url, purpose: .media))
  }

  func testRead_throughTheCache_givesTheBytesAndTheSecondReaderMakesNoRequest() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache(.init(progressiveChunkBytes: chunk))
    let url = server.url("/movie.mp4")
    let first = reader(url, cache)
    try first.open()
    XCTAssertEqual(first.length, Int64(movie.count))
    XCTAssertFalse(first.head?.isFromCache ?? true)
    XCTAssertEqual(try readToEnd(first, chunk: 10_000), movie)
    // The reader stops at the known length without reading upstream's end: the last piece
    // is stored when the open closes.
    first.close()
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)

    server.clearRequests()
    let second = reader(url, cache)
    try second.open()
    XCTAssertEqual(second.head?.isFromCache, true)
    XCTAssertEqual(second.length, Int64(movie.count))
    XCTAssertEqual(second.bufferState?.cachedRanges, [ByteRange(offset: 0, length: 1_000_000)])
    XCTAssertEqual(second.bufferState?.isHoldingBack, true, "bytes on disk need no waiting")
    XCTAssertEqual(try readToEnd(second, chunk: 10_000), movie)
    XCTAssertEqual(
      try readFully(second, at: 123_456, count: 1_000), movie.subdata(in: 123_456..<124_456))
    XCTAssertEqual(server.requests.count, 0)
  }

  func testSeek_intoAHalfCachedFile_fetchesOnlyTheMissingRanges() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache(.init(progressiveChunkBytes: chunk))
    let url = server.url("/movie.mp4")
    let first = reader(url, cache, readAhead: 64 * 1024)
    XCTAssertEqual(try readFully(first, at: 0, count: 400_000), movie.subdata(in: 0..<400_000))
    // Closing early stores what was read of the hole.
    first.close()
    let cached = cache.entry(forKey: cache.key(for: url))?.cachedRanges ?? []
    XCTAssertEqual(cached.first?.offset, 0)
    XCTAssertGreaterThanOrEqual(cache.entry(forKey: cache.key(for: url))?.cachedBytes ?? 0, 400_000)

    server.clearRequests()
    let second = reader(url, cache)
    // A seek past the cached part, then back to the start.
    XCTAssertEqual(try readToEnd(second, from: 700_000), movie.subdata(in: 700_000..<1_000_000))
    XCTAssertEqual(try readToEnd(second, from: 0), movie)
    let requested = requestedRanges(server, path: "/movie.mp4")
    XCTAssertFalse(requested.isEmpty)
    for range in requested {
      for span in cached {
        let spanRange = span.offset..<(span.end ?? Int64.max)
        XCTAssertFalse(range.overlaps(spanRange), "\(range) asks again for cached \(spanRange)")
      }
    }
    let fetched = requested.reduce(Int64(0)) {
      $0 + min(Int64(movie.count), $1.upperBound) - $1.lowerBound
    }
    let cachedBytes = cached.reduce(Int64(0)) { $0 + ($1.length ?? 0) }
    XCTAssertEqual(fetched, Int64(movie.count) - cachedBytes, "each missing byte fetched once")
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)
  }

  func testOpen_failsForAMissingResource_andAnEmptyOneOpensEmpty() throws {
    let server = try startServer(["/empty.mp4": Data()])
    let cache = try makeCache()
    let missing = playheadError { () throws(PlayheadError) in
      try self.reader(server.url("/missing.mp4"), cache).open()
    }
    XCTAssertEqual(missing?.code, .httpStatus)
    XCTAssertEqual(missing?.httpStatusCode, 404)
    let empty = reader(server.url("/empty.mp4"), cache)
    try empty.open()
    XCTAssertEqual(empty.length, 0)
    XCTAssertEqual(try readToEnd(empty), Data())
  }

  func testCancel_makesReadsThrowCancelled() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let reader = reader(server.url("/movie.mp4"), cache)
    try reader.open()
    reader.cancel()
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(reader, at: 300_000, count: 10)
    }
    XCTAssertEqual(error?.code, .cancelled)
    let direct = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    _ = try direct.open(DataRequest(url: server.url("/movie.mp4")))
    direct.cancel()
    XCTAssertEqual(
      playheadError { () throws(PlayheadError) in try readSome(direct, count: 10) }?.code,
      .cancelled)
  }

  func testAFailedRead_isTriedAgainOnlyWhenReadAgain() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let reader = reader(server.url("/movie.mp4"), cache, readAhead: 64 * 1024)
    try reader.open()
    server.setFault(.status(503), for: "/movie.mp4")
    server.clearRequests()
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(reader, at: 500_000, count: 10)
    }
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertEqual(server.requests.count, 1, "no retry behind the reader's back")
    server.setFault(nil, for: "/movie.mp4")
    XCTAssertEqual(
      try readFully(reader, at: 500_000, count: 10), movie.subdata(in: 500_000..<500_010))
    XCTAssertEqual(server.requests.count, 2)
  }

  func testStack_withACache_readsThroughIt_andLeavesItOutWhenDisabled() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache(.init(progressiveChunkBytes: chunk))
    let url = server.url("/movie.mp4")
    let stack = DataSourceStack(clock: ManualClock(advancesOnWait: true), cache: cache)
    // The default configuration retries: the cache source comes wrapped.
    let made = stack.makeDataSource()
    XCTAssertTrue((made as? RetryingDataSource)?.upstream is CacheDataSource)
    let reader = DataSourceReader(source: made, request: DataRequest(url: url, purpose: .media))
    XCTAssertEqual(try readToEnd(reader), movie)
    reader.close()
    server.clearRequests()
    let again = DataSourceReader(
      source: stack.makeDataSource(), request: DataRequest(url: url, purpose: .media))
    XCTAssertEqual(try readToEnd(again), movie)
    XCTAssertEqual(server.requests.count, 0)
    XCTAssertTrue(
      (stack.withoutCache().makeDataSource() as? RetryingDataSource)?.upstream is DefaultDataSource)
    MediaCache.isEnabled = false
    defer { MediaCache.isEnabled = true }
    XCTAssertTrue((stack.makeDataSource() as? RetryingDataSource)?.upstream is DefaultDataSource)
  }
}
