import Foundation
import PlayheadCore

/// One cached resource in memory: its key, spans and use count.
///
/// Every `var` is reached only inside the owning `MediaCache`'s `state.withLock` (or
/// before the entry is shared, while the cache recovers it). `withCommitLock` serialises the
/// entry's file writes (span files and index), so that two loads storing bytes of the
/// same resource at once never lose each other's spans; it is always taken before the
/// cache's lock, never while holding it.
final class CacheEntry: @unchecked Sendable {
  // Unchecked Sendable: the `let`s never change; the `var`s are guarded by the cache's
  // lock, as described above.
  let id: String
  let key: String
  let directory: URL
  /// Held while the entry's files are written: it guards the files on disk, not a value,
  /// so it is a bare lock (a `Locked(())` made ThreadSanitizer report a race between its
  /// zero-size value and the object's header).
  private let commitLock = NSLock()

  /// Runs `body` holding the entry's commit lock (the cache's lock may be taken inside).
  func withCommitLock<Result>(_ body: () -> Result) -> Result {
    commitLock.lock()
    defer { commitLock.unlock() }
    return body()
  }

  var totalLength: Int64?
  var spans: [CacheSpan] = []
  /// When the entry was last used, in nanoseconds since 1970; strictly increasing across
  /// the cache's entries, so that it orders them for eviction.
  var accessStamp: Int64 = 0
  /// Loads and readers using the entry now; an entry in use is never evicted.
  var users = 0
  /// Set when the entry left the cache (evicted or removed); its files are gone or going.
  var isRemoved = false
  /// Whether the entry's directory exists on disk.
  var hasDirectory = false

  init(id: String, key: String, directory: URL) {
    self.id = id
    self.key = key
    self.directory = directory
  }

  var cachedBytes: Int64 { spans.reduce(0) { $0 + $1.length } }

  var indexURL: URL { directory.appendingPathComponent("index.json") }

  func spanURL(_ span: CacheSpan) -> URL { directory.appendingPathComponent(span.fileName) }

  /// Whether every byte of the resource is cached.
  var isComplete: Bool {
    guard let totalLength else { return false }
    return CacheSpans.covers(length: totalLength, with: spans)
  }

  /// The entry directory name for `key`: the 64-bit FNV-1a hash of its UTF-8 bytes in
  /// 16 lowercase hex digits. Two keys with one hash share the name; the index records
  /// the key, and a newcomer replaces an unused entry of another key.
  static func identifier(for key: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether `name` has the form of an entry directory name.
  static func isIdentifier(_ name: String) -> Bool {
    name.count == 16 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
  }
}
