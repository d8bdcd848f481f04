import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Streams HTTP and HTTPS resources, or byte ranges of them, through URLSession.
///
/// `open` sends the request (with `Range: bytes=a-b` for a range) and returns once the
/// response headers are there; the body then streams into a read-ahead buffer that `read`
/// drains. At most `RequestConfiguration.readAheadBytes` are held ahead of the reader: a
/// full buffer stops the response, and a new range request continues it once the reader has
/// consumed half. A server that ignores `Range` and answers 200 is handled by discarding the
/// bytes before the wanted offset (and past the range's end).
///
/// Every request carries the configuration's headers, referer and user agent, the
/// request's own `headers` (which win), and `Accept-Encoding: identity`. A request with a
/// `body` is sent as a POST without `Range`; a continuation or a resume sends the POST
/// again and skips the bytes already delivered.
///
/// Errors: a status of 400 or more (and any other non-2xx status that reaches the source)
/// throws `.httpStatus` with `httpStatusCode`, unless the request sets
/// `deliversErrorResponses` (the body is then read as it is, with its `statusCode` in the
/// head); a range that starts at or past the end throws `.httpStatus` 416; no response
/// headers or body bytes for `timeoutMs` throws `.timedOut` (measured on the host's
/// monotonic clock, because a real network runs in real time whatever clock the player
/// uses); a refused, reset or broken connection throws `.connectionFailed`, with "closed
/// after N of M bytes" when the body ends early; a 206 whose `Content-Range` does not fit
/// the request throws `.ioError`; a URL that is not `http` or `https` throws
/// `.unsupportedScheme`; a redirect to another scheme throws `.redirectRefused`. After a
/// failed read the next read sends a new request from where the bytes stopped, so a caller
/// may retry; this source never retries by itself (`RetryingDataSource` does).
///
/// Example:
/// ```swift
/// let source = HTTPDataSourceFactory(configuration: RequestConfiguration(timeoutMs: 5_000))
///   .makeDataSource()
/// let head = try source.open(DataRequest(url: url, range: ByteRange(offset: 0, length: 1024)))
/// ```
public final class HTTPDataSource: DataSource, Sendable {
  private let client: HTTPClient
  private let transfer: HTTPTransfer
  private let timeoutNanoseconds: UInt64

  /// A source with a URLSession of its own; sources made by one `HTTPDataSourceFactory`
  /// share theirs.
  public convenience init(configuration: RequestConfiguration = .init()) {
    self.init(client: HTTPClient(configuration: configuration))
  }

  init(client: HTTPClient) {
    self.client = client
    transfer = HTTPTransfer(maxBufferAheadBytes: client.configuration.effectiveReadAheadBytes)
    timeoutNanoseconds = UInt64(client.configuration.effectiveTimeoutMs) * 1_000_000
  }

  deinit {
    transfer.condition.lock()
    let task = transfer.detachTask()
    transfer.condition.unlock()
    task?.cancel()
  }

  /// The settings every request uses.
  public var configuration: RequestConfiguration { client.configuration }

