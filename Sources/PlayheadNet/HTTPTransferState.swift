import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The state an `HTTPByteSource` shares between its readers and its URLSession delegate:
/// the current request, the bytes downloaded ahead of the reader, and what the server
/// said about the resource.
///
/// Every property is guarded by `condition`; callers hold its lock while they touch them.
/// The delegate signals `condition` whenever anything changes, and readers wait on it.
final class HTTPTransferState: @unchecked Sendable {
  // Unchecked Sendable: every `var` is guarded by `condition`, as described above.
  /// Where the current response stands.
  enum Phase {
    /// No request in flight: the next read that needs bytes starts one.
    case idle
    /// A request was sent; no response headers yet.
    case awaitingResponse
    /// Body bytes are arriving.
    case streaming
    /// The response ended cleanly at `fetchOffset`.
    case ended
    /// The request failed; the error is thrown to the next reader that needs bytes.
    case failed(PlayheadError)
  }

  let condition = NSCondition()
  let url: URL
  let maxBufferAheadBytes: Int

  var cancelled = false
  /// The resource's total length once a response has told it.
  var length: Int64?
  /// True once a successful response's headers arrived (used by `prefetchHeaders`).
  var headersReceived = false
  var phase: Phase = .idle
  /// The task whose callbacks count; callbacks from any other task are ignored.
  var task: URLSessionDataTask?
  var taskIdentifier: Int?
  /// The offset the current request asked for.
  var requestOffset: Int64 = 0
  /// The offset of the next body byte the current response will deliver.
  var fetchOffset: Int64 = 0
  /// Monotonic time of the last response or body bytes from the current request.
  var lastProgressNanoseconds: UInt64 = 0
  /// How many redirects the current request has followed.
  var redirectCount = 0
  /// A redirect refused while URLSession takes the refusal: the task's later callbacks
  /// record this error.
  var pendingRefusal: (taskIdentifier: Int, error: PlayheadError)?
  /// The transfer-speed sampler (SPEC S9): body bytes received and when.
  var speed = TransferSpeedSampler()
  /// Called (without the lock held) when body bytes arrive or a response stops.
  var bufferChangeHandler: (@Sendable () -> Void)?

  /// Bytes downloaded ahead of the reader: `storage[head...]` holds the bytes that start
  /// at file offset `bufferStart`.
  private(set) var storage: [UInt8] = []
  private(set) var head = 0
  /// The file offset of the first unconsumed buffered byte, which is also where the
  /// reader is; incoming bytes below it are discarded.
  var bufferStart: Int64 = 0

  init(url: URL, maxBufferAheadBytes: Int) {
    self.url = url
    self.maxBufferAheadBytes = maxBufferAheadBytes
  }

  /// The number of buffered bytes the reader has not consumed.
  var buffered: Int { storage.count - head }

  /// The file offset just past the last buffered byte.
  var bufferEnd: Int64 { bufferStart + Int64(buffered) }

  /// True while a request is in flight.
  var isActive: Bool {
    switch phase {
    case .awaitingResponse, .streaming: return true
    case .idle, .ended, .failed: return false
    }
  }

  // MARK: Buffer

  /// Copies up to `destination.count` buffered bytes out and consumes them.
  func consume(into destination: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(destination.count, buffered)
    guard count > 0, let base = destination.baseAddress else { return 0 }
    storage.withUnsafeBytes { raw in
      if let source = raw.baseAddress {
        base.copyMemory(from: source + head, byteCount: count)
      }
    }
    drop(count)
    return count
  }

  /// Consumes `count` buffered bytes without copying them.
  func drop(_ count: Int) {
    let amount = min(count, buffered)
    head += amount
    bufferStart += Int64(amount)
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    }
  }

  /// Forgets the buffered bytes and moves the reader to `offset`.
  func resetBuffer(at offset: Int64) {
    storage.removeAll(keepingCapacity: false)
    head = 0
    bufferStart = offset
  }

  /// Appends the bytes of a response chunk that starts at `fetchOffset`, discarding the
  /// part below `bufferEnd` (bytes the reader skipped or already has).
  func append(_ data: Data) {
    let chunkStart = fetchOffset
    fetchOffset += Int64(data.count)
    let wanted = bufferEnd
    guard fetchOffset > wanted else { return }
    let skip = Int(max(0, wanted - chunkStart))
    if head > 0 && head >= storage.count / 2 {
      storage.removeFirst(head)
      head = 0
    }
    data.withUnsafeBytes { raw in
      storage.append(contentsOf: raw[skip...])
    }
  }

  // MARK: Requests

  /// Forgets the current task (its later callbacks are ignored) and returns it so that the
  /// caller can cancel it.
  func detachTask() -> URLSessionDataTask? {
    let detached = task
    task = nil
    taskIdentifier = nil
    return detached
  }

  static func nowNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
  }
}
