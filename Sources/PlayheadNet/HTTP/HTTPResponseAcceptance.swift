import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Checks a response's status line and headers against the request an `HTTPTransfer` sent,
/// and records what they say about the resource.
enum HTTPResponseAcceptance {
  /// Records the response headers; returns false (after recording the failure or the end)
  /// when the body is not wanted. The caller holds the transfer's lock.
  static func accept(
    _ response: URLResponse, taskIdentifier: Int, for transfer: HTTPTransfer
  ) -> Bool {
    if let pending = transfer.pendingRefusal, pending.taskIdentifier == taskIdentifier {
      fail(transfer, pending.error)
      return false
    }
    transfer.lastProgressNanoseconds = HTTPTransfer.nowNanoseconds()
    let url = transfer.url
    guard let http = response as? HTTPURLResponse else {
      fail(
        transfer,
        PlayheadError(
          .connectionFailed, "not an HTTP response from \(url.absoluteString)", url: url))
      return false
    }
    let status = http.statusCode
    let contentRange = HTTPResponseParsing.header("Content-Range", in: http).flatMap {
      ContentRange($0)
    }
    let isFirst = transfer.head == nil
    switch status {
    case 206:
      guard let range = contentRange, let first = range.first, let last = range.last else {
        fail(
          transfer,
          PlayheadError(
            .ioError, "HTTP 206 without a valid Content-Range from \(url.absoluteString)",
            url: url))
        return false
      }
      if first > transfer.requestOffset {
        fail(
          transfer,
          PlayheadError(
            .ioError,
            "server sent bytes from \(first) for a request from \(transfer.requestOffset) "
              + "(\(url.absoluteString))", url: url))
        return false
      }
      if let total = range.total, let known = transfer.totalLength, total != known {
        fail(transfer, lengthChanged(transfer, from: known, to: total))
        return false
      }
      if let total = range.total {
        transfer.totalLength = total
      } else if transfer.rangeEnd == nil, last + 1 > first {
        // `bytes a-b/*`: the resource's end is not told; this answer ends at `b`.
        transfer.rangeEnd = last + 1
      }
      transfer.fetchOffset = first
    case 200..<300:
      // The whole resource from byte 0: a server that ignores Range sends this, and the
      // bytes before the wanted offset are discarded as they arrive.
      transfer.fetchOffset = 0
      if status == 200, let length = contentLength(http) {
        if let known = transfer.totalLength, known != length {
          fail(transfer, lengthChanged(transfer, from: known, to: length))
          return false
        }
        transfer.totalLength = length
      }
      if isFirst, transfer.rangeStart > 0, let total = transfer.totalLength,
        transfer.rangeStart >= total
      {
        fail(transfer, pastTheEnd(transfer, total: total))
        return false
      }
    case 416:
      if let total = contentRange?.total, let known = transfer.totalLength, total < known {
        fail(transfer, lengthChanged(transfer, from: known, to: total))
        return false
      }
      if let total = contentRange?.total, transfer.requestOffset >= total,
        !isFirst || total == 0
      {
        // A continuation at the end (or an empty resource): there are simply no more bytes.
        transfer.totalLength = total
        transfer.fetchOffset = transfer.requestOffset
        recordHead(http, of: transfer)
        _ = transfer.detachTask()
        transfer.phase = .ended
        return false
      }
      if isFirst, let total = contentRange?.total {
        fail(transfer, pastTheEnd(transfer, total: total))
        return false
      }
      fail(transfer, HTTPResponseParsing.statusError(status, url: url))
      return false
    default:
      guard isFirst, transfer.request.deliversErrorResponses else {
        fail(transfer, HTTPResponseParsing.statusError(status, url: url))
        return false
      }
      // An error response the caller wants to read: the whole body, whatever the range.
      transfer.isErrorResponse = true
      transfer.fetchOffset = 0
      transfer.rangeStart = 0
      transfer.rangeEnd = nil
      transfer.resetBuffer(at: 0)
      transfer.totalLength = contentLength(http)
    }
    if isFirst { recordHead(http, of: transfer) }
    transfer.phase = .streaming
    if let end = transfer.openEnd, transfer.bufferEnd >= end {
      _ = transfer.detachTask()
      transfer.phase = .ended
      return false
    }
    return true
  }

  /// The body's length from `Content-Length`, unless a content encoding makes it another
  /// thing than the body's.
  private static func contentLength(_ http: HTTPURLResponse) -> Int64? {
    let encoded =
      HTTPResponseParsing.header("Content-Encoding", in: http).map {
        $0.lowercased() != "identity"
      } ?? false
    return !encoded && http.expectedContentLength >= 0 ? http.expectedContentLength : nil
  }

  /// Keeps the first response's head for `open` to return.
  private static func recordHead(_ http: HTTPURLResponse, of transfer: HTTPTransfer) {
    var headers: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
      if let key = key as? String, let value = value as? String { headers[key] = value }
    }
    transfer.head = DataResponseHead(
      url: http.url ?? transfer.url, statusCode: http.statusCode, headers: headers)
  }

  /// The error for a request whose range starts at or past the end of the resource.
  private static func pastTheEnd(_ transfer: HTTPTransfer, total: Int64) -> PlayheadError {
    PlayheadError(
      .httpStatus,
      "byte range \(transfer.request.range?.description ?? "\(transfer.rangeStart)-") is past "
        + "the end of the \(total)-byte resource \(transfer.url.absoluteString)",
      url: transfer.url, httpStatusCode: 416)
  }

  /// The error for a response that gives the resource another length than an earlier
  /// one did: a server whose `Content-Length` promised bytes it does not have, or a
  /// resource replaced while it was read. Not retried (a retry gets the same answer).
  private static func lengthChanged(_ transfer: HTTPTransfer, from known: Int64, to total: Int64)
    -> PlayheadError
  {
    PlayheadError(
      .ioError,
      "\(transfer.url.absoluteString) announced \(known) bytes, but a request for bytes from "
        + "\(transfer.requestOffset) found \(total): the server's length is wrong or the resource changed",
      url: transfer.url)
  }

  /// Records a failure of the current task; its cancellation callback is then ignored.
  private static func fail(_ transfer: HTTPTransfer, _ error: PlayheadError) {
    _ = transfer.detachTask()
    transfer.phase = .failed(error)
  }
}
