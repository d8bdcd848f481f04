import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Receives an `HTTPDataSource`'s URLSession callbacks and records them in the load that
/// owns each task.
///
/// The session keeps its delegate alive until it is invalidated, so the delegate holds the
/// loads, never the source. Callbacks for a task that is no longer registered are ignored.
/// Redirects follow `HTTPRedirects`: one to a scheme other than http(s) is refused, and
/// more than `HTTPRedirects.limit` in a row fail with `.tooManyRedirects`.
final class HTTPLoadDelegate: NSObject, URLSessionDataDelegate, Sendable {
  // The one mutable field is in a `Locked`; each load guards its own fields.
  private let loads = Locked([Int: HTTPLoad]())

  func register(_ load: HTTPLoad, taskIdentifier: Int) {
    loads.withLock { $0[taskIdentifier] = load }
  }

  func unregister(taskIdentifier: Int) {
    loads.withLock { $0[taskIdentifier] = nil }
  }

  private func load(for task: URLSessionTask) -> HTTPLoad? {
    let identifier = task.taskIdentifier
    return loads.withLock { $0[identifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let load = load(for: dataTask) else {
      completionHandler(.cancel)
      return
    }
    load.condition.lock()
    let allow = Self.accept(response, for: load)
    load.condition.broadcast()
    load.condition.unlock()
    completionHandler(allow ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let load = load(for: dataTask) else { return }
    load.condition.lock()
    guard load.outcome == nil else {
      load.condition.unlock()
      return
    }
    load.lastActivityNanoseconds = HTTPTransferState.nowNanoseconds()
    var chunk = data[...]
    if load.skipBytes > 0 {
      let skipped = min(load.skipBytes, chunk.count)
      load.skipBytes -= skipped
      chunk = chunk.dropFirst(skipped)
    }
    var complete = false
    if let limit = load.limitBytes, load.data.count + chunk.count >= limit {
      chunk = chunk.prefix(limit - load.data.count)
      complete = true
    }
    load.data.append(contentsOf: chunk)
    var toCancel: URLSessionDataTask?
    if complete {
      load.finish(.finished)
      toCancel = load.taskToCancel(endedByItself: load.taskEnded)
    }
    load.condition.broadcast()
    load.condition.unlock()
    // A server that ignored the range keeps sending; the wanted bytes are all here.
    toCancel?.cancel()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let load = load(for: task) else { return }
    load.condition.lock()
    defer { load.condition.unlock() }
    load.taskEnded = true
    guard load.outcome == nil else { return }
    if let refusal = load.pendingRefusal {
      load.finish(.failed(refusal))
      return
    }
    let url = load.request.url
    if let expected = load.expectedBytes, load.sawResponse, load.data.count < expected {
      load.finish(.failed(load.truncatedError(expected: expected)))
    } else if let error {
      load.finish(.failed(HTTPResponseParsing.transportError(error, url: url)))
    } else if !load.sawResponse {
      load.finish(
        .failed(
          PlayheadError(.connectionFailed, "no response from \(url.absoluteString)", url: url))
      )
    } else {
      load.finish(.finished)
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let load = load(for: task) else {
      completionHandler(nil)
      return
    }
    load.condition.lock()
    guard load.outcome == nil else {
      load.condition.unlock()
      completionHandler(nil)
      return
    }
    load.redirectCount += 1
    guard
      let refusal = HTTPRedirects.refusal(
        from: load.request.url, response: response, to: request.url, count: load.redirectCount)
    else {
      load.lastActivityNanoseconds = HTTPTransferState.nowNanoseconds()
      load.condition.unlock()
      completionHandler(request)
      return
    }
    // The loading thread learns of the refusal only once URLSession has taken the answer
    // (it would cancel the task, which traps on Linux while URLSession waits for it);
    // meanwhile the redirect response's own callbacks record the refusal.
    load.pendingRefusal = refusal
    load.condition.unlock()
    completionHandler(nil)
    load.condition.lock()
    load.finish(.failed(refusal))
    load.condition.unlock()
  }

  /// Whether the body comes with a content encoding (its length is then not the body's).
  private static func isEncoded(_ http: HTTPURLResponse) -> Bool {
    HTTPResponseParsing.header("Content-Encoding", in: http).map {
      $0.lowercased() != "identity"
    } ?? false
  }

  /// Checks the response headers against the request; returns false (after recording the
  /// failure) when the body is not wanted. The caller holds the load's lock.
  private static func accept(_ response: URLResponse, for load: HTTPLoad) -> Bool {
    guard load.outcome == nil else { return false }
    if let refusal = load.pendingRefusal {
      load.finish(.failed(refusal))
      return false
    }
    load.lastActivityNanoseconds = HTTPTransferState.nowNanoseconds()
    let url = load.request.url
    guard let http = response as? HTTPURLResponse else {
      load.finish(
        .failed(
          PlayheadError(
            .connectionFailed, "not an HTTP response from \(url.absoluteString)", url: url)))
      return false
    }
    let status = http.statusCode
    load.statusCode = status
    load.responseURL = http.url
    let isSuccess = (200..<300).contains(status)
    guard isSuccess || load.request.deliversErrorResponses else {
      load.finish(.failed(HTTPResponseParsing.statusError(status, url: url)))
      return false
    }
    if !isSuccess {
      // An error response the caller wants to read: the whole body, whatever the range.
      load.expectedBytes =
        !Self.isEncoded(http) && http.expectedContentLength >= 0
        ? Int(http.expectedContentLength) : nil
      load.sawResponse = true
      if load.expectedBytes == 0 {
        load.finish(.finished)
        return false
      }
      return true
    }
    let encoded = Self.isEncoded(http)
    let contentLength =
      !encoded && http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil
    let range = load.request.range
    let offset = Int(range?.offset ?? 0)
    let wantedLength = range?.length.map { Int($0) }
    if status == 206 {
      let contentRange = HTTPResponseParsing.header("Content-Range", in: http).flatMap {
        ContentRange($0)
      }
      guard let contentRange, let first = contentRange.first, let last = contentRange.last else {
        load.finish(
          .failed(
            PlayheadError(
              .ioError, "HTTP 206 without a valid Content-Range from \(url.absoluteString)",
              url: url)))
        return false
      }
      guard first == Int64(offset) else {
        load.finish(
          .failed(
            PlayheadError(
              .ioError,
              "server sent bytes from \(first) for a request from \(offset) "
                + "(\(url.absoluteString))", url: url)))
        return false
      }
      load.totalLength = contentRange.total
      let sent = contentLength ?? Int(last - first + 1)
      load.expectedBytes = wantedLength.map { min($0, sent) } ?? sent
      load.limitBytes = wantedLength
    } else {
      // The whole resource: either no range was asked, or the server ignored it and the
      // bytes before the range are dropped as they arrive.
      if offset > 0, let contentLength, offset >= contentLength {
        load.finish(
          .failed(
            PlayheadError(
              .httpStatus,
              "byte range \(range?.description ?? "") is past the end of the "
                + "\(contentLength)-byte resource \(url.absoluteString)", url: url,
              httpStatusCode: 416)))
        return false
      }
      load.skipBytes = offset
      load.limitBytes = wantedLength
      load.totalLength = contentLength.map { Int64($0) }
      if let contentLength {
        let available = contentLength - offset
        load.expectedBytes = wantedLength.map { min($0, available) } ?? available
      }
    }
    load.sawResponse = true
    if load.limitBytes == 0 || load.expectedBytes == 0 {
      load.finish(.finished)
      return false
    }
    return true
  }
}
