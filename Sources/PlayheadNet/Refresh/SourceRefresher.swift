import Foundation
import PlayheadCore

/// Keeps the fresh URLs of one item's resources and runs the application's refresh
/// handler when one expires: coalesced, bounded and timed on the loading clock.
///
/// Every resource is known by its original URL (as the item or its playlist names it);
/// `currentURL(for:)` gives the URL to send for it now. `refresh` asks the handler for a
/// fresh URL for the resource:
/// - Coalescing: while a refresh of a resource runs, other loads of it that fail wait for
///   its answer instead of asking again; a load that failed with a URL older than the
///   current one just retries with the current one.
/// - Bounds: a resource may be refreshed `maximumAttempts` times in a row (a successful
///   load, reported with `loaded(_:)`, starts the count again); the handler has
///   `timeout` on `clock` to answer.
/// - Failure: `onError`, the timeout, too many attempts, or no handler make `refresh`
///   throw `.sourceExpired` (see `SourceRefreshFailure.error`).
///
/// Every outcome goes to `onEvent` (on the loading thread, without locks held) and stays
/// in `events`. `cancelAll()` abandons waiting refreshes and makes later ones throw
/// `.cancelled`.
public final class SourceRefresher: @unchecked Sendable {
  // Unchecked Sendable: every mutable property is guarded by `condition`.

  /// The application's handler; nil fails every refresh with `.noHandler`.
  public let handler: URLSourceExpiredHandler?
  public let options: SourceRefreshOptions
  /// The clock the timeout is waited on.
  public let clock: any Clock
  /// The item's own URL, passed on to the handler.
  public let sourceURL: URL?
  private let onEvent: (@Sendable (SourceRefreshEvent) -> Void)?

  private let condition = NSCondition()
  private var fresh: [URL: URL] = [:]
  private var attempts: [URL: Int] = [:]
  private var inFlight: [URL: SourceRefreshCallback] = [:]
  /// The last failed refresh of each resource, for the loads that waited for it.
  private var failures: [URL: (expiredURL: URL, error: PlayheadError)] = [:]
  private var log: [SourceRefreshEvent] = []
  private var handlerCalls = 0
  private var cancelled = false

  public init(
    handler: URLSourceExpiredHandler?, options: SourceRefreshOptions = SourceRefreshOptions(),
    clock: any Clock = HostClock.shared, sourceURL: URL? = nil,
    onEvent: (@Sendable (SourceRefreshEvent) -> Void)? = nil
  ) {
    self.handler = handler
    self.options = options
    self.clock = clock
    self.sourceURL = sourceURL
    self.onEvent = onEvent
  }

  /// The URL to send for the resource first named `original` (itself until refreshed).
  public func currentURL(for original: URL) -> URL {
    condition.lock()
    defer { condition.unlock() }
    return fresh[original] ?? original
  }

  /// Every refresh outcome so far, oldest first.
  public var events: [SourceRefreshEvent] {
    condition.lock()
    defer { condition.unlock() }
    return log
  }

