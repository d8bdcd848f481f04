import Foundation
import PlayheadCore

extension ByteSources {
  /// Opens `url` as a byte source that reads through `cache` (when given) and refreshes
  /// its URL through `refresher` (when given) when it expires.
  ///
  /// Without a refresher, or for a URL that is not http or https, this is
  /// `open(_:http:cache:clock:)`. With a cache in effect, the cache's data source loads
  /// through a `RefreshingDataSource`; without one, the source is a `RefreshingByteSource`.
  /// Either is retried as `open(_:http:clock:)` says, on `clock`.
  public static func open(
    _ url: URL, http: HTTPRequestConfiguration = .init(), cache: MediaCache?,
    refresher: SourceRefresher?, clock: any Clock = HostClock.shared
  ) throws(PlayheadError) -> any ByteSource {
    let scheme = url.scheme?.lowercased()
    guard let refresher, scheme == "http" || scheme == "https" else {
      return try open(url, http: http, cache: cache, clock: clock)
    }
    if let cache, MediaCache.isEnabled, !cache.isClosed {
      guard http.timeoutSeconds.isFinite, http.timeoutSeconds > 0 else {
        throw PlayheadError(
          .invalidArgument, "timeoutSeconds must be positive, got \(http.timeoutSeconds)",
          url: url)
      }
      return try retrying(url, http: http, clock: clock) { () throws(PlayheadError) in
        let upstream = RefreshingDataSource(
          upstream: HTTPDataSource(configuration: RequestConfiguration(http)),
          refresher: refresher)
        let source = CacheByteSource(
          url: url, dataSource: CacheDataSource(upstream: upstream, cache: cache),
          chunkBytes: cache.configuration.effectiveChunkBytes)
        try source.open()
        return source
      }
    }
    return try retrying(url, http: http, clock: clock) { () throws(PlayheadError) in
      try RefreshingByteSource(url: url, configuration: http, refresher: refresher)
    }
  }
}
