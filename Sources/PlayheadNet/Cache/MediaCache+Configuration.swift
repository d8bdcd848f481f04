import Foundation
import PlayheadCore

extension MediaCache {
  /// The limits and callbacks of a disk cache.
  ///
  /// The cache evicts least recently used entries (never one in use) while it holds more
  /// than `maximumBytes`, or while its filesystem has less than `minimumFreeBytes` free;
  /// a span that cannot fit even then is not stored (the bytes still reach the player).
  public struct Configuration: Sendable {
    /// 20 GiB, the default capacity.
    public static let defaultMaximumBytes: Int64 = 20 * 1024 * 1024 * 1024

    /// The most bytes the cache keeps (the sum of its spans; the small index files are
    /// not counted). Values below 0 count as 0.
    public var maximumBytes: Int64
    /// The free space the cache leaves on its filesystem: it evicts until at least this
    /// much is free, and stores nothing that would go below it. 0 (the default) = no floor.
    public var minimumFreeBytes: Int64
    /// Gives the cache key of a URL. Nil uses `MediaCache.defaultKey(for:)`, the URL
    /// without its query and fragment, so that signed URLs whose tokens change share one
    /// entry. Return distinct keys for distinct resources; the callback runs on loading
    /// threads and must not call back into the cache.
    public var cacheKey: (@Sendable (URL) -> String)?
    /// Where the free space comes from (the real filesystem by default; a test may
    /// simulate it).
    public var freeSpaceProvider: any FreeSpaceProvider
    /// How many bytes a progressive (non-HLS) reader asks for per request, and the grain
    /// of its spans; at least 4 KiB.
    public var progressiveChunkBytes: Int

    /// Creates a configuration: 20 GiB, no free-disk floor, the default key, `statvfs`
    /// free space, 1 MiB progressive chunks.
    public init(
      maximumBytes: Int64 = Configuration.defaultMaximumBytes, minimumFreeBytes: Int64 = 0,
      cacheKey: (@Sendable (URL) -> String)? = nil,
      freeSpaceProvider: any FreeSpaceProvider = StatvfsFreeSpaceProvider(),
      progressiveChunkBytes: Int = 1024 * 1024
    ) {
      self.maximumBytes = maximumBytes
      self.minimumFreeBytes = minimumFreeBytes
      self.cacheKey = cacheKey
      self.freeSpaceProvider = freeSpaceProvider
      self.progressiveChunkBytes = progressiveChunkBytes
    }

    var effectiveMaximumBytes: Int64 { max(0, maximumBytes) }
    var effectiveMinimumFreeBytes: Int64 { max(0, minimumFreeBytes) }
    var effectiveChunkBytes: Int { max(4096, progressiveChunkBytes) }
  }

  /// What the cache holds for one key, as a snapshot.
  public struct EntryInfo: Sendable, Equatable {
    /// The cache key.
    public var key: String
    /// The resource's whole length, once the cache has learned it.
    public var totalLength: Int64?
    /// The cached byte ranges, in order, none overlapping.
    public var cachedRanges: [ByteRange]
    /// The sum of the cached ranges' lengths.
    public var cachedBytes: Int64
    /// Whether every byte of the resource is cached.
    public var isComplete: Bool
    /// When the entry was last used (read or written).
    public var lastAccess: Date
    /// Whether a load or a reader is using the entry now (it cannot be evicted then).
    public var isInUse: Bool
  }

  /// The default cache key: the URL without its query and fragment (`https://cdn/a.ts`
  /// for `https://cdn/a.ts?token=1#t=2`).
  public static func defaultKey(for url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return url.absoluteString
    }
    components.query = nil
    components.fragment = nil
    return components.string ?? url.absoluteString
  }
}
