import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The state of one `HTTPDataSource` load, shared between the loading thread and the
/// URLSession delegate.
///
/// Every property is guarded by `condition`; the delegate broadcasts it whenever anything
/// changes and the loading thread waits on it.
final class HTTPLoad: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`, as described above.
  /// How a load ended.
  enum Outcome {
    case finished
    case failed(PlayheadError)
  }

  let condition = NSCondition()
  let request: DataRequest
  /// The task's URLSession, used to cancel it; set before the task starts.
  var task: URLSessionDataTask?
  /// The body bytes received so far (after any bytes skipped for a range).
  var data = Data()
  var statusCode: Int?
  /// The URL that answered, after redirects.
  var responseURL: URL?
  /// How many body bytes the response should deliver, when known.
  var expectedBytes: Int?
  /// The whole resource's length, from `Content-Range` or a whole answer's
  /// `Content-Length`, when known.
  var totalLength: Int64?
  /// Leading body bytes to drop: a server that ignores `Range` sends the whole resource.
  var skipBytes = 0
  /// The most bytes to keep; the load finishes once it has them.
  var limitBytes: Int?
  /// Set once; the loading thread returns or throws it.
  var outcome: Outcome?
  /// True once response headers with a success status arrived.
  var sawResponse = false
  /// Monotonic time of the request or its last response headers or body bytes.
  var lastActivityNanoseconds: UInt64
  /// Set once the task has been cancelled, so that it is cancelled at most once.
  var taskCancelled = false
  /// Set when URLSession reported the task complete.
  var taskEnded = false
  /// How many redirects the request has followed.
  var redirectCount = 0
  /// A redirect refused while URLSession takes the refusal; the task's later callbacks
  /// record it.
  var pendingRefusal: PlayheadError?

  init(request: DataRequest) {
    self.request = request
    lastActivityNanoseconds = HTTPTransferState.nowNanoseconds()
  }

  /// The task to cancel now, or nil when it was cancelled already or has ended by
  /// itself; the caller holds the lock and cancels the task after releasing it.
  ///
  /// Cancelling a task twice, or one that is completing, races with URLSession's own
  /// bookkeeping on Linux (a trap in `URLSession.behaviour(for:)`).
  func taskToCancel(endedByItself: Bool) -> URLSessionDataTask? {
    guard !taskCancelled, !endedByItself else { return nil }
    taskCancelled = true
    return task
  }

  /// Records `outcome` unless one is already set; the caller holds the lock.
  func finish(_ outcome: Outcome) {
    if self.outcome == nil { self.outcome = outcome }
    condition.broadcast()
  }

  /// The error for a body that ended before the promised length; the caller holds the lock.
  func truncatedError(expected: Int) -> PlayheadError {
    PlayheadError(
      .connectionFailed,
      "connection to \(request.url.absoluteString) closed after \(data.count) of \(expected) bytes",
      url: request.url)
  }
}
