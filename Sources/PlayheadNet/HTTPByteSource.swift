import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A byte source over an HTTP or HTTPS resource, read through streamed range requests.
///
/// The first read (or `prefetchHeaders()`) sends `Range: bytes=<offset>-` and keeps the
/// response open: sequential reads continue it. A read at another offset is a seek: it
/// cancels the response and sends a new range request, except for a short forward skip
/// (up to 64 KiB past the bytes already received), which reads through the open
/// response. The source learns `length` from `Content-Range` (or `Content-Length` on a
/// 200). A server that ignores `Range` and answers 200 is handled by discarding the bytes
/// before the wanted offset (so with such a server every seek and every continuation
/// downloads again from byte 0).
///
/// At most `configuration.maxBufferAheadBytes` are held ahead of the reader; a full
/// buffer stops the response and a new range request continues once the reader has
/// consumed half of it.
///
/// Errors: a status of 400 or more throws `.httpStatus` (with `httpStatusCode`); no
/// response headers or bytes within `configuration.timeoutSeconds` throws `.timedOut`; a
/// refused or broken connection throws `.connectionFailed`; `cancel()` makes a blocked read
/// throw `.cancelled` at once. After a failure the next read sends a new request, so a
/// caller may retry.
public final class HTTPByteSource: ByteSource, ByteBufferReporting, Sendable {
  // The stored properties are immutable; mutable state lives in `state`, which is
  // guarded by its condition's lock.
  public let url: URL
  /// The request settings this source was created with.
  public let configuration: HTTPRequestConfiguration
  private let state: HTTPTransferState
  private let session: URLSession
  private let timeoutNanoseconds: UInt64
  private let sessionTimeoutSeconds: Double

  /// A forward seek up to this many bytes past the received bytes reads through the open
  /// response instead of sending a new request.
  static let shortSeekBytes: Int64 = 64 * 1024

