import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class CacheConcurrencyTests: XCTestCase {
  func testManyLoadersSharingOneCache_leaveEveryEntryEqualToItsSource() throws {
    let files = Dictionary(
      uniqueKeysWithValues: (0..<6).map { index in
        ("/file\(index).bin", generatedBytes(count: 150_000 + index * 7_919, seed: UInt32(index)))
      })
    let server = try startServer(files)
    // Small enough that entries are evicted while others load.
    let cache = try makeCache(.init(maximumBytes: 700_000, progressiveChunkBytes: 8192))
    let paths = files.keys.sorted()
    var runs: [(done: XCTestExpectation, result: LockedBox<Result<Int, PlayheadError>?>)] = []
    for worker in 0..<8 {
      runs.append(
        runInBackground("loader \(worker)") { [server] in
          let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
          var generator = SplitMix(seed: UInt64(worker + 1))
          var checked = 0
          for _ in 0..<40 {
            let path = paths[Int(generator.next() % UInt64(paths.count))]
            let body = files[path] ?? Data()
            let offset = Int(generator.next() % UInt64(body.count))
            let length = 1 + Int(generator.next() % UInt64(body.count - offset))
            let response = try DataLoader(source: source).load(
              DataRequest(
                url: server.url(path),
                range: ByteRange(offset: Int64(offset), length: Int64(length)),
                purpose: .segment))
            guard response.data == body.subdata(in: offset..<(offset + length)) else {
              throw PlayheadError(.ioError, "wrong bytes for \(path) at \(offset)+\(length)")
            }
            checked += 1
          }
          return checked
        })
    }
    for worker in 0..<3 {
      runs.append(
        runInBackground("reader \(worker)") { [server] in
          let path = paths[worker]
          let reader = DataSourceReader(
            source: CacheDataSource(upstream: HTTPDataSource(), cache: cache),
            request: DataRequest(url: server.url(path), purpose: .media))
          try reader.open()
          let data = try readToEnd(reader, chunk: 5_000)
          guard data == files[path] else { throw PlayheadError(.ioError, "reader \(path) differs") }
          return 1
        })
    }
    wait(for: runs.map(\.done), timeout: 120)
    for run in runs {
      XCTAssertNoThrow(try run.result.value?.get())
    }
    try verify(cache, against: files, server: server)

    // The same holds for what is on disk: reopen and check again.
    let directory = cache.directory
    cache.close()
    let reopened = try makeCache(directory: directory)
    XCTAssertEqual(reopened.totalBytes, cache.totalBytes)
    try verify(reopened, against: files, server: server)
  }

  private func verify(_ cache: MediaCache, against files: [String: Data], server: HTTPTestServer)
    throws
  {
    XCTAssertFalse(cache.entries.isEmpty)
    XCTAssertLessThanOrEqual(cache.totalBytes, 700_000)
    XCTAssertEqual(cache.totalBytes, cache.entries.reduce(0) { $0 + $1.cachedBytes })
    for entry in cache.entries {
      let path = URL(string: entry.key)?.path ?? ""
      let body = try XCTUnwrap(files[path], "unknown key \(entry.key)")
      XCTAssertEqual(entry.totalLength, Int64(body.count))
      for range in entry.cachedRanges {
        let end = Int(range.end ?? 0)
        XCTAssertEqual(
          cache.cachedData(forKey: entry.key, range: range),
          body.subdata(in: Int(range.offset)..<end),
          "\(path) \(range)")
      }
    }
  }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
