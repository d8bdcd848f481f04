import Foundation
import PlayheadCore

/// Retries the loads of another data source as a `LoadErrorHandlingPolicy` says, waiting
/// between attempts on a clock.
///
/// After a failure the policy gives the delay (or nil: the error is thrown at once); the
/// source waits that long on `clock` and tries again. After the last attempt the last
/// error is thrown. A server that never answers therefore fails after about
/// `timeout × (retryCount + 1)` plus the delays. The progress callback is handed to every
/// attempt; a load it abandons throws `.cancelled`, which is never retried.
///
/// Example:
/// ```swift
/// let configuration = RequestConfiguration(timeoutMs: 5_000, retryCount: 2)
/// let source = RetryingDataSource(
///   upstream: HTTPDataSource(configuration: configuration), configuration: configuration)
/// ```
public final class RetryingDataSource: DataSource, Sendable {

  /// One retry about to happen, for logs and events.
  public struct Retry: Sendable {
    public var request: DataRequest
    /// Why the previous attempt failed.
    public var error: PlayheadError
    /// The attempt that failed (1 for the first try).
    public var attempt: Int
    /// How long the source waits before the next attempt.
    public var delay: MediaTime
  }

  /// The source that does the loading.
  public let upstream: any DataSource
  /// Decides which failures are retried and after what delay.
  public let policy: any LoadErrorHandlingPolicy
  /// The retry count and delays the policy reads.
  public let configuration: RequestConfiguration
  /// The clock the delays are waited on.
  public let clock: any Clock
  /// Told before each retry, on the loading thread.
  public let onRetry: (@Sendable (Retry) -> Void)?

  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var activeSignals: [Int: WakeSignal] = [:]
    var nextKey = 0
  }

  /// Wraps `upstream`.
  public init(
    upstream: any DataSource, configuration: RequestConfiguration = .init(),
    policy: any LoadErrorHandlingPolicy = DefaultLoadErrorHandlingPolicy(),
    clock: any Clock = HostClock.shared, onRetry: (@Sendable (Retry) -> Void)? = nil
  ) {
    self.upstream = upstream
    self.configuration = configuration
    self.policy = policy
    self.clock = clock
    self.onRetry = onRetry
  }

  /// Loads `request` through `upstream`, retrying as the policy says.
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    let signal = WakeSignal()
    let registered = state.withLock { state -> Int? in
      if state.cancelled { return nil }
      let key = state.nextKey
      state.nextKey += 1
      state.activeSignals[key] = signal
      return key
    }
    guard let key = registered else { throw cancelledError(request.url) }
    defer { _ = state.withLock { $0.activeSignals.removeValue(forKey: key) } }
    var attempt = 1
    while true {
      do {
        return try upstream.load(request, progress: progress)
      } catch {
        if error.code == .cancelled { throw error }
        guard
          let delay = policy.retryDelay(
            for: error, request: request, attempt: attempt, configuration: configuration)
        else { throw error }
        onRetry?(Retry(request: request, error: error, attempt: attempt, delay: delay))
        if !clock.wait(until: clock.now + delay, orUntil: signal) {
          throw cancelledError(request.url)
        }
        attempt += 1
      }
    }
  }

  /// Cancels `upstream` and makes every blocked (also between attempts) and future load
  /// throw `.cancelled` at once.
  public func cancelAll() {
    let signals = state.withLock { state in
      state.cancelled = true
      return Array(state.activeSignals.values)
    }
    for signal in signals { signal.raise() }
    upstream.cancelAll()
  }

  private func cancelledError(_ url: URL) -> PlayheadError {
    PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
  }
}
