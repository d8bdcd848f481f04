import Foundation
import PlayheadCore

/// Retries the opening and the reads of another byte source as a
/// `LoadErrorHandlingPolicy` says, waiting between attempts on a clock: the progressive
/// counterpart of `RetryingDataSource`.
///
/// `init` opens the source through `open`, and opens it again after a failure the policy
/// retries. A read that fails is tried again at the same offset on the same source, which
/// for an `HTTPByteSource` is a new range request from the byte where the transfer
/// stopped (and, from a server that ignores `Range`, the whole resource again with the
/// bytes already read skipped). Each open and each read has `retryCount + 1` attempts:
/// the count starts again after a read that succeeds, so a long file survives many brief
/// outages, while a server that sends nothing fails after about
/// `timeout × (retryCount + 1)` plus the delays. Once a read has failed for good, every
/// later read throws the same error at once: a demuxer that tries other offsets after a
/// failed read (FFmpeg's MP4 reader skips to the next sample) would otherwise spend a
/// fresh set of attempts on each, and the bound would be lost. `.cancelled` is never
/// retried, and `cancel()` also ends a wait between two attempts at once.
///
/// Example:
/// ```swift
/// let settings = RequestConfiguration(timeoutMs: 2_000, retryCount: 2)
/// let source = try RetryingByteSource(url: url, configuration: settings) { () throws(PlayheadError) in
///   try ByteSources.open(url, http: HTTPRequestConfiguration(settings))
/// }
/// ```
public final class RetryingByteSource: ByteSource, DownloadSpeedReporting, Sendable {
  public let url: URL
  /// The retry count and delays the policy reads.
  public let configuration: RequestConfiguration
  /// Decides which failures are retried and after what delay.
  public let policy: any LoadErrorHandlingPolicy
  /// The clock the delays are waited on (the player's).
  public let clock: any Clock
  /// Told before each retry, on the reading thread.
  public let onRetry: (@Sendable (RetryingDataSource.Retry) -> Void)?

  private let opened: any ByteSource
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    /// The error a read failed with for good; later reads throw it.
    var failure: PlayheadError?
    var activeSignals: [Int: WakeSignal] = [:]
    var nextKey = 0
  }

  /// Opens the source through `open`, retrying as the policy says; throws the last error.
  public init(
    url: URL, configuration: RequestConfiguration = .init(),
    policy: any LoadErrorHandlingPolicy = DefaultLoadErrorHandlingPolicy(),
    clock: any Clock = HostClock.shared,
    onRetry: (@Sendable (RetryingDataSource.Retry) -> Void)? = nil,
    open: @escaping @Sendable () throws(PlayheadError) -> any ByteSource
  ) throws(PlayheadError) {
    self.url = url
    self.configuration = configuration
    self.policy = policy
    self.clock = clock
    self.onRetry = onRetry
    opened = try Self.attempt(
      url: url, offset: 0, configuration: configuration, policy: policy, clock: clock,
      onRetry: onRetry, signal: WakeSignal(), isCancelled: { false }, open)
  }

  /// The inner source's length.
  public var length: Int64? { current.length }

  /// The source that is read (the one `open` gave).
  public var inner: any ByteSource { current }

  /// The inner source's last measured download speed, when it reports one.
  public var downloadSpeedBitsPerSecond: Double? {
    (current as? any DownloadSpeedReporting)?.downloadSpeedBitsPerSecond
  }

  /// Reads at `offset`, retrying a failed read at the same offset as the policy says.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError) -> Int
  {
    let source = current
    let (key, signal) = try register()
    defer { unregister(key) }
    do {
      return try Self.attempt(
        url: url, offset: offset, configuration: configuration, policy: policy, clock: clock,
        onRetry: onRetry, signal: signal,
        isCancelled: { [weak self] in self?.isCancelled ?? true }
      ) { () throws(PlayheadError) in
        try source.read(into: buffer, at: offset)
      }
    } catch {
      if error.code != .cancelled {
        state.withLock { state in
          if state.failure == nil { state.failure = error }
        }
      }
      throw error
    }
  }

  /// Makes a blocked read, a wait between attempts and every later read throw
  /// `.cancelled`, and cancels the inner source. Safe from any thread.
  public func cancel() {
    let signals = state.withLock { state in
      state.cancelled = true
      return Array(state.activeSignals.values)
    }
    let source = opened
    for signal in signals { signal.raise() }
    source.cancel()
  }

  // MARK: Internals

  private var current: any ByteSource { opened }

  private var isCancelled: Bool { state.withLock { $0.cancelled } }

  private func register() throws(PlayheadError) -> (Int, WakeSignal) {
    let signal = WakeSignal()
    let url = url
    let key = try state.withLock { (state) throws(PlayheadError) -> Int in
      if state.cancelled {
        throw PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
      }
      if let failure = state.failure { throw failure }
      let key = state.nextKey
      state.nextKey += 1
      state.activeSignals[key] = signal
      return key
    }
    return (key, signal)
  }

  private func unregister(_ key: Int) {
    _ = state.withLock { $0.activeSignals.removeValue(forKey: key) }
  }

  /// Runs `operation` until it succeeds, fails with an error the policy does not retry,
  /// or runs out of attempts; waits the policy's delay on `clock` between attempts.
  private static func attempt<T>(
    url: URL, offset: Int64, configuration: RequestConfiguration,
    policy: any LoadErrorHandlingPolicy, clock: any Clock,
    onRetry: (@Sendable (RetryingDataSource.Retry) -> Void)?, signal: WakeSignal,
    isCancelled: () -> Bool, _ operation: () throws(PlayheadError) -> T
  ) throws(PlayheadError) -> T {
    let request = DataRequest(
      url: url, range: ByteRange(offset: offset, length: nil), purpose: .media)
    var attempt = 1
    while true {
      do {
        return try operation()
      } catch {
        if error.code == .cancelled || isCancelled() { throw error }
        guard
          let delay = policy.retryDelay(
            for: error, request: request, attempt: attempt, configuration: configuration)
        else { throw error }
        onRetry?(
          RetryingDataSource.Retry(request: request, error: error, attempt: attempt, delay: delay))
        if !clock.wait(until: clock.now + delay, orUntil: signal) || isCancelled() {
          throw PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
        }
        attempt += 1
      }
    }
  }
}

/// A byte source that measures the speed of its own downloads (SPEC S9).
public protocol DownloadSpeedReporting: AnyObject {
  /// The speed of the last measured stretch of download, in bits per second; nil before
  /// one was measured.
  var downloadSpeedBitsPerSecond: Double? { get }
}

extension HTTPByteSource: DownloadSpeedReporting {}
