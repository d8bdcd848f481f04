import Foundation
import PlayheadCore

/// An HTTP(S) byte source whose URL is refreshed when it expires: reads continue at the
/// same offset on the fresh URL (a new range request), so a progressive file plays on
/// across expiries.
///
/// The source reads through an `HTTPByteSource` for the refresher's current URL. A read
/// that fails with an expiry status (403, 410) asks the refresher for a fresh URL, opens
/// a new `HTTPByteSource` on it and reads the same offset again. Before a read while no
/// response is streaming (the inner source stopped at its read-ahead limit, or the read
/// needs a new range), a URL that the options find expired by the clock is refreshed
/// first, so that no request goes out with it (bytes read ahead but not yet read are
/// fetched again on the fresh URL). A refresh that fails throws
/// `.sourceExpired`; other errors pass through. `url` stays the original URL.
public final class RefreshingByteSource: ByteSource, DownloadSpeedReporting, ByteBufferReporting,
  @unchecked Sendable
{
  // Unchecked Sendable: `inner`, `knownLength` and `cancelled` are guarded by `lock`.

  public let url: URL
  /// The request settings each inner source is made with.
  public let configuration: HTTPRequestConfiguration
  /// Keeps the fresh URL and runs the handler.
  public let refresher: SourceRefresher
  /// What the bytes are for, as the refresh handler is told (`.media` by default).
  public let purpose: DataPurpose
  private let lock = NSLock()
  private var inner: HTTPByteSource
  private var knownLength: Int64?
  private var cancelled = false
  private var bufferChangeHandler: (@Sendable () -> Void)?

  /// Opens `url` through `refresher` and fetches the response headers (as
  /// `ByteSources.open` does), refreshing the URL first when it has expired.
  ///
  /// With `fetchesHeaders` false no request is sent until the first read, which then
  /// asks for the range it reads (a download resuming a partial file starts there).
  /// `purpose` is what the handler is told the bytes are for.
  public init(
    url: URL, configuration: HTTPRequestConfiguration = .init(), refresher: SourceRefresher,
    purpose: DataPurpose = .media, fetchesHeaders: Bool = true
  ) throws(PlayheadError) {
    self.url = url
    self.configuration = configuration
    self.refresher = refresher
    self.purpose = purpose
    var current = refresher.currentURL(for: url)
    if let reason = refresher.options.clockExpiry(of: current) {
      current = try refresher.refresh(
        original: url, expiredURL: current, purpose: purpose, reason: reason)
    }
    inner = try HTTPByteSource(url: current, configuration: configuration)
    if fetchesHeaders { try openHeaders() }
  }

  public var length: Int64? {
    lock.lock()
    defer { lock.unlock() }
    return inner.length ?? knownLength
  }

  /// The current inner source's last measured download speed (SPEC S9).
  public var downloadSpeedBitsPerSecond: Double? {
    lock.lock()
    defer { lock.unlock() }
    return inner.downloadSpeedBitsPerSecond
  }

  /// The current inner source's buffer.
  public var bufferState: ByteBufferState {
    lock.lock()
    defer { lock.unlock() }
    return inner.bufferState
  }

  /// Sets the handler on the inner source, and on each one that replaces it.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    lock.lock()
    bufferChangeHandler = handler
    let source = inner
    lock.unlock()
    source.setBufferChangeHandler(handler)
  }

  /// The URL the bytes come from now.
  public var currentURL: URL {
    lock.lock()
    defer { lock.unlock() }
    return inner.url
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError) -> Int
  {
    let limit = 4 * refresher.options.maximumAttempts + 4
    var lastError = PlayheadError(.sourceExpired, "the URL \(url) kept expiring", url: url)
    if let length, offset >= length { return 0 }
    for _ in 0..<limit {
      let source = try currentSource()
      if !source.isLoading || source.needsRequest(toReadAt: offset),
        let reason = refresher.options.clockExpiry(of: source.url)
      {
        try swap(from: source, reason: reason)
        continue
      }
      do {
        let count = try source.read(into: buffer, at: offset)
        refresher.loaded(url)
        return count
      } catch {
        guard let reason = refresher.options.expiryReason(for: error) else { throw error }
        lastError = error
        try swap(from: source, reason: reason)
      }
    }
    throw lastError
  }

  public func cancel() {
    lock.lock()
    cancelled = true
    let source = inner
    lock.unlock()
    refresher.cancelAll()
    source.cancel()
  }

  // MARK: Internals

  /// Fetches the first response's headers, refreshing while the URL is rejected as expired.
  private func openHeaders() throws(PlayheadError) {
    let limit = 4 * refresher.options.maximumAttempts + 4
    for _ in 0..<limit {
      let source = try currentSource()
      do {
        try source.prefetchHeaders()
        refresher.loaded(url)
        return
      } catch {
        guard let reason = refresher.options.expiryReason(for: error) else { throw error }
        try swap(from: source, reason: reason)
      }
    }
    throw PlayheadError(.sourceExpired, "the URL \(url) kept expiring", url: url)
  }

  private func currentSource() throws(PlayheadError) -> HTTPByteSource {
    lock.lock()
    defer { lock.unlock() }
    if cancelled {
      throw PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
    }
    return inner
  }

  /// Replaces `expired` with a source on a fresh URL (unless another read already did).
  private func swap(from expired: HTTPByteSource, reason: ExpiredURLSource.Reason)
    throws(PlayheadError)
  {
    let fresh = try refresher.refresh(
      original: url, expiredURL: expired.url, purpose: purpose, reason: reason)
    let replacement = try HTTPByteSource(url: fresh, configuration: configuration)
    lock.lock()
    if cancelled {
      lock.unlock()
      replacement.cancel()
      throw PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
    }
    guard inner === expired else {
      lock.unlock()
      replacement.cancel()
      return
    }
    knownLength = expired.length ?? knownLength
    inner = replacement
    let handler = bufferChangeHandler
    lock.unlock()
    expired.setBufferChangeHandler(nil)
    replacement.setBufferChangeHandler(handler)
    expired.cancel()
  }
}
