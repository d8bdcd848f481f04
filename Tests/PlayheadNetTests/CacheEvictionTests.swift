import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class CacheEvictionTests: XCTestCase {
  private let files: [String: Data] = [
    "/a.bin": generatedBytes(count: 100_000, seed: 1),
    "/b.bin": generatedBytes(count: 100_000, seed: 2),
    "/c.bin": generatedBytes(count: 100_000, seed: 3),
    "/d.bin": generatedBytes(count: 100_000, seed: 4),
  ]

  private func load(_ path: String, _ source: CacheDataSource, _ server: HTTPTestServer) throws {
    let response = try DataLoader(source: source).load(
      DataRequest(url: server.url(path), purpose: .segment))
    XCTAssertEqual(response.data, files[path])
  }

  private func cachedPaths(_ cache: MediaCache) -> [String] {
    cache.entries.map { URL(string: $0.key)?.path ?? $0.key }
  }

  func testCapacity_evictsTheLeastRecentlyUsedEntryFirst() throws {
    let server = try startServer(files)
    let cache = try makeCache(.init(maximumBytes: 300_000))
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    try load("/a.bin", source, server)
    try load("/b.bin", source, server)
    try load("/c.bin", source, server)
    // Reading a makes b the least recently used.
    try load("/a.bin", source, server)
    XCTAssertEqual(cachedPaths(cache), ["/a.bin", "/c.bin", "/b.bin"])
    try load("/d.bin", source, server)
    XCTAssertEqual(cachedPaths(cache), ["/d.bin", "/a.bin", "/c.bin"])
    XCTAssertEqual(cache.totalBytes, 300_000)
    try load("/b.bin", source, server)
    XCTAssertEqual(cachedPaths(cache), ["/b.bin", "/d.bin", "/a.bin"], "c went next")
    XCTAssertEqual(server.requestCount(for: "/a.bin"), 1)
    XCTAssertEqual(server.requestCount(for: "/b.bin"), 2)
  }

  func testCapacity_lowered_evictsAtOnceInLRUOrder() throws {
    let server = try startServer(files)
    let cache = try makeCache()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    for path in ["/c.bin", "/a.bin", "/d.bin", "/b.bin"] { try load(path, source, server) }
    var configuration = cache.configuration
    configuration.maximumBytes = 250_000
    cache.configuration = configuration
    XCTAssertEqual(cachedPaths(cache), ["/b.bin", "/d.bin"])
  }

  func testLRUOrder_survivesAReopen() throws {
    let server = try startServer(files)
    let folder = try makeTemporaryDirectory(for: self).appendingPathComponent("cache")
    let cache = try MediaCache.open(directory: folder)
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    for path in ["/b.bin", "/a.bin", "/d.bin", "/c.bin", "/a.bin"] {
      try load(path, source, server)
    }
    cache.close()
    let reopened = try makeCache(.init(maximumBytes: 200_000), directory: folder)
    XCTAssertFalse(reopened === cache)
    XCTAssertEqual(cachedPaths(reopened), ["/a.bin", "/c.bin"])
  }

  func testEntriesInUse_areNotEvicted() throws {
    let server = try startServer(files)
    let cache = try makeCache(.init(maximumBytes: 250_000, progressiveChunkBytes: 4096))
    let filler = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    try load("/a.bin", filler, server)
    // An open reader keeps its entry in use until it closes.
    let reader = DataSourceReader(
      source: CacheDataSource(upstream: HTTPDataSource(), cache: cache),
      request: DataRequest(url: server.url("/a.bin"), purpose: .media))
    try reader.open()
    let holding = HoldingDataSource(HTTPDataSource())
    let holder = CacheDataSource(upstream: holding, cache: cache)
    let held = runInBackground("held load") { [server] in
      try DataLoader(source: holder).load(DataRequest(url: server.url("/b.bin"), purpose: .segment))
    }
    holding.waitUntilHeld()
    try load("/c.bin", filler, server)
    try load("/d.bin", filler, server)
    XCTAssertEqual(
      cachedPaths(cache), ["/d.bin", "/a.bin"], "a is the oldest, but the reader uses it")
    holding.letGo()
    wait(for: [held.done], timeout: 10)
    XCTAssertEqual(try held.result.value?.get().data, files["/b.bin"])
    XCTAssertEqual(cachedPaths(cache), ["/b.bin", "/a.bin"])
    XCTAssertEqual(cache.entries.map(\.isInUse), [false, true])
    XCTAssertEqual(try readFully(reader, at: 0, count: 100_000), files["/a.bin"])
    reader.close()
    XCTAssertEqual(cache.entries.map(\.isInUse), [false, false])
  }

  func testFreeDiskFloor_evictsUntilEnoughIsFree() throws {
    let server = try startServer(files)
    // A 1 MB disk, 550 kB used by others, the cache must leave 200 kB free: it can use
    // at most 250 kB (two 100 kB entries plus their small index files).
    let cache = try makeCache(
      .init(
        minimumFreeBytes: 200_000,
        freeSpaceProvider: SimulatedFreeSpace(diskBytes: 1_000_000, otherBytes: 550_000)))
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    for path in ["/a.bin", "/b.bin", "/c.bin", "/d.bin"] { try load(path, source, server) }
    XCTAssertEqual(cachedPaths(cache), ["/d.bin", "/c.bin"])
    let free = SimulatedFreeSpace(diskBytes: 1_000_000, otherBytes: 550_000)
      .availableBytes(at: cache.directory)
    XCTAssertGreaterThanOrEqual(free ?? 0, 200_000)

    // The disk filling up from elsewhere makes the next trim evict more.
    var configuration = cache.configuration
    configuration.freeSpaceProvider = SimulatedFreeSpace(diskBytes: 1_000_000, otherBytes: 650_000)
    cache.configuration = configuration
    XCTAssertEqual(cachedPaths(cache), ["/d.bin"])
  }

  func testFreeDiskFloor_whenNothingCanGo_storesNothing() throws {
    let server = try startServer(files)
    let cache = try makeCache(
      .init(
        minimumFreeBytes: 200_000,
        freeSpaceProvider: SimulatedFreeSpace(diskBytes: 1_000_000, otherBytes: 750_000)))
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    try load("/a.bin", source, server)
    try load("/a.bin", source, server)
    XCTAssertEqual(cache.totalBytes, 0)
    XCTAssertEqual(server.requestCount(for: "/a.bin"), 2, "the bytes still reach the caller")
  }

  func testStatvfsProvider_reportsTheRealFilesystem() throws {
    let directory = try makeTemporaryDirectory(for: self)
    let free = StatvfsFreeSpaceProvider().availableBytes(at: directory)
    XCTAssertNotNil(free)
    XCTAssertGreaterThan(free ?? 0, 0)
    XCTAssertNil(
      StatvfsFreeSpaceProvider().availableBytes(
        at: directory.appendingPathComponent("missing/deeper")))
  }
}
