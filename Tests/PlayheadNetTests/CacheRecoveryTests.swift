import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class CacheRecoveryTests: XCTestCase {
  private let first = generatedBytes(count: 200_000, seed: 11)
  private let second = generatedBytes(count: 150_000, seed: 12)

  /// A closed cache in `folder` holding `/first.bin` whole and `/second.bin` in two spans.
  private func fillCache(_ folder: URL, _ server: HTTPTestServer) throws {
    let cache = try MediaCache.open(directory: folder)
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    _ = try DataLoader(source: source).load(
      DataRequest(url: server.url("/first.bin"), purpose: .media))
    let url = server.url("/second.bin")
    _ = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 0, length: 50_000)))
    _ = try DataLoader(source: source).load(
      DataRequest(url: url, range: ByteRange(offset: 50_000, length: 100_000)))
    XCTAssertEqual(cache.entries.count, 2)
    cache.close()
  }

  private func entryDirectory(_ folder: URL, for url: URL) throws -> URL {
    let entries = folder.appendingPathComponent("entries")
    for name in try FileManager.default.contentsOfDirectory(atPath: entries.path) {
      let index = entries.appendingPathComponent(name).appendingPathComponent("index.json")
      guard let data = try? Data(contentsOf: index),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { continue }
      if object["key"] as? String == url.absoluteString {
        return entries.appendingPathComponent(name)
      }
    }
    throw FixtureError("no entry directory for \(url)")
  }

  func testOpen_dropsGarbageTemporaryFilesAndTruncatedSpans_andStillWorks() throws {
    let server = try startServer(["/first.bin": first, "/second.bin": second])
    let folder = try makeTemporaryDirectory(for: self).appendingPathComponent("cache")
    try fillCache(folder, server)
    let secondDirectory = try entryDirectory(folder, for: server.url("/second.bin"))
    let firstDirectory = try entryDirectory(folder, for: server.url("/first.bin"))
    let entries = folder.appendingPathComponent("entries")
    // A crash mid-write and stray files: temporary files, garbage at every level, an
    // entry whose index is garbage, an index-less entry, and a span cut short.
    try Data("half".utf8).write(to: folder.appendingPathComponent(".tmp-1234"))
    try Data("junk".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(".trash-55/x"), withIntermediateDirectories: true)
    try Data("junk".utf8).write(to: entries.appendingPathComponent("README"))
    let bogus = entries.appendingPathComponent("0123456789abcdef")
    try FileManager.default.createDirectory(at: bogus, withIntermediateDirectories: true)
    try Data("{not json".utf8).write(to: bogus.appendingPathComponent("index.json"))
    try Data(count: 10).write(to: bogus.appendingPathComponent("0.span"))
    let indexless = entries.appendingPathComponent("fedcba9876543210")
    try FileManager.default.createDirectory(at: indexless, withIntermediateDirectories: true)
    try Data(count: 10).write(to: indexless.appendingPathComponent("0.span"))
    try Data("partial span".utf8).write(
      to: firstDirectory.appendingPathComponent(".tmp-ABCD"))
    try Data(count: 99).write(to: firstDirectory.appendingPathComponent("777.span"))
    let truncated = secondDirectory.appendingPathComponent("50000.span")
    XCTAssertEqual(truncate(truncated.path, 60_000), 0)

    let cache = try makeCache(directory: folder)
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
      [".playhead-cache", ".lock", "entries"])
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: entries.path)),
      [firstDirectory.lastPathComponent, secondDirectory.lastPathComponent])
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: firstDirectory.path)),
      ["index.json", "0.span"])
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: secondDirectory.path)),
      ["index.json", "0.span"])
    let secondKey = cache.key(for: server.url("/second.bin"))
    XCTAssertEqual(
      cache.entry(forKey: secondKey)?.cachedRanges, [ByteRange(offset: 0, length: 50_000)])
    XCTAssertEqual(cache.totalBytes, 250_000)

    // Still works: the dropped span is fetched again, the rest comes from disk.
    server.clearRequests()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    XCTAssertEqual(
      try DataLoader(source: source).load(
        DataRequest(url: server.url("/second.bin"), purpose: .media)
      ).data, second)
    XCTAssertEqual(requestedRanges(server, path: "/second.bin"), [50_000..<150_000])
    XCTAssertEqual(
      try DataLoader(source: source).load(
        DataRequest(url: server.url("/first.bin"), purpose: .media)
      ).data, first)
    XCTAssertEqual(server.requestCount(for: "/first.bin"), 0)
  }

  func testRead_ofASpanFileThatVanished_fetchesItAgain() throws {
    let server = try startServer(["/first.bin": first, "/second.bin": second])
    let cache = try makeCache()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    let url = server.url("/first.bin")
    _ = try DataLoader(source: source).load(DataRequest(url: url, purpose: .media))
    let directory = try entryDirectory(cache.directory, for: url)
    try FileManager.default.removeItem(at: directory.appendingPathComponent("0.span"))
    XCTAssertEqual(
      try DataLoader(source: source).load(DataRequest(url: url, purpose: .media)).data, first)
    XCTAssertEqual(server.requestCount(for: "/first.bin"), 2)
    XCTAssertEqual(cache.entry(forKey: cache.key(for: url))?.isComplete, true)
  }

  func testOpen_ofADirectoryWithOtherFiles_refusesIt() throws {
    let folder = try makeTemporaryDirectory(for: self)
    try Data("precious".utf8).write(to: folder.appendingPathComponent("thesis.tex"))
    XCTAssertThrowsError(try MediaCache.open(directory: folder)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("thesis.tex").path))
  }

  func testOpen_ofACacheOfAnotherFormat_fails() throws {
    let folder = try makeTemporaryDirectory(for: self)
    try Data("playhead-cache 99\n".utf8).write(to: folder.appendingPathComponent(".playhead-cache"))
    XCTAssertThrowsError(try MediaCache.open(directory: folder)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .unsupportedFormat)
    }
  }

  func testOpen_twiceInOneProcess_givesOneInstance() throws {
    let folder = try makeTemporaryDirectory(for: self).appendingPathComponent("cache")
    let cache = try makeCache(directory: folder)
    let again = try MediaCache.open(
      directory: folder.appendingPathComponent("../cache/."),
      configuration: .init(maximumBytes: 1234))
    XCTAssertTrue(cache === again)
    XCTAssertEqual(cache.configuration.maximumBytes, 1234)
    XCTAssertFalse(cache.isReadOnly)
  }

  func testOpen_whileAnotherProcessHoldsTheDirectory_isReadOnly() throws {
    let server = try startServer(["/first.bin": first, "/second.bin": second])
    let folder = try makeTemporaryDirectory(for: self).appendingPathComponent("cache")
    try fillCache(folder, server)
    try Data("in progress".utf8).write(to: folder.appendingPathComponent(".tmp-other"))
    // Another process's lock: a separate open file description holding the flock.
    let fd = open(folder.appendingPathComponent(".lock").path, O_RDWR)
    XCTAssertGreaterThanOrEqual(fd, 0)
    XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
    defer { close(fd) }

    let cache = try makeCache(directory: folder)
    XCTAssertTrue(cache.isReadOnly)
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent(".tmp-other").path),
      "a read-only cache leaves the owner's files alone")
    server.clearRequests()
    let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
    XCTAssertEqual(
      try DataLoader(source: source).load(
        DataRequest(url: server.url("/first.bin"), purpose: .media)
      ).data, first)
    XCTAssertEqual(
      try DataLoader(source: source).load(
        DataRequest(url: server.url("/second.bin"), purpose: .media)
      ).data, second)
    XCTAssertEqual(server.requestCount(for: "/first.bin"), 0)
    XCTAssertEqual(server.requestCount(for: "/second.bin"), 0)
    let third = server.url("/first.bin").deletingLastPathComponent()
      .appendingPathComponent("third.bin")
    server.setFile(first, at: "/third.bin")
    _ = try DataLoader(source: source).load(DataRequest(url: third, purpose: .media))
    XCTAssertNil(cache.entry(forKey: cache.key(for: third)), "a read-only cache stores nothing")
  }
}
