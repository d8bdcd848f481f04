import Foundation
import PlayheadCore

/// Opens through a `MediaCache`: cached bytes come from disk, missing bytes from `upstream`,
/// and what upstream delivers is stored for next time (Media3's `CacheDataSource`).
///
/// An open walks the requested bytes in order: a cached span is read from disk, and each
/// hole between spans is one upstream request with a `Range` for it (a resource with
/// nothing cached is asked for exactly as the caller asked). Bytes from upstream are stored
/// as they are read, in pieces of the cache's `progressiveChunkBytes`, and what was read of
/// a hole is stored when the open closes early (a seek, an abandoned segment). While an
/// open lasts, the resource's entry is in use and never evicted.
///
/// What is cached: every `http` and `https` request, except playlists (purpose
/// `.playlist`, or a `.m3u8` / `.m3u` path), which are stored only when they are complete
/// VOD playlists (`#EXT-X-ENDLIST`) and are always stored and served whole. Bytes that start
/// like a playlist (`#EXTM3U`) under any other URL are stored only under the same rule.
/// Other schemes, requests with `bypassesCache`, `deliversErrorResponses` (API calls) or a
/// `body` (a POST, such as a licence request) go straight to upstream, as do all requests while `MediaCache.isEnabled` is false or the
/// cache is closed.
///
/// The head of an open served entirely from the cache has `isFromCache` set (a bandwidth
/// meter ignores its timing). Errors are upstream's. A range that starts at or past the end
/// of a resource whose length the cache knows throws `.httpStatus` 416, as a server would.
/// Failing to write the cache never fails a read: the bytes reach the caller and are simply
/// not stored.
///
/// Example:
/// ```swift
/// let cache = try MediaCache.open(directory: cacheDirectory)
/// let factory = DataSourceFactories.decorating(DefaultDataSourceFactory()) {
///   CacheDataSource(upstream: $0, cache: cache)
/// }
/// ```
public final class CacheDataSource: DataSource, Sendable {
  /// Where missing bytes come from.
  public let upstream: any DataSource
  /// Where bytes are kept.
  public let cache: MediaCache

  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var open: CacheOpen?
    var fromCache: Int64 = 0
    var fromUpstream: Int64 = 0
  }

  public init(upstream: any DataSource, cache: MediaCache) {
    self.upstream = upstream
    self.cache = cache
  }

  /// Bytes this source has delivered from the cache so far.
  public var bytesFromCache: Int64 { state.withLock { $0.fromCache } }

  /// Bytes this source has delivered from upstream so far (cacheable or not).
  public var bytesFromUpstream: Int64 { state.withLock { $0.fromUpstream } }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    close()
    if state.withLock({ $0.cancelled }) { throw PlayheadError.sourceCancelled(request.url) }
    guard MediaCache.isEnabled, Self.isCacheable(request),
      let lease = CacheLease(cache: cache, key: cache.key(for: request.url))
    else {
      let head = try upstream.open(request)
      state.withLock { $0.open = CacheOpen(request: request, passthrough: true) }
      return head
    }
    let opening = CacheOpen(request: request, lease: lease)
    do {
      let head = try opening.start(cache: cache, upstream: upstream)
      state.withLock { $0.open = opening }
      return head
    } catch {
      opening.finish(cache: cache, upstream: upstream)
      throw error
    }
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    guard let opening = state.withLock({ $0.open }) else {
      if state.withLock({ $0.cancelled }) { throw PlayheadError.sourceCancelled(nil) }
      throw PlayheadError.notOpen(nil)
    }
    if opening.passthrough {
      let count = try upstream.read(into: buffer)
      state.withLock { $0.fromUpstream += Int64(count) }
      return count
    }
    let result = Result { () throws(PlayheadError) -> Int in
      try opening.read(into: buffer, cache: cache, upstream: upstream) {
        state.withLock { $0.cancelled }
      }
    }
    let (cached, fetched) = opening.takeCounts()
    state.withLock { state in
      state.fromCache += cached
      state.fromUpstream += fetched
    }
    return try result.get()
  }

  public func close() {
    let opening = state.withLock { state in
      defer { state.open = nil }
      return state.open
    }
    guard let opening else { return }
    if opening.passthrough {
      upstream.close()
    } else {
      opening.finish(cache: cache, upstream: upstream)
    }
  }

  /// Makes a blocked and every later call throw `.cancelled`, and cancels `upstream`.
  public func cancel() {
    state.withLock { $0.cancelled = true }
    upstream.cancel()
  }

  /// Upstream's read-ahead, with the resource's bytes on disk as `cachedRanges`.
  public var bufferState: DataBufferState? {
    let opening = state.withLock { $0.open }
    var buffer = upstream.bufferState ?? DataBufferState()
    guard let opening, !opening.passthrough else { return upstream.bufferState }
    buffer.cachedRanges = opening.lease?.cachedRanges ?? []
    if opening.readsFromDisk { buffer.isHoldingBack = true }
    return buffer
  }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }

  // MARK: Rules

  /// Whether the cache may hold `request`'s bytes at all.
  static func isCacheable(_ request: DataRequest) -> Bool {
    guard !request.deliversErrorResponses, !request.flags.contains(.bypassesCache),
      request.body == nil
    else {
      return false
    }
    let scheme = request.url.scheme?.lowercased()
    return scheme == "http" || scheme == "https"
  }

  /// Whether `request` is for a playlist, by purpose or by extension.
  static func isPlaylist(_ request: DataRequest) -> Bool {
    if request.purpose == .playlist { return true }
    return ["m3u8", "m3u"].contains(request.url.pathExtension.lowercased())
  }

  /// Whether `data` starts like an M3U playlist (after an optional byte-order mark).
  static func looksLikePlaylist(_ data: Data) -> Bool {
    var bytes = data.prefix(16)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return bytes.starts(with: Array("#EXTM3U".utf8))
  }

  /// Whether `data` is a playlist that will not change: it has `#EXT-X-ENDLIST`.
  static func isCompletePlaylist(_ data: Data) -> Bool {
    looksLikePlaylist(data) && data.range(of: Data("#EXT-X-ENDLIST".utf8)) != nil
  }
}
