import Foundation
import PlayheadCore
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// A filesystem of `diskBytes` whose only other user holds `otherBytes`: the free space is
/// what the cache directory's files leave, measured on disk at each call.
struct SimulatedFreeSpace: FreeSpaceProvider {
  var diskBytes: Int64
  var otherBytes: Int64

  func availableBytes(at directory: URL) -> Int64? {
    diskBytes - otherBytes - Self.bytes(under: directory)
  }

  /// The sizes of the regular files under `directory`.
  static func bytes(under directory: URL) -> Int64 {
    guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return 0 }
    var total: Int64 = 0
    while let name = walker.nextObject() as? String {
      let path = directory.appendingPathComponent(name).path
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let size = attributes[.size] as? NSNumber
      else { continue }
      total += size.int64Value
    }
    return total
  }
}

extension XCTestCase {
  /// A cache in a fresh temporary directory, closed by the test's teardown.
  func makeCache(
    _ configuration: MediaCache.Configuration = .init(), directory: URL? = nil
  ) throws -> MediaCache {
    let folder = try directory ?? makeTemporaryDirectory(for: self).appendingPathComponent("cache")
    let cache = try MediaCache.open(directory: folder, configuration: configuration)
    addTeardownBlock { cache.close() }
    return cache
  }
}

/// The `Range` headers the server logged for `path`, parsed as `[first, last + 1)` (an
/// open range ends at `Int64.max`); a request without `Range` counts as the whole file.
func requestedRanges(_ server: HTTPTestServer, path: String) -> [Range<Int64>] {
  server.requests.filter { $0.path == path }.map { request in
    guard let header = request.range, header.hasPrefix("bytes=") else { return 0..<Int64.max }
    let bounds = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
    let first = Int64(bounds.first ?? "") ?? 0
    let last = bounds.count > 1 ? Int64(bounds[1]).map { $0 + 1 } : nil
    return first..<(last ?? Int64.max)
  }
}
