import Foundation
import PlayheadCore
import PlayheadNet

/// One task's work and state inside a `MediaLoader`.
///
/// Every `var` is guarded by the loader's `condition`, except `configuration`, which the
/// loader sets before the job's thread starts and the thread alone reads afterwards.
final class PreloadJob: @unchecked Sendable {
  // Unchecked Sendable: the `var`s are guarded by the loader's `condition` (see above).
  let id: String
  let task: PreloadTask
  let listener: (any PreloadListener)?
  unowned let loader: MediaLoader
  var state: PreloadTaskState = .waiting
  var started = false
  var pauseRequested = false
  var cancelRequested = false
  /// What stops the request in flight (the job's data source), for `cancelTask`.
  var cancellables: [@Sendable () -> Void] = []
  var configuration = MediaLoader.Configuration()

  init(id: String, task: PreloadTask, listener: (any PreloadListener)?, loader: MediaLoader) {
    self.id = id
    self.task = task
    self.listener = listener
    self.loader = loader
  }

  var cancelledError: PlayheadError {
    PlayheadError(.cancelled, "preload cancelled: \(task.url.absoluteString)", url: task.url)
  }

  /// The job's thread: fetches, then reports to the loader.
  func run() {
    let result = Result { () throws(PlayheadError) -> PreloadReport in try fetch() }
    loader.jobEnded(self, result: result)
  }

  /// Throws `.cancelled` after a cancel, and waits while paused.
  func checkpoint() throws(PlayheadError) {
    try loader.checkpoint(self)
  }

  private func fetch() throws(PlayheadError) -> PreloadReport {
    let url = task.url
    guard task.config.durationMs >= 0 else {
      throw PlayheadError(
        .invalidArgument, "preload duration must be at least 0 ms, got \(task.config.durationMs)",
        url: url)
    }
    let cache = try usableCache()
    let scheme = url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      throw PlayheadError(
        .invalidArgument,
        "only http and https sources can be preloaded (a local file needs none): \(url.absoluteString)",
        url: url)
    }
    try checkpoint()
    var isDASH = task.isDASH
    if !task.isHLS && !isDASH {
      var progressive = ProgressivePreload(job: self, cache: cache)
      if let report = try progressive.run() { return report }
      // The content is an HLS playlist or a DASH manifest under another name.
      isDASH = progressive.foundDASH
    }
    var hls = HLSPreload(job: self, cache: cache, isDASH: isDASH)
    return try hls.run()
  }

  /// The cache to store into, or the error that refuses the task.
  private func usableCache() throws(PlayheadError) -> MediaCache {
    let url = task.url
    guard let cache = configuration.cache else {
      throw PlayheadError(
        .invalidState,
        "the media loader has no cache: set MediaLoader.Configuration.cache to preload \(url.absoluteString)",
        url: url)
    }
    guard MediaCache.isEnabled else {
      throw PlayheadError(
        .invalidState, "caching is off (MediaCache.isEnabled is false): nothing can be preloaded",
        url: url)
    }
    guard !cache.isClosed, !cache.isReadOnly else {
      throw PlayheadError(
        .invalidState,
        "the cache at \(cache.directory.path) is \(cache.isClosed ? "closed" : "read-only"): nothing can be preloaded",
        url: url)
    }
    return cache
  }

  /// The stack a preload loads through: the cache over the configuration's network (files
  /// and HTTP(S) by default), with its retries, and a meter on each side of the cache (what
  /// came from the network, what was delivered in all). With a refresh handler, expired
  /// URLs are refreshed below the cache, as a player does, so the cache keeps the bytes
  /// under the URLs the player asks for. Progressive files are read with a small
  /// read-ahead: the preload asks for what the demuxer reads.
  func makeStack(_ cache: MediaCache) -> PreloadStack {
    var request = configuration.request
    request.readAheadBytes = min(request.readAheadBytes, 256 * 1024)
    let network = configuration.network ?? DefaultDataSourceFactory(configuration: request)
    let fromNetwork = TransferMeter()
    let metered = DataSourceFactories.decorating(network) {
      MeteredDataSource(upstream: $0, meter: fromNetwork)
    }
    var stack = DataSourceStack(
      request: request, clock: configuration.clock, network: metered, cache: cache)
    stack.refresher = makeRefresher()
    let delivered = TransferMeter()
    return PreloadStack(
      stack: stack.with(meter: delivered), fromNetwork: fromNetwork, delivered: delivered)
  }
}

/// A preload's data-source stack and the meters on both sides of its cache.
struct PreloadStack {
  var stack: DataSourceStack
  var fromNetwork: TransferMeter
  var delivered: TransferMeter

  var bytesFromNetwork: Int64 { fromNetwork.bytesTransferred }
  var bytesFromCache: Int64 { max(0, delivered.bytesTransferred - fromNetwork.bytesTransferred) }
}

extension PreloadJob {
  /// The task's refresher, when the configuration has a handler: its timeout runs on the
  /// configuration's clock, except a fast-mode `ManualClock` (whose waits jump to their
  /// deadline), where the host clock is used, as a player does.
  func makeRefresher() -> SourceRefresher? {
    guard let handler = configuration.urlSourceExpiredHandler else { return nil }
    let isFastMode = configuration.clock.timing == .fast
    return SourceRefresher(
      handler: handler, options: configuration.sourceRefresh,
      clock: isFastMode ? HostClock.shared : configuration.clock, sourceURL: task.url)
  }
}
