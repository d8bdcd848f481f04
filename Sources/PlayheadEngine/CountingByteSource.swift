import Foundation
import PlayheadCore
import PlayheadNet

/// Wraps a byte source and counts the bytes read through it (for statistics and logs).
final class CountingByteSource: ByteSource, DownloadSpeedReporting, ByteBufferReporting,
  @unchecked Sendable
{
  private let base: any ByteSource
  private let lock = NSLock()
  private var total: Int64 = 0
  private var readsUnderWay = 0

  init(_ base: any ByteSource) { self.base = base }

  var url: URL { base.url }
  /// The wrapped source's download speed, when it measures one.
  var downloadSpeedBitsPerSecond: Double? {
    (base as? any DownloadSpeedReporting)?.downloadSpeedBitsPerSecond
  }
  var length: Int64? { base.length }

  /// The wrapped source's buffer; nil when it does not report one.
  var reportedBufferState: ByteBufferState? {
    (base as? any ByteBufferReporting)?.bufferState
  }

  var bufferState: ByteBufferState { reportedBufferState ?? ByteBufferState() }

  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    (base as? any ByteBufferReporting)?.setBufferChangeHandler(handler)
  }

  /// Bytes read so far.
  var bytesRead: Int64 {
    lock.lock()
    defer { lock.unlock() }
    return total
  }

  /// Whether a read is under way (blocked in the base source).
  var isReading: Bool {
    lock.lock()
    defer { lock.unlock() }
    return readsUnderWay > 0
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int
  {
    lock.lock()
    readsUnderWay += 1
    lock.unlock()
    defer {
      lock.lock()
      readsUnderWay -= 1
      lock.unlock()
    }
    let count = try base.read(into: buffer, at: offset)
    lock.lock()
    total += Int64(count)
    lock.unlock()
    return count
  }

  func cancel() { base.cancel() }
}
