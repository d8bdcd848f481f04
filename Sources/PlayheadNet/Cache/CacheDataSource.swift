import Foundation
import PlayheadCore

/// A data source that reads through a `MediaCache`: cached bytes come from disk, missing
/// bytes from `upstream`, and what upstream delivers is stored for next time.
///
/// A load for a range serves the cached spans and fetches only the holes between them
/// from upstream, in order (each hole one upstream request, with a `Range` for it; a
/// resource with nothing cached is asked for exactly as the caller asked). Progress is
/// reported after each cached span and during each upstream transfer, with
/// `bytesLoaded` counting the whole response so far.
///
/// What is cached: every `http` and `https` load, except playlists (purpose `.playlist`,
/// or a `.m3u8` / `.m3u` path), which are stored only when they are complete VOD
/// playlists (`#EXT-X-ENDLIST`) and are always stored and served whole. Bytes that start
/// like a playlist (`#EXTM3U`) under any other URL are stored only under the same rule.
/// Other schemes and requests that set `deliversErrorResponses` (API calls) go straight
/// to upstream, as do all loads while `MediaCache.isEnabled` is false or the cache is
/// closed.
///
/// Time: a response served entirely from the cache has `startClock == endClock` (a
/// bandwidth meter ignores it); a response with upstream bytes carries the upstream's
/// clock times, from its first request to its last.
///
/// Errors are upstream's. A range that starts at or past the end of a resource whose
/// length the cache knows throws `.httpStatus` 416, as a server would. Failing to write
/// the cache never fails a load: the bytes reach the caller and are simply not stored.
///
/// Example:
/// ```swift
/// let cache = try MediaCache.open(directory: cacheDirectory)
/// let source = CacheDataSource(upstream: HTTPDataSource(), cache: cache)
/// let segment = try source.load(DataRequest(url: segmentURL, purpose: .segment))
/// ```
public final class CacheDataSource: DataSource, Sendable {

  /// Where missing bytes come from.
  public let upstream: any DataSource
  /// Where bytes are kept.
  public let cache: MediaCache
  /// Timestamps responses served entirely from the cache.
  public let clock: any Clock

  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var fromCache: Int64 = 0
    var fromUpstream: Int64 = 0
  }

  /// Wraps `upstream` with `cache`.
  public init(upstream: any DataSource, cache: MediaCache, clock: any Clock = HostClock.shared) {
    self.upstream = upstream
    self.cache = cache
    self.clock = clock
  }

  /// Bytes this source has delivered from the cache so far.
  public var bytesFromCache: Int64 { state.withLock { $0.fromCache } }

  /// Bytes this source has delivered from upstream so far (cacheable or not).
  public var bytesFromUpstream: Int64 { state.withLock { $0.fromUpstream } }

  /// Loads `request` through the cache; see the type.
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    try throwIfCancelled(request.url)
    guard MediaCache.isEnabled, Self.isCacheable(request),
      let entry = cache.acquire(key: cache.key(for: request.url))
    else {
      let response = try upstream.load(request, progress: progress)
      count(cached: 0, upstream: response.data.count)
      return response
    }
    defer { cache.release(entry) }
    if request.range?.length == 0 {
      let now = clock.now
      return DataResponse(data: Data(), url: request.url, startClock: now, endClock: now)
    }
    if Self.isPlaylist(request) {
      return try loadPlaylist(request, entry: entry, progress: progress)
    }
    var load = CacheLoad(source: self, request: request, entry: entry, progress: progress)
    let response = try load.run()
    count(cached: load.cachedBytes, upstream: load.upstreamBytes)
    return response
  }

  /// Makes every blocked and future load throw `.cancelled`, and cancels `upstream`.
  public func cancelAll() {
    state.withLock { $0.cancelled = true }
    upstream.cancelAll()
  }

  // MARK: Internals

  func throwIfCancelled(_ url: URL) throws(PlayheadError) {
    if state.withLock({ $0.cancelled }) {
      throw PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
    }
  }

  private func count(cached: Int, upstream: Int) {
    state.withLock { state in
      state.fromCache += Int64(cached)
      state.fromUpstream += Int64(upstream)
    }
  }

  /// A playlist: served whole from the cache when a complete copy is there; otherwise
  /// loaded whole from upstream and stored when it is a VOD playlist.
  private func loadPlaylist(
    _ request: DataRequest, entry: CacheEntry, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    let state = cache.state(of: entry)
    if request.range == nil, let length = state.totalLength,
      let span = state.spans.first, span.offset == 0, span.length == length,
      let data = cache.read(entry, span: span, at: 0, count: Int(length))
    {
      let now = clock.now
      if let progress {
        let report = TransferProgress(
          request: request, bytesLoaded: data.count, bytesExpected: data.count, elapsed: .zero)
        if !progress(report) {
          throw PlayheadError(
            .cancelled, "load abandoned after \(data.count) bytes: \(request.url.absoluteString)",
            url: request.url)
        }
      }
      count(cached: data.count, upstream: 0)
      return DataResponse(
        data: data, url: request.url, statusCode: 200, startClock: now, endClock: now,
        totalLength: length)
    }
    let response = try upstream.load(request, progress: progress)
    count(cached: 0, upstream: response.data.count)
    if request.range == nil, Self.isCompletePlaylist(response.data) {
      cache.store(
        response.data, at: 0, totalLength: Int64(response.data.count), in: entry)
    }
    return response
  }

  /// Whether the cache may hold `request`'s bytes at all.
  static func isCacheable(_ request: DataRequest) -> Bool {
    guard !request.deliversErrorResponses else { return false }
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
