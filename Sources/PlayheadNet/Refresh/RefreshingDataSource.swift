import Foundation
import PlayheadCore

/// Opens through another source and refreshes expired URLs on the way: progressive files,
/// playlists, segments, initialisation sections and keys each get a fresh URL from the
/// refresher when theirs expired, and the transfer continues with it.
///
/// Each request's resource is known by the request's URL (the original); the URL sent is
/// the refresher's current one for it. A URL that the refresher's options find expired by
/// the clock is refreshed before it is sent (also before a read once the upstream holds no
/// bytes ahead, so that a continuation request does not go out with it); an open or a read
/// that fails with an expiry status (403, 410) is refreshed and the upstream opened again
/// at the byte where it stopped, so a progressive file plays on across expiries. The head's
/// `url` is the URL that answered. Errors other than expiry pass through unchanged; a
/// refresh that fails throws `.sourceExpired`. Requests that ask for error responses
/// (`deliversErrorResponses`, API calls) are passed through without refreshing.
public final class RefreshingDataSource: DataSource, Sendable {
  /// The source that does the loading.
  public let upstream: any DataSource
  /// Keeps the fresh URLs and runs the handler.
  public let refresher: SourceRefresher

  private let state = Locked(State())
  private let cancellation = RefreshCancellation()

  private struct State: Sendable {
    var request: DataRequest?
    /// The URL the upstream was opened with.
    var sentURL: URL?
    var delivered: Int64 = 0
  }

  public init(upstream: any DataSource, refresher: SourceRefresher) {
    self.upstream = upstream
    self.refresher = refresher
  }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    state.withLock { $0 = State() }
    if request.deliversErrorResponses { return try upstream.open(request) }
    let head = try openRefreshing(request, at: request.range?.offset)
    state.withLock { $0.request = request }
    return head
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let (opened, sentURL, delivered) = state.withLock { ($0.request, $0.sentURL, $0.delivered) }
    guard let request = opened, let sentURL else { return try upstream.read(into: buffer) }
    let original = request.url
    if let reason = refresher.options.clockExpiry(of: sentURL),
      (upstream.bufferState?.bytesAhead ?? 0) == 0
    {
      _ = try refresher.refresh(
        original: original, expiredURL: sentURL, purpose: request.purpose, reason: reason,
        cancellation: cancellation)
      try reopen(request, delivered: delivered)
    }
    let limit = Self.passLimit(refresher)
    var lastError = Self.keptExpiring(original)
    for _ in 0..<limit {
      do {
        let count = try upstream.read(into: buffer)
        state.withLock { $0.delivered += Int64(count) }
        if count > 0 { refresher.loaded(original) }
        return count
      } catch {
        guard let reason = refresher.options.expiryReason(for: error),
          let current = state.withLock({ $0.sentURL })
        else { throw error }
        lastError = error
        _ = try refresher.refresh(
          original: original, expiredURL: current, purpose: request.purpose, reason: reason,
          cancellation: cancellation)
        try reopen(request, delivered: state.withLock { $0.delivered })
      }
    }
    throw lastError
  }

  public func close() {
    state.withLock { $0 = State() }
    upstream.close()
  }

  /// Cancels the upstream and this source's wait for a refresh, if any. The refresher,
  /// which the item's other transfers share, goes on (its own `cancelAll()` ends them all).
  public func cancel() {
    cancellation.cancel()
    refresher.wakeWaiters()
    upstream.cancel()
  }

  public var bufferState: DataBufferState? { upstream.bufferState }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }

  // MARK: Internals

  /// Opens the upstream again on the current URL for the bytes not yet delivered.
  private func reopen(_ request: DataRequest, delivered: Int64) throws(PlayheadError) {
    upstream.close()
    let offset = (request.range?.offset ?? 0) + delivered
    _ = try openRefreshing(request.resuming(at: offset), at: offset)
  }

  /// Opens `request` on the resource's current URL, refreshing it while it is expired
  /// (by the clock before it is sent, by the answer after).
  private func openRefreshing(_ request: DataRequest, at offset: Int64?) throws(PlayheadError)
    -> DataResponseHead
  {
    let original = request.url
    // Each pass either opens or refreshes; the refresher bounds the refreshes, so the
    // limit here only guards against a refresher that keeps answering "already fresh".
    var lastError = Self.keptExpiring(original)
    for _ in 0..<Self.passLimit(refresher) {
      let url = refresher.currentURL(for: original)
      if let reason = refresher.options.clockExpiry(of: url) {
        _ = try refresher.refresh(
          original: original, expiredURL: url, purpose: request.purpose, reason: reason,
          cancellation: cancellation)
        continue
      }
      var sent = request
      sent.url = url
      do {
        let head = try upstream.open(sent)
        refresher.loaded(original)
        state.withLock { $0.sentURL = url }
        return head
      } catch {
        guard let reason = refresher.options.expiryReason(for: error) else { throw error }
        lastError = error
        _ = try refresher.refresh(
          original: original, expiredURL: url, purpose: request.purpose, reason: reason,
          cancellation: cancellation)
      }
    }
    throw lastError
  }

  private static func passLimit(_ refresher: SourceRefresher) -> Int {
    4 * refresher.options.maximumAttempts + 4
  }

  private static func keptExpiring(_ url: URL) -> PlayheadError {
    PlayheadError(.sourceExpired, "the URL \(url) kept expiring", url: url)
  }
}
