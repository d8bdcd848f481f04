import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loads whole HTTP(S) resources, or byte ranges of them, through URLSession.
///
/// Every request carries the configuration's headers, referer and user agent, the request's
/// own `headers` (which win), `Accept-Encoding: identity`, and for a ranged request a
/// `Range` header. A server that
/// ignores `Range` and answers 200 is handled by keeping only the wanted bytes. The
/// progress callback runs on the loading thread each time bytes arrive; returning `false`
/// abandons the load, which throws `.cancelled`.
///
/// Errors: a status of 400 or more (and any other non-2xx status that reaches the source)
/// throws `.httpStatus` with `httpStatusCode`, unless the request sets
/// `deliversErrorResponses` (the response then comes back with its `statusCode` and body); no response headers or body bytes for
/// `configuration.timeoutMs` throws `.timedOut`; a refused, reset or broken connection
/// throws `.connectionFailed`, with "closed after N of M bytes" when the body ends before
/// its `Content-Length`; a 206 whose `Content-Range` does not start at the requested
/// offset throws `.ioError`; a range past the end throws `.httpStatus` 416; a URL that is
/// not `http` or `https` throws `.unsupportedScheme`. This source never retries: wrap it
/// in a `RetryingDataSource`.
///
/// Time: `startClock`, `endClock` and progress `elapsed` are read from `clock`. The timeout
/// is measured on the host's monotonic clock, because a real network runs in real time
/// whatever clock the player uses (URLSession's own timer, which Linux truncates to whole
/// seconds, is set later and only backs it up).
///
/// Example:
/// ```swift
/// let source = HTTPDataSource(configuration: RequestConfiguration(timeoutMs: 5_000))
/// let response = try source.load(DataRequest(url: url, range: ByteRange(offset: 0, length: 1024)))
/// ```
public final class HTTPDataSource: DataSource, Sendable {
  /// The settings every request uses.
  public let configuration: RequestConfiguration
  /// The clock that timestamps transfers.
  public let clock: any Clock
  /// Told about every successful transfer.
  public let transferListener: (any TransferListener)?
  private let session: URLSession
  private let delegate: HTTPLoadDelegate
  private let timeoutNanoseconds: UInt64
  private let sessionTimeoutSeconds: Double
  private let state = Locked(State())

  private struct State: Sendable {
    var cancelled = false
    var invalidated = false
    var active: [ObjectIdentifier: HTTPLoad] = [:]
  }

  /// Creates a source; no connection is made until the first load.
  public init(
    configuration: RequestConfiguration = .init(), clock: any Clock = HostClock.shared,
    transferListener: (any TransferListener)? = nil
  ) {
    self.configuration = configuration
    self.clock = clock
    self.transferListener = transferListener
    timeoutNanoseconds = UInt64(configuration.effectiveTimeoutMs) * 1_000_000
    sessionTimeoutSeconds = (Double(configuration.effectiveTimeoutMs) / 1000).rounded(.up) + 1
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = sessionTimeoutSeconds
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    sessionConfiguration.urlCache = nil
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.name = "playhead.http-data-source"
    delegate = HTTPLoadDelegate()
    session = URLSession(
      configuration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue)
  }

  deinit {
    let wasInvalidated = state.withLock { state in
      defer { state.invalidated = true }
      return state.invalidated
    }
    // No task is cancelled here: a load holds its source until its task has ended.
    if !wasInvalidated { session.finishTasksAndInvalidate() }
  }