  /// Creates a source for `url`; no request is sent until the first read or
  /// `prefetchHeaders()`.
  ///
  /// Throws `.unsupportedScheme` unless the scheme is `http` or `https`, and
  /// `.invalidArgument` for a timeout that is not positive and finite or a read-ahead
  /// that is not positive.
  public init(url: URL, configuration: HTTPRequestConfiguration = .init()) throws(PlayheadError) {
    let scheme = url.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      throw PlayheadError(
        .unsupportedScheme, "unsupported URL scheme '\(scheme)' in \(url.absoluteString)",
        url: url)
    }
    guard configuration.timeoutSeconds.isFinite, configuration.timeoutSeconds > 0 else {
      throw PlayheadError(
        .invalidArgument, "timeoutSeconds must be positive, got \(configuration.timeoutSeconds)",
        url: url)
    }
    guard configuration.maxBufferAheadBytes > 0 else {
      throw PlayheadError(
        .invalidArgument,
        "maxBufferAheadBytes must be positive, got \(configuration.maxBufferAheadBytes)",
        url: url)
    }
    self.url = url
    self.configuration = configuration
    timeoutNanoseconds = UInt64(min(configuration.timeoutSeconds, 1e9) * 1e9)
    // URLSession on Linux truncates its timeout to whole seconds (0.5 would mean "now"),
    // so its own timer is set later than ours and only backs it up.
    sessionTimeoutSeconds = (min(configuration.timeoutSeconds, 1e9)).rounded(.up) + 1
    state = HTTPTransferState(url: url, maxBufferAheadBytes: configuration.maxBufferAheadBytes)
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = sessionTimeoutSeconds
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    sessionConfiguration.urlCache = nil
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.name = "playhead.http.\(url.host ?? "")"
    session = URLSession(
      configuration: sessionConfiguration, delegate: HTTPSessionDelegate(state: state),
      delegateQueue: delegateQueue)
  }

  deinit {
    state.condition.lock()
    let task = state.detachTask()
    let alreadyInvalidated = state.cancelled
    state.condition.unlock()
    task?.cancel()
    if !alreadyInvalidated { session.invalidateAndCancel() }
  }

  /// The resource's total length once a response has told it; nil before the first
  /// response and for a server that sends neither `Content-Range` nor `Content-Length`.
  public var length: Int64? {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.length
  }

  /// How many bytes are downloaded ahead of the last read and not yet consumed.
  ///
  /// A buffer level for reporting; it exceeds `configuration.maxBufferAheadBytes` by at
  /// most one network chunk. It drops to 0 on a seek outside the buffered bytes.
  public var bufferedByteCount: Int {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.buffered
  }

  /// What the source holds ahead of its reader: the read-ahead buffer, and whether the
  /// response has stopped at its limit or at the end of the resource.
  public var bufferState: ByteBufferState {
    state.condition.lock()
    defer { state.condition.unlock() }
    let reachesEnd = state.length.map { state.bufferEnd >= $0 } ?? false
    var stopped = false
    switch state.phase {
    case .idle: stopped = state.buffered > 0
    case .ended: stopped = true
    case .awaitingResponse, .streaming, .failed: stopped = false
    }
    return ByteBufferState(
      bytesAhead: Int64(state.buffered), isHoldingBack: stopped || reachesEnd,
      reachesEnd: reachesEnd)
  }

  /// Sets what to call (on URLSession's delegate queue) when body bytes arrive or a
  /// response stops.
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    state.condition.lock()
    state.bufferChangeHandler = handler
    state.condition.unlock()
  }

  /// The speed of the last measured stretch of the download, in bits per second (SPEC
  /// S9); nil until one was measured.
  ///
  /// Measured on the host's monotonic clock over samples of 256 KiB of body (the first
  /// one from the request, so it includes the time to the first byte), and over the rest
  /// of a response that ends, stops at the read-ahead limit or fails with at least 16 KiB
  /// in its last sample. A response that never sends that much gives no figure.
  public var downloadSpeedBitsPerSecond: Double? {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.speed.lastBitsPerSecond
  }

  /// Every body byte received from the network so far, over all responses (bytes a
  /// server that ignores `Range` sends again are counted again).
  public var receivedByteCount: Int64 {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.speed.totalBytes
  }

  /// True while a response is in flight (awaiting headers or receiving bytes).
  ///
  /// False before the first read, at the end of the resource, after a failure, and while
  /// a full read-ahead buffer has the response stopped.
  public var isLoading: Bool {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.isActive
  }

  /// Sends the first request now, if none was sent, and waits for its response headers.
  ///
  /// Lets a caller fail fast and learn `length` before reading. Throws what a read would:
  /// `.httpStatus` for a failing status (a 404 surfaces here), `.timedOut`,
  /// `.connectionFailed`, `.cancelled`; and `.emptySource` when the server reports zero
  /// bytes. Returns at once when headers were already received.
  public func prefetchHeaders() throws(PlayheadError) {
    // A dropped task is cancelled after the lock is released (defers run in reverse).
    var pending: URLSessionDataTask?
    defer { pending?.cancel() }
    state.condition.lock()
    defer { state.condition.unlock() }
    var deadline = HTTPTransferState.nowNanoseconds() + timeoutNanoseconds
    while true {
      if state.cancelled { throw cancelledError() }
      if state.headersReceived {
        if state.length == 0 {
          throw PlayheadError(.emptySource, "resource is empty: \(url.absoluteString)", url: url)
        }
        return
      }
      switch state.phase {
      case .failed(let error):
        state.phase = .idle
        throw error
      case .idle, .ended:
        startRequest(at: state.bufferEnd)
        deadline = HTTPTransferState.nowNanoseconds() + timeoutNanoseconds
      case .awaitingResponse, .streaming:
        if let error = waitForProgress(deadline: deadline, abandoning: &pending) { throw error }
      }
    }
  }

  /// Reads up to `buffer.count` bytes at `offset`, blocking until at least one byte
  /// arrives; returns 0 at the end of the resource.
  ///
  /// Throws `.invalidArgument` for a negative offset, and the errors described on the type.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError)
    -> Int
  {
    guard offset >= 0 else {
      throw PlayheadError(.invalidArgument, "negative read offset \(offset)", url: url)
    }
    // A dropped task is cancelled after the lock is released (defers run in reverse).
    var pending: URLSessionDataTask?
    defer { pending?.cancel() }
    state.condition.lock()
    defer { state.condition.unlock() }
    if state.cancelled { throw cancelledError() }
    // A read at or past a known end leaves the open response alone.
    if let length = state.length, offset >= length { return 0 }
    guard buffer.count > 0 else { return 0 }
    position(at: offset, abandoning: &pending)
    var deadline = HTTPTransferState.nowNanoseconds() + timeoutNanoseconds
    while true {
      if state.cancelled { throw cancelledError() }
      if let length = state.length, offset >= length { return 0 }
      if state.buffered > 0 {
        let count = state.consume(into: buffer)
        continueAfterStopIfNeeded()
        return count
      }
      switch state.phase {
      case .failed(let error):
        state.phase = .idle
        throw error
      case .ended:
        if let length = state.length, offset < length {
          state.phase = .idle
          throw PlayheadError(
            .connectionFailed,
            "connection to \(url.absoluteString) closed after \(state.bufferEnd) of \(length) bytes",
            url: url)
        }
        return 0
      case .idle:
        startRequest(at: state.bufferEnd)
        deadline = HTTPTransferState.nowNanoseconds() + timeoutNanoseconds
      case .awaitingResponse, .streaming:
        if let error = waitForProgress(deadline: deadline, abandoning: &pending) { throw error }
      }
    }
  }

  /// Makes a blocked read and every later read throw `.cancelled`, and cancels the
  /// request in flight. Safe from any thread; calling it again has no effect.
  public func cancel() {
    state.condition.lock()
    if state.cancelled {
      state.condition.unlock()
      return
    }
    state.cancelled = true
    let task = state.detachTask()
    state.phase = .failed(cancelledError())
    state.condition.broadcast()
    state.condition.unlock()
    task?.cancel()
    session.invalidateAndCancel()
  }

  /// Whether a read at `offset` would send a new request: no received byte holds it and
  /// no response in flight reaches it. A refreshing wrapper checks expiry before such a
  /// read.
  func needsRequest(toReadAt offset: Int64) -> Bool {
    state.condition.lock()
    defer { state.condition.unlock() }
    if state.cancelled { return false }
    if let length = state.length, offset >= length { return false }
    let start = state.bufferStart
    let end = state.bufferEnd
    if offset >= start && offset < end { return false }
    if state.isActive && offset >= start && offset <= end + Self.shortSeekBytes { return false }
    return true
  }

  // MARK: Internals (the caller holds the state lock)

  private func cancelledError() -> PlayheadError {
    PlayheadError(.cancelled, "read cancelled: \(url.absoluteString)", url: url)
  }

  /// Moves the reader to `offset`: within or just past the received bytes it consumes or
  /// skips them; anywhere else it drops the response so that a new request starts there.
  private func position(at offset: Int64, abandoning pending: inout URLSessionDataTask?) {
    if offset == state.bufferStart { return }
    let end = state.bufferEnd
    if offset > state.bufferStart && offset <= end {
      state.drop(Int(offset - state.bufferStart))
      return
    }
    if offset > end && offset - end <= Self.shortSeekBytes && state.isActive {
      state.resetBuffer(at: offset)
      return
    }
    pending = state.detachTask()
    state.resetBuffer(at: offset)
    state.phase = .idle
  }

  /// Sends `Range: bytes=<offset>-` as the new current request.
  private func startRequest(at offset: Int64) {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: sessionTimeoutSeconds)
    for (name, value) in configuration.headers {
      request.setValue(value, forHTTPHeaderField: name)
    }
    if let userAgent = configuration.userAgent {
      request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    }
    if let referer = configuration.referer {
      request.setValue(referer, forHTTPHeaderField: "Referer")
    }
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
    let task = session.dataTask(with: request)
    state.task = task
    state.taskIdentifier = task.taskIdentifier
    state.requestOffset = offset
    state.fetchOffset = offset
    let now = HTTPTransferState.nowNanoseconds()
    state.lastProgressNanoseconds = now
    state.redirectCount = 0
    state.speed.requestStarted(at: now)
    state.phase = .awaitingResponse
    task.resume()
  }

  /// After a full buffer stopped the response, starts the continuation request once the
  /// reader has consumed half of the buffer.
  private func continueAfterStopIfNeeded() {
    guard case .idle = state.phase, state.buffered <= state.maxBufferAheadBytes / 2 else {
      return
    }
    if let length = state.length, state.bufferEnd >= length { return }
    startRequest(at: state.bufferEnd)
  }

  /// Waits until the delegate reports anything or the timeout passes; returns
  /// `.timedOut` (and drops the request) when neither headers nor bytes came in time.
  private func waitForProgress(
    deadline: UInt64, abandoning pending: inout URLSessionDataTask?
  ) -> PlayheadError? {
    let now = HTTPTransferState.nowNanoseconds()
    let effective = max(deadline, state.lastProgressNanoseconds + timeoutNanoseconds)
    if now >= effective {
      let streaming: Bool
      if case .streaming = state.phase { streaming = true } else { streaming = false }
      pending = state.detachTask()
      state.speed.responseEnded(at: now)
      state.phase = .idle
      let milliseconds = Int((min(configuration.timeoutSeconds, 1e9) * 1000).rounded(.up))
      let resuming =
        state.requestOffset > 0 ? " (a request for bytes from \(state.requestOffset))" : ""
      let message =
        streaming
        ? "no data from \(url.absoluteString) for \(milliseconds) ms after \(state.fetchOffset) bytes"
        : "no answer from \(url.absoluteString) within \(milliseconds) ms\(resuming)"
      return PlayheadError(.timedOut, message, url: url)
    }
    let remainingSeconds = Double(effective - now) / 1e9
    // A fast-mode worker lets the player's other threads run while the network answers.
    let turn = ClockTurn.release()
    _ = state.condition.wait(until: Date(timeIntervalSinceNow: remainingSeconds))
    if let turn {
      state.condition.unlock()
      turn.reacquire()
      state.condition.lock()
    }
    return nil
  }
}
