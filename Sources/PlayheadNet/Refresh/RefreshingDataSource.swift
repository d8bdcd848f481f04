import Foundation
import PlayheadCore

/// Loads through another data source and refreshes expired URLs on the way: playlists,
/// segments, initialisation sections and keys each get a fresh URL from the refresher
/// when theirs expired, and the load continues with it.
///
/// For each request the resource is known by the request's URL (the original); the URL
/// sent is the refresher's current one for it. A URL that the refresher's options find
/// expired by the clock is refreshed before it is sent; a load that fails with an expiry
/// status (403, 410) is refreshed and sent again with the same range. The answer's `url`
/// is the URL that answered. Errors other than expiry pass through unchanged; a refresh
/// that fails throws `.sourceExpired`. Requests that ask for error responses
/// (`deliversErrorResponses`, API calls) are passed through without refreshing.
public final class RefreshingDataSource: DataSource, Sendable {
  /// The source that does the loading.
  public let upstream: any DataSource
  /// Keeps the fresh URLs and runs the handler.
  public let refresher: SourceRefresher

  public init(upstream: any DataSource, refresher: SourceRefresher) {
    self.upstream = upstream
    self.refresher = refresher
  }

  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    if request.deliversErrorResponses { return try upstream.load(request, progress: progress) }
    let original = request.url
    // Each pass either loads or refreshes; the refresher bounds the refreshes, so the
    // limit here only guards against a refresher that keeps answering "already fresh".
    let limit = 4 * refresher.options.maximumAttempts + 4
    var lastError = PlayheadError(
      .sourceExpired, "the URL \(original) kept expiring", url: original)
    for _ in 0..<limit {
      let url = refresher.currentURL(for: original)
      if let reason = refresher.options.clockExpiry(of: url) {
        _ = try refresher.refresh(
          original: original, expiredURL: url, purpose: request.purpose, reason: reason)
        continue
      }
      var sent = request
      sent.url = url
      do {
        let response = try upstream.load(sent, progress: progress)
        refresher.loaded(original)
        return response
      } catch {
        guard let reason = refresher.options.expiryReason(for: error) else { throw error }
        lastError = error
        _ = try refresher.refresh(
          original: original, expiredURL: url, purpose: request.purpose, reason: reason)
      }
    }
    throw lastError
  }

  /// Cancels the upstream's loads and any refresh that waits for an answer.
  public func cancelAll() {
    refresher.cancelAll()
    upstream.cancelAll()
  }
}