  /// Loads `request`, blocking until the bytes are there or the load fails; see the type
  /// for the errors.
  ///
  /// A range of length 0 returns no bytes without a request.
  public func load(
    _ request: DataRequest, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> DataResponse {
    let url = request.url
    let scheme = url.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      throw PlayheadError(
        .unsupportedScheme, "unsupported URL scheme '\(scheme)' in \(url.absoluteString)",
        url: url)
    }
    if request.range?.length == 0 {
      try throwIfCancelled(url)
      let now = clock.now
      return DataResponse(data: Data(), url: url, startClock: now, endClock: now)
    }
    let load = HTTPLoad(request: request)
    let prepared = urlRequest(for: request)
    // Created under the lock: `cancelAll` invalidates the session, after which creating a
    // task traps.
    let created = state.withLock { state -> URLSessionDataTask? in
      if state.cancelled { return nil }
      let task = session.dataTask(with: prepared)
      load.task = task
      state.active[ObjectIdentifier(load)] = load
      delegate.register(load, taskIdentifier: task.taskIdentifier)
      return task
    }
    guard let task = created else { throw cancelledError(url) }
    defer {
      _ = state.withLock { $0.active.removeValue(forKey: ObjectIdentifier(load)) }
      delegate.unregister(taskIdentifier: task.taskIdentifier)
    }
    let startClock = clock.now
    load.condition.lock()
    load.lastActivityNanoseconds = HTTPTransferState.nowNanoseconds()
    load.condition.unlock()
    task.resume()
    let data: Data
    do {
      data = try wait(for: load, startClock: startClock, progress: progress)
    } catch {
      load.condition.lock()
      let toCancel = load.taskToCancel(endedByItself: load.taskEnded)
      load.condition.unlock()
      toCancel?.cancel()
      throw error
    }
    let endClock = clock.now
    load.condition.lock()
    let statusCode = load.statusCode
    let responseURL = load.responseURL ?? url
    let totalLength = load.totalLength
    load.condition.unlock()
    transferListener?.transferEnded(
      request: request, bytes: data.count, duration: endClock - startClock)
    return DataResponse(
      data: data, url: responseURL, statusCode: statusCode, startClock: startClock,
      endClock: endClock, totalLength: totalLength)
  }

  /// Makes every blocked and future load throw `.cancelled` at once, and cancels the
  /// requests in flight. Safe from any thread; calling it again has no effect.
  public func cancelAll() {
    let (loads, shouldInvalidate) = state.withLock { state in
      state.cancelled = true
      defer { state.invalidated = true }
      return (Array(state.active.values), !state.invalidated)
    }
    for load in loads {
      load.condition.lock()
      let toCancel = load.taskToCancel(endedByItself: load.taskEnded)
      load.finish(.failed(cancelledError(load.request.url)))
      load.condition.unlock()
      toCancel?.cancel()
    }
    // Every task was cancelled above, once each; the session goes once they have ended
    // (cancelling them again through the session races with their completion).
    if shouldInvalidate { session.finishTasksAndInvalidate() }
  }

  // MARK: Internals

  private func throwIfCancelled(_ url: URL) throws(PlayheadError) {
    if state.withLock({ $0.cancelled }) { throw cancelledError(url) }
  }

  private func cancelledError(_ url: URL) -> PlayheadError {
    PlayheadError(.cancelled, "load cancelled: \(url.absoluteString)", url: url)
  }

  private func urlRequest(for request: DataRequest) -> URLRequest {
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: sessionTimeoutSeconds)
    for (name, value) in configuration.headerFields {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    if let range = request.range {
      urlRequest.setValue(range.httpHeaderValue, forHTTPHeaderField: "Range")
    }
    return urlRequest
  }

  /// Waits for the load to end, reporting progress as bytes arrive; returns the body.
  private func wait(
    for load: HTTPLoad, startClock: MediaTime, progress: (@Sendable (TransferProgress) -> Bool)?
  ) throws(PlayheadError) -> Data {
    let url = load.request.url
    var reported = 0
    load.condition.lock()
    defer { load.condition.unlock() }
    while true {
      let received = load.data.count
      if let progress, received > reported {
        reported = received
        let report = TransferProgress(
          request: load.request, bytesLoaded: received, bytesExpected: load.expectedBytes,
          elapsed: clock.now - startClock)
        load.condition.unlock()
        let keepGoing = progress(report)
        load.condition.lock()
        if !keepGoing {
          // Thrown even when the body has meanwhile arrived in full: the caller said stop.
          let abandoned = PlayheadError(
            .cancelled, "load abandoned after \(received) bytes: \(url.absoluteString)", url: url)
          load.finish(.failed(abandoned))
          throw abandoned
        }
        continue
      }
      switch load.outcome {
      case .finished?:
        return load.data
      case .failed(let error)?:
        throw error
      case nil:
        break
      }
      let now = HTTPTransferState.nowNanoseconds()
      let deadline = load.lastActivityNanoseconds + timeoutNanoseconds
      if now >= deadline {
        let what =
          load.sawResponse
          ? "no data from \(url.absoluteString) for \(configuration.effectiveTimeoutMs) ms "
            + "after \(load.data.count) bytes"
          : "no answer from \(url.absoluteString) within \(configuration.effectiveTimeoutMs) ms"
        load.finish(.failed(PlayheadError(.timedOut, what, url: url)))
        continue
      }
      // A fast-mode worker lets the player's other threads run while the network answers.
      let turn = ClockTurn.release()
      _ = load.condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
      if let turn {
        load.condition.unlock()
        turn.reacquire()
        load.condition.lock()
      }
    }
  }
}
