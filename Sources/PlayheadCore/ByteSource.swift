import Foundation

/// Random-access bytes that the demuxer reads from: a file, an HTTP resource, or
/// memory.
///
/// This is the seed of the streaming engine's `DataSource`. Implementations are
/// thread-safe: `cancel()` may be called from any thread while a `read` blocks, and
/// makes that read (and every later one) throw `PlayheadError.Code.cancelled` promptly.
public protocol ByteSource: AnyObject, Sendable {
  /// Where the bytes come from.
  var url: URL { get }

  /// Total length in bytes, when the source knows it (nil for unknown or unbounded).
  var length: Int64? { get }

  /// Whether a demuxer may treat the bytes as one random-access resource and jump
  /// anywhere in it (true by default).
  ///
  /// A source whose bytes arrive in order while they are read (the segments of an HLS
  /// run) says false: demuxers then read it front to back, as they read a pipe. The MP4
  /// demuxer, for one, would otherwise visit every fragment of a seekable input before
  /// giving its first packet. Reads at any offset stay allowed either way.
  var isSeekable: Bool { get }

  /// Reads up to `buffer.count` bytes starting at byte `offset`.
  ///
  /// Returns the number of bytes read; 0 means the end of the source. Blocks until at
  /// least one byte is available, the end is reached, the timeout passes, or the source
  /// is cancelled.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(PlayheadError)
    -> Int

  /// Whether a read just past the bytes handed out so far would now wait for bytes that
  /// have not arrived (the next segment of an HLS run not downloaded yet).
  ///
  /// A hint, read without blocking, that lets a reader do other work first; false by
  /// default (files and memory never wait). It may turn false at any moment, and a source
  /// that says false may still wait (a network read in progress).
  var nextReadMayWait: Bool { get }

  /// Makes blocking and future reads fail with `.cancelled`. Safe from any thread.
  func cancel()
}

extension ByteSource {
  public var isSeekable: Bool { true }
  public var nextReadMayWait: Bool { false }
}

/// A byte source over bytes already in memory.
public final class MemoryByteSource: ByteSource, Sendable {
  public let url: URL
  private let bytes: Data
  private let cancelled = Locked(false)

  /// Creates a source over `bytes`; `url` names it in errors and logs.
  public init(bytes: Data, url: URL = URL(string: "memory:")!) {
    self.bytes = bytes
    self.url = url
  }

  public var length: Int64? { Int64(bytes.count) }

  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
    throws(PlayheadError)
    -> Int
  {
    if cancelled.value { throw PlayheadError(.cancelled, "read cancelled", url: url) }
    guard offset >= 0 else {
      throw PlayheadError(.invalidArgument, "negative read offset", url: url)
    }
    guard offset < Int64(bytes.count), buffer.count > 0 else { return 0 }
    let start = Int(offset)
    let count = min(buffer.count, bytes.count - start)
    bytes.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: count)
    }
    return count
  }

  public func cancel() {
    cancelled.withLock { $0 = true }
  }
}
