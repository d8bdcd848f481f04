import Foundation
import PlayheadCore

extension ByteSources {
  /// Opens `url` as a byte source that reads through `cache` when one is given.
  ///
  /// With a cache (and `MediaCache.isEnabled`), an `http:` or `https:` URL gives a
  /// `CacheByteSource` over a `CacheDataSource` over an `HTTPDataSource` with `http`'s
  /// timeout and headers, in chunks of the cache's `progressiveChunkBytes`; its first
  /// chunk is loaded at once, so that errors show here as with `open(_:http:clock:)`; it
  /// is retried as that one is. Any other case is `open(_:http:clock:)`.
  public static func open(
    _ url: URL, http: HTTPRequestConfiguration = .init(), cache: MediaCache?,
    clock: any Clock = HostClock.shared
  ) throws(PlayheadError) -> any ByteSource {
    let scheme = url.scheme?.lowercased()
    guard let cache, MediaCache.isEnabled, !cache.isClosed, scheme == "http" || scheme == "https"
    else { return try open(url, http: http, clock: clock) }
    guard http.timeoutSeconds.isFinite, http.timeoutSeconds > 0 else {
      throw PlayheadError(
        .invalidArgument, "timeoutSeconds must be positive, got \(http.timeoutSeconds)", url: url)
    }
    return try retrying(url, http: http, clock: clock) { () throws(PlayheadError) in
      let upstream = HTTPDataSource(configuration: RequestConfiguration(http))
      let source = CacheByteSource(
        url: url, dataSource: CacheDataSource(upstream: upstream, cache: cache),
        chunkBytes: cache.configuration.effectiveChunkBytes)
      try source.open()
      return source
    }
  }
}

extension RequestConfiguration {
  /// The data-source settings matching a byte source's: its timeout (rounded up to whole
  /// milliseconds, at most about 24 days), headers, user agent and referer, and no retries
  /// (the `RetryingByteSource` that `ByteSources.open` puts around the byte source retries;
  /// `HTTPRequestConfiguration.retrySettings` carries its count and delays).
  public init(_ http: HTTPRequestConfiguration) {
    let milliseconds = min(max(1, (http.timeoutSeconds * 1000).rounded(.up)), 2_000_000_000)
    self.init(
      timeoutMs: Int(milliseconds), retryCount: 0, headers: http.headers, referer: http.referer,
      userAgent: http.userAgent)
  }
}
