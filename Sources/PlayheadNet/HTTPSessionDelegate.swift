import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Receives an `HTTPByteSource`'s URLSession callbacks and records them in the shared
/// `HTTPTransferState`.
///
/// The session keeps its delegate alive until it is invalidated, so the delegate holds the
/// state, never the source: releasing the source invalidates the session and frees both.
/// Callbacks from a task that is no longer the current one are ignored. Redirects follow
/// `HTTPRedirects`: one to a scheme other than http(s) is refused, and more than
/// `HTTPRedirects.limit` in a row fail with `.tooManyRedirects`.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  // `state` is immutable and guards its own fields.
  let state: HTTPTransferState

  init(state: HTTPTransferState) {
    self.state = state
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let allow = handleResponse(response, taskIdentifier: dataTask.taskIdentifier)
    completionHandler(allow ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let state = self.state
    state.condition.lock()
    guard state.taskIdentifier == dataTask.taskIdentifier else {
      state.condition.unlock()
      return
    }
    let now = HTTPTransferState.nowNanoseconds()
    state.lastProgressNanoseconds = now
    state.speed.received(data.count, at: now)
    state.append(data)
    var stopped: URLSessionDataTask?
    if state.buffered >= state.maxBufferAheadBytes {
      // URLSession cannot pause a response, so a full buffer stops it; the reader starts
      // a new range request at `bufferEnd` once it has consumed half of the buffer.
      stopped = state.detachTask()
      state.speed.responseEnded(at: now)
      state.phase = .idle
    }
    let handler = state.bufferChangeHandler
    state.condition.broadcast()
    state.condition.unlock()
    stopped?.cancel()
    handler?()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let state = self.state
    state.condition.lock()
    let handler = state.bufferChangeHandler
    defer {
      state.condition.broadcast()
      state.condition.unlock()
      handler?()
    }
    guard state.taskIdentifier == task.taskIdentifier else { return }
    _ = state.detachTask()
    state.speed.responseEnded(at: HTTPTransferState.nowNanoseconds())
    if let pending = state.pendingRefusal, pending.taskIdentifier == task.taskIdentifier {
      state.phase = .failed(pending.error)
      return
    }
    let url = state.url
    if case .streaming = state.phase, let length = state.length, state.fetchOffset < length {
      // The body ended before the length the server announced: a close mid-body, which
      // URLSession reports with an unspecific error (or none at all).
      let code = error.map { ($0 as NSError).code }
      if code != NSURLErrorCancelled && code != NSURLErrorTimedOut {
        state.phase = .failed(
          PlayheadError(
            .connectionFailed,
            "connection to \(url.absoluteString) closed after \(state.fetchOffset) of \(length) bytes",
            url: url))
        return
      }
    }
    if let error {
      state.phase = .failed(HTTPResponseParsing.transportError(error, url: url))
      return
    }
    guard case .streaming = state.phase else {
      state.phase = .failed(
        PlayheadError(.connectionFailed, "no response from \(url.absoluteString)", url: url))
      return
    }
    if state.length == nil {
      // An open-ended request that ended cleanly ran to the end of the resource.
      state.length = state.fetchOffset
    }
    state.phase = .ended
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let state = self.state
    state.condition.lock()
    guard state.taskIdentifier == task.taskIdentifier else {
      state.condition.unlock()
      completionHandler(nil)
      return
    }
    state.redirectCount += 1
    guard
      let refusal = HTTPRedirects.refusal(
        from: state.url, response: response, to: request.url, count: state.redirectCount)
    else {
      state.lastProgressNanoseconds = HTTPTransferState.nowNanoseconds()
      state.condition.unlock()
      completionHandler(request)
      return
    }
    // The reader learns of the refusal only once URLSession has taken the answer: a
    // reader that failed at once would release the source, and cancelling the task while
    // URLSession waits for this answer traps on Linux. Until then the redirect response's
    // own callbacks record the refusal instead of its status.
    state.pendingRefusal = (task.taskIdentifier, refusal)
    state.condition.unlock()
    completionHandler(nil)
    state.condition.lock()
    if state.taskIdentifier == task.taskIdentifier { fail(refusal) }
    state.pendingRefusal = nil
    state.condition.broadcast()
    state.condition.unlock()
  }

  /// Records the response headers; returns false when the response is not wanted (a
  /// failing status, or a task that is no longer current).
  private func handleResponse(_ response: URLResponse, taskIdentifier: Int) -> Bool {
    let state = self.state
    state.condition.lock()
    defer {
      state.condition.broadcast()
      state.condition.unlock()
    }
    guard state.taskIdentifier == taskIdentifier else { return false }
    if let pending = state.pendingRefusal, pending.taskIdentifier == taskIdentifier {
      fail(pending.error)
      return false
    }
    state.lastProgressNanoseconds = HTTPTransferState.nowNanoseconds()
    guard let http = response as? HTTPURLResponse else {
      fail(
        PlayheadError(
          .connectionFailed, "not an HTTP response from \(state.url.absoluteString)",
          url: state.url))
      return false
    }
    let status = http.statusCode
    let contentRange = HTTPResponseParsing.header("Content-Range", in: http).flatMap {
      ContentRange($0)
    }
    switch status {
    case 206:
      guard let range = contentRange, let first = range.first else {
        fail(
          PlayheadError(
            .ioError, "HTTP 206 without a valid Content-Range from \(state.url.absoluteString)",
            url: state.url))
        return false
      }
      if first > state.requestOffset {
        fail(
          PlayheadError(
            .ioError,
            "server sent bytes from \(first) for a request from \(state.requestOffset) "
              + "(\(state.url.absoluteString))", url: state.url))
        return false
      }
      if let total = range.total, let known = state.length, total != known {
        fail(lengthChanged(from: known, to: total))
        return false
      }
      if let total = range.total { state.length = total }
      state.headersReceived = true
      state.fetchOffset = first
      state.phase = .streaming
      return true
    case 200..<300:
      // The whole resource from byte 0: a server that ignores Range sends this, and the
      // bytes before the wanted offset are discarded as they arrive.
      state.fetchOffset = 0
      let encoded = HTTPResponseParsing.header("Content-Encoding", in: http).map {
        $0.lowercased() != "identity"
      }
      if status == 200, encoded != true, http.expectedContentLength >= 0 {
        if let known = state.length, known != http.expectedContentLength {
          fail(lengthChanged(from: known, to: http.expectedContentLength))
          return false
        }
        state.length = http.expectedContentLength
      }
      state.headersReceived = true
      state.phase = .streaming
      return true
    case 416:
      if let total = contentRange?.total, let known = state.length, total < known {
        fail(lengthChanged(from: known, to: total))
        return false
      }
      if let total = contentRange?.total, state.requestOffset >= total {
        // A request at or past the end: the resource simply has no more bytes.
        state.length = total
        state.headersReceived = true
        _ = state.detachTask()
        state.phase = .ended
        return false
      }
      fail(HTTPResponseParsing.statusError(status, url: state.url))
      return false
    default:
      fail(HTTPResponseParsing.statusError(status, url: state.url))
      return false
    }
  }

  /// The error for a response that gives the resource another length than an earlier
  /// one did: a server whose `Content-Length` promised bytes it does not have, or a
  /// resource replaced while it was read. Not retried (a retry gets the same answer).
  private func lengthChanged(from known: Int64, to total: Int64) -> PlayheadError {
    PlayheadError(
      .ioError,
      "\(state.url.absoluteString) announced \(known) bytes, but a request for bytes from "
        + "\(state.requestOffset) found \(total): the server's length is wrong or the resource changed",
      url: state.url)
  }

  /// Records a failure of the current task; its cancellation callback is then ignored.
  /// The caller holds the lock.
  private func fail(_ error: PlayheadError) {
    _ = state.detachTask()
    state.phase = .failed(error)
  }
}
