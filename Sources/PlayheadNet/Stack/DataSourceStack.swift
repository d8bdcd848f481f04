import Foundation
import PlayheadCore

/// The one factory a player's transfers come from, built from one `RequestConfiguration`:
/// the network at the bottom, and above it, in this order, recording, expired-URL refresh,
/// the disk cache, retries, and accounting.
///
/// ```
/// consumer (DataLoader, DataSourceReader, a download)
///   └ MeteredDataSource        bytes, activity, bandwidth samples (with `meter`)
///     └ RetryingDataSource     retries and resumes on the player's clock
///       └ CacheDataSource      disk cache (with `cache`)
///         └ RefreshingDataSource   fresh URLs for expired ones (with `refresher`)
///           └ RecordingDataSource  the session recording (with `recorder`)
///             └ network        `network`, or files and HTTP(S) (`DefaultDataSourceFactory`)
/// ```
///
/// A part that is not set is left out. Expired URLs are refreshed below the cache, so
/// cached bytes need none; the recording sits right on the network, so a replay feeds the
/// same layers the same answers. Per-item parts (a refresher, a meter) are added with
/// `with…` to a copy; every copy shares the network, and so its connections.
public struct DataSourceStack: DataSourceFactory {
  /// Timeout, retries, headers, read-ahead.
  public let request: RequestConfiguration
  /// The clock retries wait on and meters time with.
  public let clock: any Clock
  /// Where bytes come from: files and HTTP(S) unless the application plugs in another
  /// network (a simulated one, a replay).
  public let network: any DataSourceFactory
  public var cache: MediaCache?
  public var refresher: SourceRefresher?
  public var recorder: SessionRecorder?
  public var meter: TransferMeter?
  public var transferListener: (any TransferListener)?
  /// Decides which failures are retried.
  public var retryPolicy: any LoadErrorHandlingPolicy
  /// Told before each retry (for logs and events).
  public var onRetry: (@Sendable (RetryingDataSource.Retry) -> Void)?

  /// A stack over `network` (files and HTTP(S) with `request` when nil).
  public init(
    request: RequestConfiguration = .init(), clock: any Clock = HostClock.shared,
    network: (any DataSourceFactory)? = nil, cache: MediaCache? = nil,
    recorder: SessionRecorder? = nil
  ) {
    self.request = request
    self.clock = clock
    self.network = network ?? DefaultDataSourceFactory(configuration: request)
    self.cache = cache
    self.recorder = recorder
    retryPolicy = DefaultLoadErrorHandlingPolicy()
  }

  public func makeDataSource() -> any DataSource {
    var source = network.makeDataSource()
    if let recorder { source = RecordingDataSource(upstream: source, recorder: recorder) }
    if let refresher { source = RefreshingDataSource(upstream: source, refresher: refresher) }
    if let cache, MediaCache.isEnabled, !cache.isClosed {
      source = CacheDataSource(upstream: source, cache: cache)
    }
    if request.effectiveRetryCount > 0 {
      source = RetryingDataSource(
        upstream: source, configuration: request, policy: retryPolicy, clock: clock,
        onRetry: onRetry)
    }
    if meter != nil || transferListener != nil {
      source = MeteredDataSource(
        upstream: source, meter: meter ?? TransferMeter(), clock: clock,
        listener: transferListener)
    }
    return source
  }

  /// The same stack, refreshing expired URLs through `refresher`.
  public func with(refresher: SourceRefresher?) -> DataSourceStack {
    var copy = self
    copy.refresher = refresher
    return copy
  }

  /// The same stack, counting into `meter` and telling `listener` of finished transfers.
  public func with(meter: TransferMeter?, listener: (any TransferListener)? = nil)
    -> DataSourceStack
  {
    var copy = self
    copy.meter = meter
    copy.transferListener = listener
    return copy
  }

  /// The same stack without the disk cache (offline files, API calls).
  public func withoutCache() -> DataSourceStack {
    var copy = self
    copy.cache = nil
    return copy
  }

  /// A loader of whole resources over this stack.
  public func loader() -> DataLoader { DataLoader(factory: self, clock: clock) }
}
