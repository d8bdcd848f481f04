import Foundation
import PlayheadCore

/// A byte source that serves its first bytes, already read while sniffing, from memory
/// and everything after them from the source they came from.
///
/// Reading on from the end of the head continues the source where sniffing left it (for
/// HTTP, the same response), so sniffing costs no second request.
final class HeadReplayingByteSource: ByteSource, DownloadSpeedReporting, ByteBufferReporting,
  Sendable
{
  private let head: Data
  private let source: any ByteSource

  init(head: Data, source: any ByteSource) {
    self.head = head
    self.source = source
  }

  var url: URL { source.url }

  var length: Int64? { source.length }

  /// The source's download speed, when it measures one.
  var downloadSpeedBitsPerSecond: Double? {
    (source as? any DownloadSpeedReporting)?.downloadSpeedBitsPerSecond
  }

  /// The source's buffer (the head is part of what it read).
  var bufferState: ByteBufferState {
    (source as? any ByteBufferReporting)?.bufferState ?? ByteBufferState()
  }

  func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    (source as? any ByteBufferReporting)?.setBufferChangeHandler(handler)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int
  {
    guard offset >= 0, offset < Int64(head.count), buffer.count > 0 else {
      return try source.read(into: buffer, at: offset)
    }
    let start = Int(offset)
    let count = min(buffer.count, head.count - start)
    head.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: count)
    }
    return count
  }

  func cancel() {
    source.cancel()
  }
}
