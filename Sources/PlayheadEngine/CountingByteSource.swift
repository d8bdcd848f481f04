import Foundation
import PlayheadCore
import PlayheadNet

/// Wraps a byte source and counts the bytes read through it (for statistics and logs).
final class CountingByteSource: ByteSource, DownloadSpeedReporting, ByteBufferReporting,
  Sendable
{
  private let base: any ByteSource
  private let counts = Locked(Counts())

  /// Bytes read so far, and how many reads are blocked in the base source now.
  private struct Counts: Sendable {
    var total: Int64 = 0
    var readsUnderWay = 0
  }

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

  /// The base source's hint; for a source that reports its buffer, also true when nothing
  /// is buffered ahead of the reader and the end is not held (a download behind the reader).
  var nextReadMayWait: Bool {
    if base.nextReadMayWait { return true }
    guard let state = reportedBufferState else { return false }
    return !state.isLocal && state.bytesAhead == 0 && !state.reachesEnd
  }

  /// Bytes read so far.
  var bytesRead: Int64 { counts.value.total }

  /// Whether a read is under way (blocked in the base source).
  var isReading: Bool { counts.value.readsUnderWay > 0 }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int
  {
    counts.withLock { $0.readsUnderWay += 1 }
    defer { counts.withLock { $0.readsUnderWay -= 1 } }
    let count = try base.read(into: buffer, at: offset)
    counts.withLock { $0.total += Int64(count) }
    return count
  }

  func cancel() { base.cancel() }
}