  /// How many times the handler has been called.
  public var handlerCallCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return handlerCalls
  }

  /// Sends `url` for the resource `original` from now on, as if a refresh had answered
  /// it: how a new refresher takes over the fresh URLs an earlier one got (a download
  /// resumed in the same process). Records no event and calls no handler.
  public func adopt(_ url: URL, for original: URL) {
    condition.lock()
    fresh[original] = url
    condition.unlock()
  }

  /// A load of `original` succeeded: its run of refresh attempts starts again.
  public func loaded(_ original: URL) {
    condition.lock()
    attempts[original] = nil
    failures[original] = nil
    condition.unlock()
  }

  /// Abandons every waiting refresh and makes later ones throw `.cancelled`.
  public func cancelAll() {
    condition.lock()
    cancelled = true
    let waiting = Array(inFlight.values)
    condition.broadcast()
    condition.unlock()
    for callback in waiting {
      _ = callback.abandon()
      callback.signal.raise()
    }
  }

  /// A fresh URL for the resource `original` after `expiredURL` expired for `reason`.
  ///
  /// Returns at once with the current URL when another load already refreshed the
  /// resource past `expiredURL`; joins a refresh that is running; otherwise calls the
  /// handler and waits for its answer. Throws `.sourceExpired` or `.cancelled`.
  public func refresh(
    original: URL, expiredURL: URL, purpose: DataPurpose, reason: ExpiredURLSource.Reason
  ) throws(PlayheadError) -> URL {
    try refresh(
      original: original, expiredURL: expiredURL, purpose: purpose, reason: reason,
      cancellation: nil)
  }

  /// `refresh`, for one transfer that `cancellation` may end: once it is cancelled, this
  /// call throws `.cancelled` at once, while the refresher goes on serving its other
  /// transfers (a load waiting for the same answer asks the handler again).
  func refresh(
    original: URL, expiredURL: URL, purpose: DataPurpose, reason: ExpiredURLSource.Reason,
    cancellation: RefreshCancellation?
  ) throws(PlayheadError) -> URL {
    condition.lock()
    var joined = false
    while true {
      if cancelled || cancellation?.isCancelled == true {
        condition.unlock()
        throw PlayheadError(
          .cancelled, "refresh cancelled: \(original.absoluteString)", url: original)
      }
      let current = fresh[original] ?? original
      if current != expiredURL {
        condition.unlock()
        return current
      }
      if joined, let failure = failures[original], failure.expiredURL == expiredURL {
        condition.unlock()
        throw failure.error
      }
      guard inFlight[original] != nil else { break }
      // Another load is refreshing this resource: wait for its answer.
      joined = true
      condition.wait()
    }
    let attempt = (attempts[original] ?? 0) + 1
    let expired = ExpiredURLSource(
      url: expiredURL, originalURL: original, sourceURL: sourceURL, purpose: purpose,
      reason: reason, attempt: attempt)
    guard attempt <= options.maximumAttempts, let handler else {
      condition.unlock()
      let reason: SourceRefreshFailure.Reason =
        handler == nil ? .noHandler : .tooManyAttempts(attempt - 1)
      throw fail(expired, reason)
    }
    attempts[original] = attempt
    let callback = SourceRefreshCallback()
    inFlight[original] = callback
    handlerCalls += 1
    condition.unlock()

    // The deadline is fixed before the handler runs, so that a clock advanced while the
    // handler runs counts.
    let deadline = clock.now + options.timeout
    cancellation?.attach(callback.signal)
    handler(expired, callback)
    while callback.current == nil {
      if cancellation?.isCancelled == true { break }
      if clock.wait(until: deadline, orUntil: callback.signal) { break }
    }
    let outcome = callback.abandon()
    if outcome == .abandoned, cancellation?.isCancelled == true {
      // This transfer was cancelled while the handler had not answered: it stops waiting,
      // and a load that joined the refresh asks again (a late answer is ignored).
      condition.lock()
      inFlight[original] = nil
      condition.broadcast()
      condition.unlock()
      throw PlayheadError(
        .cancelled, "refresh cancelled: \(original.absoluteString)", url: original)
    }
    let now = clock.now
    var failure: SourceRefreshFailure?
    var freshURL: URL?
    switch outcome {
    case .success(let url): freshURL = url
    case .failure(let message):
      failure = SourceRefreshFailure(
        expired: expired, reason: .handlerError(message), clockTime: now)
    case .abandoned:
      failure = SourceRefreshFailure(
        expired: expired, reason: .timedOut(options.timeout), clockTime: now)
    }

    condition.lock()
    inFlight[original] = nil
    let wasCancelled = cancelled
    if let freshURL, !wasCancelled {
      fresh[original] = freshURL
      failures[original] = nil
    }
    if let failure { failures[original] = (expiredURL, failure.error) }
    // The outcome is logged before the joined loads wake: one that throws the failure (or
    // goes on with the fresh URL) never gets ahead of the event in `events`.
    var event: SourceRefreshEvent?
    if !wasCancelled {
      if let failure {
        event = .failed(failure)
      } else if let freshURL {
        event = .refreshed(
          SourceRefreshRecord(expired: expired, newURL: freshURL, clockTime: now))
      }
    }
    if let event { log.append(event) }
    condition.broadcast()
    condition.unlock()
    if let event { onEvent?(event) }

    if wasCancelled {
      throw PlayheadError(
        .cancelled, "refresh cancelled: \(original.absoluteString)", url: original)
    }
    if let failure { throw failure.error }
    guard let freshURL else {
      throw PlayheadError(.invalidState, "refresh ended without an answer", url: original)
    }
    return freshURL
  }

  /// Wakes the loads waiting for another load's refresh, so that a cancelled one leaves.
  func wakeWaiters() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  private func fail(_ expired: ExpiredURLSource, _ reason: SourceRefreshFailure.Reason)
    -> PlayheadError
  {
    let failure = SourceRefreshFailure(expired: expired, reason: reason, clockTime: clock.now)
    record(.failed(failure))
    return failure.error
  }

  private func record(_ event: SourceRefreshEvent) {
    condition.lock()
    log.append(event)
    condition.unlock()
    onEvent?(event)
  }
}

/// Ends one transfer's waits for refreshes (`RefreshingDataSource.cancel()`) without
/// cancelling the refresher that the item's other transfers share.
final class RefreshCancellation: Sendable {
  private let state = Locked<(cancelled: Bool, signal: WakeSignal?)>((false, nil))

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Raises `signal`, which the transfer's current wait for an answer waits on, on
  /// cancellation (at once when already cancelled).
  func attach(_ signal: WakeSignal) {
    let raiseNow = state.withLock { state -> Bool in
      state.signal = signal
      return state.cancelled
    }
    if raiseNow { signal.raise() }
  }

  func cancel() {
    let signal = state.withLock { state -> WakeSignal? in
      state.cancelled = true
      return state.signal
    }
    signal?.raise()
  }
}
