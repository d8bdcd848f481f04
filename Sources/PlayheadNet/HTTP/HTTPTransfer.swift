import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The state an `HTTPDataSource` shares between its reader and the URLSession delegate: the
/// open request, the bytes downloaded ahead of the reader, and what the server said.
///
/// Every property is guarded by `condition`; callers hold its lock while they touch them.
/// The delegate signals `condition` whenever anything changes, and the reader waits on it.
final class HTTPTransfer: @unchecked Sendable {
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
  let maxBufferAheadBytes: Int

  var cancelled = false
  /// Whether a request is open (between `open` and `close`).
  var isOpen = false
  /// The open request.
  var request = DataRequest(url: URL(string: "about:blank")!)
  /// Where the open range starts and ends (exclusive; nil: at the resource's end).
  var rangeStart: Int64 = 0
  var rangeEnd: Int64?
  /// The resource's total length once a response has told it.
  var totalLength: Int64?
  /// Set while the body is an error response the caller asked for: delivered whole, never
  /// continued with a range request.
  var isErrorResponse = false
  /// The first response's head, once its headers arrived.
  var head: DataResponseHead?
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
  /// at resource offset `bufferStart`.
  private(set) var storage: [UInt8] = []
  private(set) var storageHead = 0
  /// The resource offset of the first unconsumed buffered byte, which is also where the
  /// reader is; incoming bytes below it are discarded.
  var bufferStart: Int64 = 0

  init(maxBufferAheadBytes: Int) {
    self.maxBufferAheadBytes = maxBufferAheadBytes
  }

  var url: URL { request.url }

  /// The number of buffered bytes the reader has not consumed.
  var buffered: Int { storage.count - storageHead }

  /// The resource offset just past the last buffered byte.
  var bufferEnd: Int64 { bufferStart + Int64(buffered) }

  /// Where the open ends: the range's end, cut at the resource's end; nil while unknown.
  var openEnd: Int64? {
    if isErrorResponse { return totalLength }
    switch (rangeEnd, totalLength) {
    case (let end?, let total?): return min(end, total)
    case (let end?, nil): return end
    case (nil, let total?): return total
    case (nil, nil): return nil
    }
  }

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
        base.copyMemory(from: source + storageHead, byteCount: count)
      }
    }
    drop(count)
    return count
  }

  /// Consumes `count` buffered bytes without copying them.
  func drop(_ count: Int) {
    let amount = min(count, buffered)
    storageHead += amount
    bufferStart += Int64(amount)
    if storageHead == storage.count {
      storage.removeAll(keepingCapacity: true)
      storageHead = 0
    }
  }

  /// Forgets the buffered bytes and moves the reader to `offset`.
  func resetBuffer(at offset: Int64) {
    storage.removeAll(keepingCapacity: false)
    storageHead = 0
    bufferStart = offset
  }

  /// Appends the bytes of a response chunk that starts at `fetchOffset`, discarding the
  /// part below `bufferEnd` (bytes the reader skipped or already has) and past the open's
  /// end; returns true once every byte of the open is here.
  func append(_ data: Data) -> Bool {
    let chunkStart = fetchOffset
    fetchOffset += Int64(data.count)
    let wanted = bufferEnd
    let end = openEnd
    if fetchOffset > wanted {
      let skip = Int(max(0, wanted - chunkStart))
      let keepEnd = end.map { Int(min(Int64(data.count), max(0, $0 - chunkStart))) } ?? data.count
      if skip < keepEnd {
        if storageHead > 0 && storageHead >= storage.count / 2 {
          storage.removeFirst(storageHead)
          storageHead = 0
        }
        data.withUnsafeBytes { raw in
          storage.append(contentsOf: raw[skip..<keepEnd])
        }
      }
    }
    return end.map { fetchOffset >= $0 } ?? false
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
