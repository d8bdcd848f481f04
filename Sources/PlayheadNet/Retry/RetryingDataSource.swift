import Foundation
import PlayheadCore

/// Retries the opens and the reads of another source as a `LoadErrorHandlingPolicy` says,
/// waiting between attempts on a clock, and resumes a transfer that broke where it stopped.
///
/// An open that fails is tried again after the policy's delay. A read that fails closes
/// the upstream and opens it again for the bytes not yet delivered (a range request from
/// the byte where the transfer stopped), so a long file survives many brief outages and a
/// segment keeps the bytes it has. Each open and each read has `retryCount + 1` attempts;
/// the count starts again after a read that succeeds, while a server that sends nothing
/// fails after about `timeout × (retryCount + 1)` plus the delays. A resumed answer that
/// gives the resource another length than before throws `.ioError` (the resource changed).
/// Once a read has failed for good, every later read throws the same error at once: a
/// demuxer that tries other offsets after a failed read would otherwise spend a fresh set
/// of attempts on each. `.cancelled` is never retried, and `cancel()` also ends a wait
/// between two attempts at once. Error responses a request asked for
/// (`deliversErrorResponses`) are read as they are, never resumed.
///
/// Example:
/// ```swift
/// let settings = RequestConfiguration(timeoutMs: 2_000, retryCount: 2)
/// let source = RetryingDataSource(
///   upstream: HTTPDataSource(configuration: settings), configuration: settings, clock: clock)
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
  /// The clock the delays are waited on (the player's).
  public let clock: any Clock
  /// Told before each retry, on the loading thread.
  public let onRetry: (@Sendable (Retry) -> Void)?

  private let signal = WakeSignal()
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var request: DataRequest?
    var head: DataResponseHead?
    var delivered: Int64 = 0
    /// The error a read failed with for good; later reads throw it.
    var failure: PlayheadError?
    /// Set after a failed read: the upstream is to be opened again before the next read.
    var needsReopen = false
  }

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

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    try state.withLock { (state) throws(PlayheadError) in
      if state.cancelled { throw PlayheadError.sourceCancelled(request.url) }
      state.request = nil
      state.head = nil
      state.delivered = 0
      state.failure = nil
      state.needsReopen = false
    }
    let head = try attempt(request, resumes: false) { () throws(PlayheadError) in
      try upstream.open(request)
    }
    state.withLock { state in
      state.request = request
      state.head = head
    }
    return head
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    let (request, failure, cancelled) = state.withLock { ($0.request, $0.failure, $0.cancelled) }
    if cancelled { throw PlayheadError.sourceCancelled(request?.url) }
    if let failure { throw failure }
    guard let request else { return try upstream.read(into: buffer) }
    let resumes = !request.deliversErrorResponses
    do throws(PlayheadError) {
      let count = try attempt(request, resumes: resumes) { () throws(PlayheadError) -> Int in
        do throws(PlayheadError) {
          return try upstream.read(into: buffer)
        } catch {
          if resumes && error.code != .cancelled {
            // The next attempt opens the upstream again past what it gave.
            upstream.close()
            state.withLock { $0.needsReopen = true }
          }
          throw error
        }
      }
      state.withLock { $0.delivered += Int64(count) }
      return count
    } catch {
      if error.code != .cancelled {
        state.withLock { state in
          if state.failure == nil { state.failure = error }
        }
      }
      throw error
    }
  }

  public func close() {
    state.withLock { state in
      state.request = nil
      state.head = nil
      state.needsReopen = false
    }
    upstream.close()
  }

  /// Makes a blocked call, a wait between attempts and every later call throw
  /// `.cancelled`, and cancels the upstream. Safe from any thread.
  public func cancel() {
    state.withLock { $0.cancelled = true }
    signal.raise()
    upstream.cancel()
  }

  public var bufferState: DataBufferState? { upstream.bufferState }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    upstream.setBufferChangeHandler(handler)
  }

  // MARK: Internals

  /// Opens the upstream again for the bytes not yet delivered, after a read failed.
  private func reopen(_ request: DataRequest) throws(PlayheadError) {
    let (before, delivered) = state.withLock { ($0.head?.totalLength, $0.delivered) }
    let offset = (request.range?.offset ?? 0) + delivered
    let resumed: DataResponseHead
    do {
      resumed = try upstream.open(request.resuming(at: offset))
    } catch {
      // A resource announced longer that has nothing from where its bytes stopped (HTTP
      // 416) ends there: it is shorter than announced, which no retry changes.
      if error.httpStatusCode == 416, let before, offset < before {
        throw Self.lengthChanged(request, from: before, at: offset, found: offset)
      }
      throw error
    }
    if let before, let now = resumed.totalLength, before != now {
      upstream.close()
      throw PlayheadError(
        .ioError,
        "\(request.url.absoluteString) had \(before) bytes, but resuming at byte \(offset) "
          + "found \(now): the resource changed", url: request.url)
    }
    state.withLock { $0.needsReopen = false }
  }

  /// The error for a resource announced `known` bytes long that has none from `offset`,
  /// where the bytes delivered stopped (as `HTTPDataSource` says of its own continuation):
  /// not retried, a retry gets the same answer.
  private static func lengthChanged(
    _ request: DataRequest, from known: Int64, at offset: Int64, found: Int64
  ) -> PlayheadError {
    PlayheadError(
      .ioError,
      "\(request.url.absoluteString) announced \(known) bytes, but a request for bytes from "
        + "\(offset) found \(found): the server's length is wrong or the resource changed",
      url: request.url)
  }

  /// Runs `operation` until it succeeds, fails with an error the policy does not retry,
  /// or runs out of attempts; waits the policy's delay on `clock` between attempts.
  private func attempt<T>(
    _ request: DataRequest, resumes: Bool, _ operation: () throws(PlayheadError) -> T
  ) throws(PlayheadError) -> T {
    var attempt = 1
    while true {
      do {
        if resumes && state.withLock({ $0.needsReopen }) { try reopen(request) }
        return try operation()
      } catch {
        if error.code == .cancelled || isCancelled { throw error }
        guard
          let delay = policy.retryDelay(
            for: error, request: request, attempt: attempt, configuration: configuration)
        else { throw error }
        onRetry?(Retry(request: request, error: error, attempt: attempt, delay: delay))
        if !clock.wait(until: clock.now + delay, orUntil: signal) || isCancelled {
          throw PlayheadError.sourceCancelled(request.url)
        }
        attempt += 1
      }
    }
  }

  private var isCancelled: Bool { state.withLock { $0.cancelled } }
}
