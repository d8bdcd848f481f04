import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class CacheByteSourceTests: XCTestCase {
  private let movie = generatedBytes(count: 1_000_000, seed: 0xF00D)
  private let chunk = 64 * 1024

  private func reader(_ url: URL, _ cache: MediaCache, readAhead: Int = 2) -> CacheByteSource {
    CacheByteSource(
      url: url, dataSource: CacheDataSource(upstream: HTTPDataSource(), cache: cache),
      chunkBytes: chunk, readAheadChunks: readAhead)
  }

  func testRead_throughTheCache_givesTheBytesAndTheSecondReaderMakesNoRequest() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let url = server.url("/movie.mp4")
    let first = reader(url, cache)
    try first.open()
    XCTAssertEqual(first.length, Int64(movie.count))
    XCTAssertEqual(try readToEnd(first, chunk: 10_000), movie)
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)
    first.cancel()

    server.clearRequests()
    let second = reader(url, cache)
    try second.open()
    XCTAssertEqual(try readToEnd(second, chunk: 10_000), movie)
    XCTAssertEqual(
      try readFully(second, at: 123_456, count: 1_000), movie.subdata(in: 123_456..<124_456))
    XCTAssertEqual(server.requests.count, 0)
  }

  func testSeek_intoAHalfCachedFile_fetchesOnlyTheMissingRanges() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let url = server.url("/movie.mp4")
    let first = reader(url, cache, readAhead: 0)
    try first.open()
    XCTAssertEqual(try readFully(first, at: 0, count: 400_000), movie.subdata(in: 0..<400_000))
    first.cancel()
    let cached = cache.entry(forKey: cache.key(for: url))?.cachedRanges ?? []
    XCTAssertEqual(cached.first?.offset, 0)
    XCTAssertGreaterThanOrEqual(cache.entry(forKey: cache.key(for: url))?.cachedBytes ?? 0, 400_000)

    server.clearRequests()
    let second = reader(url, cache)
    try second.open()
    // A seek past the cached half, then back to the start.
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
    let fetched = requested.reduce(Int64(0)) { $0 + Int64($1.count) }
    let cachedBytes = cached.reduce(Int64(0)) { $0 + ($1.length ?? 0) }
    XCTAssertEqual(fetched, Int64(movie.count) - cachedBytes, "each missing byte fetched once")
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)
  }

  func testOpen_failsForAMissingOrEmptyResource() throws {
    let server = try startServer(["/empty.mp4": Data()])
    let cache = try makeCache()
    let missing = playheadError { () throws(PlayheadError) in
      try self.reader(server.url("/missing.mp4"), cache).open()
    }
    XCTAssertEqual(missing?.code, .httpStatus)
    XCTAssertEqual(missing?.httpStatusCode, 404)
    let empty = playheadError { () throws(PlayheadError) in
      try self.reader(server.url("/empty.mp4"), cache).open()
    }
    XCTAssertEqual(empty?.code, .emptySource)
  }

  func testCancel_makesReadsThrowCancelled() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let source = reader(server.url("/movie.mp4"), cache)
    try source.open()
    source.cancel()
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(source, at: 300_000, count: 10)
    }
    XCTAssertEqual(error?.code, .cancelled)
  }

  func testByteSourcesOpen_withACache_readsThroughIt() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache(.init(progressiveChunkBytes: chunk))
    let url = server.url("/movie.mp4")
    let source = try ByteSources.open(url, cache: cache)
    // The default configuration retries: the cache source comes wrapped.
    XCTAssertTrue((source as? RetryingByteSource)?.inner is CacheByteSource)
    XCTAssertEqual(try readToEnd(source), movie)
    source.cancel()
    server.clearRequests()
    XCTAssertEqual(try readToEnd(try ByteSources.open(url, cache: cache)), movie)
    XCTAssertEqual(server.requests.count, 0)
    MediaCache.isEnabled = false
    defer { MediaCache.isEnabled = true }
    XCTAssertTrue(
      (try ByteSources.open(url, cache: cache) as? RetryingByteSource)?.inner is HTTPByteSource)
  }
}

extension CacheByteSourceTests {
  func testAFailedChunk_isTriedAgainOnlyWhenReadAgain() throws {
    let server = try startServer(["/movie.mp4": movie])
    let cache = try makeCache()
    let source = reader(server.url("/movie.mp4"), cache, readAhead: 0)
    try source.open()
    server.setFault(.status(503), for: "/movie.mp4")
    server.clearRequests()
    let error = playheadError { () throws(PlayheadError) in
      try readOnce(source, at: 500_000, count: 10)
    }
    XCTAssertEqual(error?.httpStatusCode, 503)
    XCTAssertEqual(server.requests.count, 1, "no retry behind the reader's back")
    server.setFault(nil, for: "/movie.mp4")
    XCTAssertEqual(
      try readFully(source, at: 500_000, count: 10), movie.subdata(in: 500_000..<500_010))
    XCTAssertEqual(server.requests.count, 2)
  }
}
