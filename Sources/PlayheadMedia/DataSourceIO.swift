import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadNet

/// The state that FFmpeg's I/O and interrupt callbacks reach through their opaque pointer.
///
/// The read position and the pending error are used by the thread that runs the demuxer
/// (callbacks run inside its FFmpeg calls); `Demuxer.interrupt()` sets the interrupted
/// flag from any thread. All of it is in one `Locked`, held only to read or update it,
/// never while the source reads.
final class DataSourceIOState: Sendable {
  let reader: DataSourceReader
  /// Whether a read just past the bytes handed out may wait (see `Demuxer.nextReadMayWait`).
  let readMayWait: (@Sendable () -> Bool)?
  private let state = Locked(State())

  private struct State: Sendable {
    var position: Int64 = 0
    var bytesSeen: Int64 = 0
    var pendingError: PlayheadError?
    /// The source error a read failed with; every later read fails with it.
    var failure: PlayheadError?
    var refusedNestedURL: String?
    var interrupted = false
  }

  init(reader: DataSourceReader, readMayWait: (@Sendable () -> Bool)?) {
    self.reader = reader
    self.readMayWait = readMayWait
  }

  /// The furthest byte any read reached, to tell an empty source from a bad one.
  var bytesSeen: Int64 { state.withLock { $0.bytesSeen } }

  /// The source's own error from the last failed read, rethrown by the demuxer as it is.
  var pendingError: PlayheadError? {
    get { state.withLock { $0.pendingError } }
    set { state.withLock { $0.pendingError = newValue } }
  }

  /// The first URL FFmpeg tried to open by itself (refused), named in the error.
  var refusedNestedURL: String? { state.withLock { $0.refusedNestedURL } }

  /// Records `url` as the refused nested open, unless one was recorded already.
  func noteRefusedNestedURL(_ url: String) {
    state.withLock { state in
      if state.refusedNestedURL == nil { state.refusedNestedURL = url }
    }
  }

  var isInterrupted: Bool { state.withLock { $0.interrupted } }

  func interrupt() {
    state.withLock { $0.interrupted = true }
    reader.cancel()
  }

  /// Takes the pending source error, if any, leaving none behind.
  func takePendingError() -> PlayheadError? {
    state.withLock { state in
      defer { state.pendingError = nil }
      return state.pendingError
    }
  }

  /// Reads at the position for FFmpeg. After a read failed, every later one fails with the
  /// same error without reading: a demuxer that tries again, or elsewhere, after a failed
  /// read (the MP4 reader does) would otherwise spend a fresh set of the source's retries
  /// on each try.
  func read(_ buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
    let (position, failure) = state.withLock { state -> (Int64?, PlayheadError?) in
      if state.interrupted {
        state.pendingError = PlayheadError(.cancelled, "read cancelled", url: reader.url)
        return (nil, nil)
      }
      if let failure = state.failure {
        state.pendingError = failure
        return (nil, failure)
      }
      return (state.position, nil)
    }
    guard let position, failure == nil else { return FFmpegError.exit }
    do {
      let raw = UnsafeMutableRawBufferPointer(start: buffer, count: Int(count))
      let read = try reader.read(into: raw, at: position)
      if read <= 0 { return FFmpegError.eof }
      state.withLock { state in
        state.position = position + Int64(read)
        state.bytesSeen = max(state.bytesSeen, state.position)
      }
      return Int32(read)
    } catch {
      state.withLock { state in
        state.pendingError = error
        if error.code != .cancelled { state.failure = error }
      }
      return FFmpegError.exit
    }
  }

  func seek(offset: Int64, whence: Int32) -> Int64 {
    let mode = whence & ~CFFmpeg_AVSEEK_FORCE()
    if mode == CFFmpeg_AVSEEK_SIZE() {
      return reader.length ?? Int64(CFFmpeg_AVERROR(ENOSYS))
    }
    let target: Int64
    switch mode {
    case SEEK_SET: target = offset
    case SEEK_CUR: target = state.withLock { $0.position } + offset
    case SEEK_END:
      guard let length = reader.length else { return Int64(CFFmpeg_AVERROR(ENOSYS)) }
      target = length + offset
    default: return Int64(CFFmpeg_AVERROR(EINVAL))
    }
    guard target >= 0 else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
    state.withLock { $0.position = target }
    return target
  }
}

/// Owns the custom `AVIOContext` (and its `av_malloc` buffer) that feeds a data source into
/// libavformat — the one adapter between Playhead's data sources and FFmpeg — and the one
/// retain of its callback state.
final class DataSourceIO {
  let state: DataSourceIOState
  private(set) var context: UnsafeMutablePointer<AVIOContext>
  private let opaque: Unmanaged<DataSourceIOState>

  static let bufferSize: Int32 = 64 * 1024

  init(reader: DataSourceReader, isSeekable: Bool, readMayWait: (@Sendable () -> Bool)?)
    throws(PlayheadError)
  {
    let state = DataSourceIOState(reader: reader, readMayWait: readMayWait)
    guard let buffer = av_malloc(Int(Self.bufferSize)) else {
      throw PlayheadError(.ioError, "Could not allocate an I/O buffer", url: reader.url)
    }
    let opaque = Unmanaged.passRetained(state)
    guard
      let context = avio_alloc_context(
        buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque.toOpaque(),
        dataSourceReadCallback, nil, dataSourceSeekCallback)
    else {
      var pointer: UnsafeMutableRawPointer? = buffer
      av_freep(&pointer)
      opaque.release()
      throw PlayheadError(.ioError, "Could not allocate an I/O context", url: reader.url)
    }
    // A source read in order (an HLS run) is not seekable to the demuxers.
    if !isSeekable { context.pointee.seekable = 0 }
    self.state = state
    self.opaque = opaque
    self.context = context
  }

  deinit {
    // FFmpeg may have replaced the buffer it was given; free the current one.
    av_freep(&context.pointee.buffer)
    var pointer: UnsafeMutablePointer<AVIOContext>? = context
    avio_context_free(&pointer)
    opaque.release()
  }
}

/// The interrupt callback: non-zero makes the blocking FFmpeg call return AVERROR_EXIT.
let dataSourceInterruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
  guard let opaque else { return 0 }
  return Unmanaged<DataSourceIOState>.fromOpaque(opaque).takeUnretainedValue().isInterrupted
    ? 1 : 0
}

private let dataSourceReadCallback:
  @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer, count > 0 else { return FFmpegError.eof }
    return Unmanaged<DataSourceIOState>.fromOpaque(opaque).takeUnretainedValue()
      .read(buffer, count: count)
  }

private let dataSourceSeekCallback:
  @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 =
    { opaque, offset, whence in
      guard let opaque else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
      return Unmanaged<DataSourceIOState>.fromOpaque(opaque).takeUnretainedValue()
        .seek(offset: offset, whence: whence)
    }
