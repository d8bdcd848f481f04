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
  Sendable
{

  public let url: URL
  /// The request settings each inner source is made with.
  public let configuration: HTTPRequestConfiguration
  /// Keeps the fresh URL and runs the handler.
  public let refresher: SourceRefresher
  /// What the bytes are for, as the refresh handler is told (`.media` by default).
  public let purpose: DataPurpose
  private let state: Locked<State>

  private struct State: Sendable {
    var inner: HTTPByteSource
    var knownLength: Int64?
    var cancelled = false
    var bufferChangeHandler: (@Sendable () -> Void)?
  }

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
    state = Locked(State(inner: try HTTPByteSource(url: current, configuration: configuration)))
    if fetchesHeaders { try openHeaders() }
  }

  public var length: Int64? {
    let (inner, knownLength) = state.withLock { ($0.inner, $0.knownLength) }
    return inner.length ?? knownLength
  }

  /// The current inner source's last measured download speed (SPEC S9).
  public var downloadSpeedBitsPerSecond: Double? {
    state.withLock { $0.inner }.downloadSpeedBitsPerSecond
  }

  /// The current inner source's buffer.
  public var bufferState: ByteBufferState {
    state.withLock { $0.inner }.bufferState
  }

  /// Sets the handler on the inner source, and on each one that replaces it.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    let source = state.withLock { state in
      state.bufferChangeHandler = handler
      return state.inner
    }
    source.setBufferChangeHandler(handler)
  }

  /// The URL the bytes come from now.
  public var currentURL: URL { state.withLock { $0.inner }.url }

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
    let source = state.withLock { state in
      state.cancelled = true
      return state.inner
    }
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
    guard let inner = state.withLock({ $0.cancelled ? nil : $0.inner }) else {
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
    // Read before taking the lock: `length` takes the expired source's own lock.
    let expiredLength = expired.length
    enum Outcome { case cancelled, alreadySwapped, swapped }
    let (outcome, handler) = state.withLock { state -> (Outcome, (@Sendable () -> Void)?) in
      if state.cancelled { return (.cancelled, nil) }
      guard state.inner === expired else { return (.alreadySwapped, nil) }
      state.knownLength = expiredLength ?? state.knownLength
      state.inner = replacement
      return (.swapped, state.bufferChangeHandler)
    }
    switch outcome {
    case .cancelled:
      replacement.cancel()
      throw PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
    case .alreadySwapped:
      replacement.cancel()
    case .swapped:
      expired.setBufferChangeHandler(nil)
      replacement.setBufferChangeHandler(handler)
      expired.cancel()
    }
  }
}
