import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Receives the URLSession callbacks of an `HTTPClient` and records them in the transfer
/// that owns each task.
///
/// The session keeps its delegate alive until it is invalidated, so the delegate holds the
/// transfers of running tasks, never the client or a source. A task's entry goes when the
/// task completes; callbacks of a task its transfer has let go of (a seek, a stop at the
/// read-ahead limit) are ignored. Redirects follow `HTTPRedirects`: one to a scheme other
/// than http(s) is refused, and more than `HTTPRedirects.limit` in a row fail with
/// `.tooManyRedirects`.
final class HTTPClientDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = Locked([Int: HTTPTransfer]())

  func register(_ transfer: HTTPTransfer, taskIdentifier: Int) {
    transfers.withLock { $0[taskIdentifier] = transfer }
  }

  /// The transfer of `task` while the task is its current one (its lock is then held).
  private func lockedTransfer(of task: URLSessionTask) -> HTTPTransfer? {
    let identifier = task.taskIdentifier
    guard let transfer = transfers.withLock({ $0[identifier] }) else { return nil }
    transfer.condition.lock()
    guard transfer.taskIdentifier == identifier else {
      transfer.condition.unlock()
      return nil
    }
    return transfer
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let transfer = lockedTransfer(of: dataTask) else {
      completionHandler(.cancel)
      return
    }
    let allow = HTTPResponseAcceptance.accept(
      response, taskIdentifier: dataTask.taskIdentifier, for: transfer)
    transfer.condition.broadcast()
    transfer.condition.unlock()
    completionHandler(allow ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let transfer = lockedTransfer(of: dataTask) else { return }
    let now = HTTPTransfer.nowNanoseconds()
    transfer.lastProgressNanoseconds = now
    transfer.speed.received(data.count, at: now)
    let complete = transfer.append(data)
    var stopped: URLSessionDataTask?
    if complete {
      // Every wanted byte is here (a server that ignored the range keeps sending).
      stopped = transfer.detachTask()
      transfer.speed.responseEnded(at: now)
      transfer.phase = .ended
    } else if transfer.buffered >= transfer.maxBufferAheadBytes && !transfer.isErrorResponse {
      // URLSession cannot pause a response, so a full buffer stops it; the reader starts
      // a new range request at `bufferEnd` once it has consumed half of the buffer.
      stopped = transfer.detachTask()
      transfer.speed.responseEnded(at: now)
      transfer.phase = .idle
    }
    let handler = transfer.bufferChangeHandler
    transfer.condition.broadcast()
    transfer.condition.unlock()
    stopped?.cancel()
    handler?()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let identifier = task.taskIdentifier
    defer { _ = transfers.withLock { $0.removeValue(forKey: identifier) } }
    guard let transfer = lockedTransfer(of: task) else { return }
    let handler = transfer.bufferChangeHandler
    defer {
      transfer.condition.broadcast()
      transfer.condition.unlock()
      handler?()
    }
    _ = transfer.detachTask()
    transfer.speed.responseEnded(at: HTTPTransfer.nowNanoseconds())
    if let pending = transfer.pendingRefusal, pending.taskIdentifier == identifier {
      transfer.phase = .failed(pending.error)
      return
    }
    let url = transfer.url
    if case .streaming = transfer.phase, let end = transfer.openEnd, transfer.fetchOffset < end {
      // The body ended before the length the server announced: a close mid-body, which
      // URLSession reports with an unspecific error (or none at all).
      let code = error.map { ($0 as NSError).code }
      if code != NSURLErrorCancelled && code != NSURLErrorTimedOut {
        transfer.phase = .failed(
          PlayheadError(
            .connectionFailed,
            "connection to \(url.absoluteString) closed after \(transfer.fetchOffset) of \(end) bytes",
            url: url))
        return
      }
    }
    if let error {
      transfer.phase = .failed(PlayheadError.transport(error, url: url))
      return
    }
    guard case .streaming = transfer.phase else {
      transfer.phase = .failed(
        PlayheadError(.connectionFailed, "no response from \(url.absoluteString)", url: url))
      return
    }
    if transfer.totalLength == nil && transfer.rangeEnd == nil {
      // An open-ended request that ended cleanly ran to the end of the resource.
      transfer.totalLength = transfer.fetchOffset
    }
    transfer.phase = .ended
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let transfer = lockedTransfer(of: task) else {
      completionHandler(nil)
      return
    }
    transfer.redirectCount += 1
    guard
      let refusal = HTTPRedirects.refusal(
        from: transfer.url, response: response, to: request.url, count: transfer.redirectCount)
    else {
      transfer.lastProgressNanoseconds = HTTPTransfer.nowNanoseconds()
      transfer.condition.unlock()
      completionHandler(request)
      return
    }
    // The reader learns of the refusal only once URLSession has taken the answer: a
    // reader that failed at once could cancel the task, which traps on Linux while
    // URLSession waits for this answer. Until then the redirect response's own callbacks
    // record the refusal instead of its status.
    let identifier = task.taskIdentifier
    transfer.pendingRefusal = (identifier, refusal)
    transfer.condition.unlock()
    completionHandler(nil)
    transfer.condition.lock()
    if transfer.taskIdentifier == identifier {
      _ = transfer.detachTask()
      transfer.phase = .failed(refusal)
    }
    transfer.pendingRefusal = nil
    transfer.condition.broadcast()
    transfer.condition.unlock()
  }
}
