import Foundation
import PlayheadCore

/// Random access over a `DataSource`: reads at any offset of one resource, for a demuxer
/// (FFmpeg's custom I/O) or a sniffer.
///
/// Sequential reads continue the open transfer. A read at another offset is a seek: a short
/// forward skip (up to `shortSeekBytes` past the position) reads through the open transfer;
/// anything else closes it and opens the source again from that offset (a range request).
/// The first `retainedHeadBytes` of the resource are kept once read, so that a demuxer that
/// returns to the start after probing (or a sniffer before it) sends no second request.
/// `length` is the resource's total length once an open has told it (or the reader reached
/// its end). After a failed read the next read opens the source again, so a caller may
/// retry. Reads come from one thread at a time; `cancel()` may come from any thread.
///
/// Example:
/// ```swift
/// let reader = DataSourceReader(source: stack.makeDataSource(), request: DataRequest(url: url))
/// try reader.open()
/// let count = try reader.read(into: buffer, at: 1_000)
/// ```
public final class DataSourceReader: Sendable {
  /// The source the bytes come from.
  public let source: any DataSource
  /// What is opened (its range is ignored: offsets are the resource's own).
  public let request: DataRequest
  private let state = Locked(State())

  /// A forward seek up to this many bytes past the position reads through the open
  /// transfer instead of opening a new one.
  public static let shortSeekBytes: Int64 = 64 * 1024
  /// How many of the resource's first bytes are kept once read.
  public static let retainedHeadBytes = 64 * 1024

  private struct State: Sendable {
    var isOpen = false
    /// The resource offset of the next byte the open transfer delivers.
    var position: Int64 = 0
    var length: Int64?
    var head: DataResponseHead?
    /// The resource's first bytes as read so far (at most `retainedHeadBytes`).
    var retained = Data()
    var cancelled = false
    var readsUnderWay = 0
    var bytesRead: Int64 = 0
  }

  /// A reader of `request`'s resource through `source`; nothing is sent until `open()` or
  /// the first read.
  public init(source: any DataSource, request: DataRequest) {
    self.source = source
    self.request = request
  }

  /// The resource's URL (as requested).
  public var url: URL { request.url }

  /// The resource's total length, once known.
  public var length: Int64? { state.withLock { $0.length } }

  /// The head of the first open, once there was one.
  public var head: DataResponseHead? { state.withLock { $0.head } }

  /// Bytes handed out by reads so far.
  public var bytesRead: Int64 { state.withLock { $0.bytesRead } }

  /// Whether a read is blocked in the source now.
  public var isReading: Bool { state.withLock { $0.readsUnderWay > 0 } }

  /// Opens the resource from its start, so that a missing resource or a refused connection
  /// fails here and `length` is known. Does nothing when a transfer is open.
  public func open() throws(PlayheadError) {
    if state.withLock({ $0.isOpen }) { return }
    try reopen(at: 0)
  }

  /// Reads up to `buffer.count` bytes at `offset`; returns 0 at the end of the resource.
  ///
  /// Throws `.invalidArgument` for a negative offset, `.cancelled` after `cancel()`, and
  /// the source's errors.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError) -> Int
  {
    guard offset >= 0 else {
      throw PlayheadError(.invalidArgument, "negative read offset \(offset)", url: url)
    }
    guard buffer.count > 0 else { return 0 }
    let snapshot = state.withLock { $0 }
    if snapshot.cancelled { throw PlayheadError.sourceCancelled(url) }
    if let length = snapshot.length, offset >= length { return 0 }
    if offset < Int64(snapshot.retained.count) {
      let start = Int(offset)
      let count = min(buffer.count, snapshot.retained.count - start)
      snapshot.retained.withUnsafeBytes { raw in
        buffer.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: count)
      }
      state.withLock { $0.bytesRead += Int64(count) }
      return count
    }
    let skip = offset - snapshot.position
    if !snapshot.isOpen || skip < 0 || skip > Self.shortSeekBytes {
      try reopen(at: offset)
    } else if skip > 0 {
      try discard(skip)
    }
    return try readOpen(into: buffer)
  }

  /// Makes a blocked read and every later one throw `.cancelled`, and cancels the source.
  /// Safe from any thread.
  public func cancel() {
    state.withLock { $0.cancelled = true }
    source.cancel()
  }

  /// Closes the open transfer (the next read opens one again).
  public func close() {
    state.withLock { $0.isOpen = false }
    source.close()
  }

  /// What the source holds ahead of the reader, when it says.
  public var bufferState: DataBufferState? { source.bufferState }

  /// Sets what to call when the source's held bytes grow (see `DataSource`).
  public func setBufferChangeHandler(_ handler: (@Sendable () -> Void)?) {
    source.setBufferChangeHandler(handler)
  }

  /// Whether a read just past the bytes handed out would wait for bytes that have not
  /// arrived: the source reads ahead (it reports a buffer), holds nothing ahead, and has
  /// not reached the end. A hint that never blocks; false for sources that do not say.
  public var nextReadMayWait: Bool {
    guard let buffer = source.bufferState else { return false }
    return !buffer.isLocal && buffer.bytesAhead == 0 && !buffer.reachesEnd
  }

  // MARK: Internals

  private func reopen(at offset: Int64) throws(PlayheadError) {
    source.close()
    state.withLock { $0.isOpen = false }
    var ranged = request
    ranged.range = offset > 0 ? ByteRange(offset: offset, length: nil) : nil
    let head = try source.open(ranged)
    state.withLock { state in
      state.isOpen = true
      state.position = offset
      if state.head == nil { state.head = head }
      if let total = head.totalLength {
        state.length = total
      } else if let length = head.length, ranged.range == nil {
        state.length = length
      }
    }
  }

  /// Reads and drops `count` bytes of the open transfer (a short forward seek).
  private func discard(_ count: Int64) throws(PlayheadError) {
    var left = Int(count)
    let scratch = UnsafeMutableRawBufferPointer.allocate(
      byteCount: min(left, 16 * 1024), alignment: 1)
    defer { scratch.deallocate() }
    while left > 0 {
      let piece = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<min(left, scratch.count)])
      let read = try readOpen(into: piece, counts: false)
      if read == 0 { return }
      left -= read
    }
  }

  /// Reads from the open transfer at its position.
  private func readOpen(into buffer: UnsafeMutableRawBufferPointer, counts: Bool = true)
    throws(PlayheadError) -> Int
  {
    state.withLock { $0.readsUnderWay += 1 }
    defer { state.withLock { $0.readsUnderWay -= 1 } }
    let count: Int
    do {
      count = try source.read(into: buffer)
    } catch {
      state.withLock { $0.isOpen = false }
      source.close()
      throw error
    }
    state.withLock { state in
      let start = state.position
      if count == 0 {
        if state.length == nil { state.length = start }
        return
      }
      if start == Int64(state.retained.count), state.retained.count < Self.retainedHeadBytes {
        let kept = min(count, Self.retainedHeadBytes - state.retained.count)
        state.retained.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: kept)
      }
      state.position = start + Int64(count)
      if counts { state.bytesRead += Int64(count) }
    }
    return count
  }
}