  public func open(_ request: DataRequest) throws(PlayheadError) -> DataResponseHead {
    let url = request.url
    let scheme = url.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      throw PlayheadError(
        .unsupportedScheme, "unsupported URL scheme '\(scheme)' in \(url.absoluteString)",
        url: url)
    }
    var pending: URLSessionDataTask?
    defer { pending?.cancel() }
    transfer.condition.lock()
    defer { transfer.condition.unlock() }
    if transfer.cancelled { throw PlayheadError.sourceCancelled(url) }
    pending = transfer.detachTask()
    let start = request.range?.offset ?? 0
    transfer.request = request
    transfer.isOpen = true
    transfer.rangeStart = start
    transfer.rangeEnd = request.range?.end
    transfer.totalLength = nil
    transfer.isErrorResponse = false
    transfer.head = nil
    transfer.phase = .idle
    transfer.resetBuffer(at: start)
    if request.range?.length == 0 {
      transfer.phase = .ended
      return DataResponseHead(url: url, length: 0)
    }
    startRequest(at: start)
    var deadline = HTTPTransfer.nowNanoseconds() + timeoutNanoseconds
    while true {
      if transfer.cancelled { throw PlayheadError.sourceCancelled(url) }
      if var head = transfer.head {
        head.totalLength = transfer.totalLength
        head.length = transfer.openEnd.map { max(0, $0 - transfer.rangeStart) }
        return head
      }
      switch transfer.phase {
      case .failed(let error):
        transfer.phase = .idle
        transfer.isOpen = false
        throw error
      case .idle, .ended:
        // Ended without a head: a continuation-style end, which an open never has.
        transfer.isOpen = false
        throw PlayheadError(
          .connectionFailed, "no response from \(url.absoluteString)", url: url)
      case .awaitingResponse, .streaming:
        if let error = waitForProgress(deadline: &deadline, abandoning: &pending) {
          transfer.isOpen = false
          throw error
        }
      }
    }
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlayheadError) -> Int {
    var pending: URLSessionDataTask?
    defer { pending?.cancel() }
    transfer.condition.lock()
    defer { transfer.condition.unlock() }
    let url = transfer.url
    if transfer.cancelled { throw PlayheadError.sourceCancelled(url) }
    guard transfer.isOpen else { throw PlayheadError.notOpen(url) }
    guard buffer.count > 0 else { return 0 }
    var deadline = HTTPTransfer.nowNanoseconds() + timeoutNanoseconds
    while true {
      if transfer.cancelled { throw PlayheadError.sourceCancelled(url) }
      let end = transfer.openEnd
      if let end, transfer.bufferStart >= end { return 0 }
      if transfer.buffered > 0 {
        let wanted = end.map { min(buffer.count, Int($0 - transfer.bufferStart)) } ?? buffer.count
        let count = transfer.consume(
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
        continueAfterStopIfNeeded()
        return count
      }
      switch transfer.phase {
      case .failed(let error):
        transfer.phase = .idle
        throw error
      case .ended:
        if let end, transfer.bufferStart < end {
          transfer.phase = .idle
          throw PlayheadError(
            .connectionFailed,
            "connection to \(url.absoluteString) closed after \(transfer.bufferStart) of \(end) bytes",
            url: url)
        }
        return 0
      case .idle:
        if transfer.isErrorResponse { return 0 }
        startRequest(at: transfer.bufferEnd)
        deadline = HTTPTransfer.nowNanoseconds() + timeoutNanoseconds
      case .awaitingResponse, .streaming:
        if let error = waitForProgress(deadline: &deadline, abandoning: &pending) { throw error }
      }
    }
  }

  public func close() {
    transfer.condition.lock()
    transfer.isOpen = false
    let task = transfer.detachTask()
    transfer.phase = .idle
    transfer.resetBuffer(at: 0)
    transfer.condition.unlock()
    task?.cancel()
  }

  public func cancel() {
    transfer.condition.lock()
    if transfer.cancelled {
      transfer.condition.unlock()
      return
    }
    transfer.cancelled = true
    let task = transfer.detachTask()
    transfer.phase = .failed(PlayheadError.sourceCancelled(transfer.url))
    transfer.condition.broadcast()
    transfer.condition.unlock()
    task?.cancel()
  }

  /// The read-ahead buffer, and whether the response has stopped at its limit or at the
  /// end of the open; with the last measured download speed.
  public var bufferState: DataBufferState? {
    transfer.condition.lock()
    defer { transfer.condition.unlock() }
    let reachesEnd = transfer.openEnd.map { transfer.bufferEnd >= $0 } ?? false
    var stopped = false
    switch transfer.phase {
    case .idle: stopped = transfer.buffered > 0
    case .ended: stopped = true
    case .awaitingResponse, .streaming, .failed: stopped = false
    }
    return DataBufferState(
      bytesAhead: Int64(transfer.buffered), isHoldingBack: stopped || reachesEnd,
      reachesEnd: reachesEnd, downloadSpeedBitsPerSecond: transfer.speed.lastBitsPerSecond)
  }

  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    transfer.condition.lock()
    transfer.bufferChangeHandler = handler
    transfer.condition.unlock()
  }

  /// Every body byte received from the network so far, over all responses (bytes a
  /// server that ignores `Range` sends again are counted again).
  public var receivedByteCount: Int64 {
    transfer.condition.lock()
    defer { transfer.condition.unlock() }
    return transfer.speed.totalBytes
  }

  // MARK: Internals (the caller holds the transfer's lock)

  /// Sends the request for the open's bytes from `offset` as the new current request.
  private func startRequest(at offset: Int64) {
    let request = client.urlRequest(
      for: transfer.request, from: offset, to: transfer.rangeEnd)
    let task = client.session.dataTask(with: request)
    client.delegate.register(transfer, taskIdentifier: task.taskIdentifier)
    transfer.task = task
    transfer.taskIdentifier = task.taskIdentifier
    transfer.requestOffset = offset
    transfer.fetchOffset = offset
    let now = HTTPTransfer.nowNanoseconds()
    transfer.lastProgressNanoseconds = now
    transfer.redirectCount = 0
    transfer.speed.requestStarted(at: now)
    transfer.phase = .awaitingResponse
    task.resume()
  }

  /// After a full buffer stopped the response, starts the continuation request once the
  /// reader has consumed half of the buffer.
  private func continueAfterStopIfNeeded() {
    guard case .idle = transfer.phase, !transfer.isErrorResponse,
      transfer.buffered <= transfer.maxBufferAheadBytes / 2
    else { return }
    if let end = transfer.openEnd, transfer.bufferEnd >= end { return }
    startRequest(at: transfer.bufferEnd)
  }

  /// Waits until the delegate reports anything or the timeout passes; returns
  /// `.timedOut` (and drops the request) when neither headers nor bytes came in time.
  private func waitForProgress(
    deadline: inout UInt64, abandoning pending: inout URLSessionDataTask?
  ) -> PlayheadError? {
    let now = HTTPTransfer.nowNanoseconds()
    let effective = max(deadline, transfer.lastProgressNanoseconds + timeoutNanoseconds)
    let url = transfer.url
    if now >= effective {
      let streaming: Bool
      if case .streaming = transfer.phase { streaming = true } else { streaming = false }
      pending = transfer.detachTask()
      transfer.speed.responseEnded(at: now)
      transfer.phase = .idle
      let milliseconds = client.configuration.effectiveTimeoutMs
      let offset = transfer.requestOffset
      let resuming = offset > 0 ? " (a request for bytes from \(offset))" : ""
      let message =
        streaming
        ? "no data from \(url.absoluteString) for \(milliseconds) ms after \(transfer.fetchOffset) bytes"
        : "no answer from \(url.absoluteString) within \(milliseconds) ms\(resuming)"
      return PlayheadError(.timedOut, message, url: url)
    }
    let remainingSeconds = Double(effective - now) / 1e9
    // A fast-mode worker lets the player's other threads run while the network answers.
    let turn = ClockTurn.release()
    _ = transfer.condition.wait(until: Date(timeIntervalSinceNow: remainingSeconds))
    if let turn {
      transfer.condition.unlock()
      turn.reacquire()
      transfer.condition.lock()
    }
    return nil
  }
}
