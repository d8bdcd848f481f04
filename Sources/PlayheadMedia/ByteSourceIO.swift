import CFFmpeg
import Foundation
import PlayheadCore

/// The state that FFmpeg's I/O and interrupt callbacks reach through their opaque pointer.
///
/// The read position and the pending error are used by the thread that runs the demuxer
/// (callbacks run inside its FFmpeg calls); `Demuxer.interrupt()` sets the interrupted
/// flag from any thread. All of it is in one `Locked`, held only to read or update it,
/// never while the source reads.
final class ByteSourceIOState: Sendable {
  let source: any ByteSource
  private let state = Locked(State())

  private struct State: Sendable {
    var position: Int64 = 0
    var bytesSeen: Int64 = 0
    var pendingError: PlayheadError?
    var refusedNestedURL: String?
    var interrupted = false
  }

  init(source: any ByteSource) {
    self.source = source
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
    source.cancel()
  }

  /// Takes the pending source error, if any, leaving none behind.
  func takePendingError() -> PlayheadError? {
    state.withLock { state in
      defer { state.pendingError = nil }
      return state.pendingError
    }
  }

  func read(_ buffer: UnsafeMutablePointer<UInt8>, count: Int32) -> Int32 {
    guard let position = state.withLock({ $0.interrupted ? nil : $0.position }) else {
      let error = PlayheadError(.cancelled, "read cancelled", url: source.url)
      state.withLock { $0.pendingError = error }
      return FFmpegError.exit
    }
    do {
      let raw = UnsafeMutableRawBufferPointer(start: buffer, count: Int(count))
      let read = try source.read(into: raw, at: position)
      if read <= 0 { return FFmpegError.eof }
      state.withLock { state in
        state.position = position + Int64(read)
        state.bytesSeen = max(state.bytesSeen, state.position)
      }
      return Int32(read)
    } catch {
      state.withLock { $0.pendingError = error }
      return FFmpegError.exit
    }
  }

  func seek(offset: Int64, whence: Int32) -> Int64 {
    let mode = whence & ~CFFmpeg_AVSEEK_FORCE()
    if mode == CFFmpeg_AVSEEK_SIZE() {
      return source.length ?? Int64(CFFmpeg_AVERROR(ENOSYS))
    }
    let target: Int64
    switch mode {
    case SEEK_SET: target = offset
    case SEEK_CUR: target = state.withLock { $0.position } + offset
    case SEEK_END:
      guard let length = source.length else { return Int64(CFFmpeg_AVERROR(ENOSYS)) }
      target = length + offset
    default: return Int64(CFFmpeg_AVERROR(EINVAL))
    }
    guard target >= 0 else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
    state.withLock { $0.position = target }
    return target
  }
}

/// Owns the custom `AVIOContext` (and its `av_malloc` buffer) that feeds a byte source
/// into libavformat, and the one retain of its callback state.
final class ByteSourceIO {
  let state: ByteSourceIOState
  private(set) var context: UnsafeMutablePointer<AVIOContext>
  private let opaque: Unmanaged<ByteSourceIOState>

  static let bufferSize: Int32 = 64 * 1024

  init(source: any ByteSource) throws(PlayheadError) {
    let state = ByteSourceIOState(source: source)
    guard let buffer = av_malloc(Int(Self.bufferSize)) else {
      throw PlayheadError(.ioError, "Could not allocate an I/O buffer", url: source.url)
    }
    let opaque = Unmanaged.passRetained(state)
    guard
      let context = avio_alloc_context(
        buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque.toOpaque(),
        byteSourceReadCallback, nil, byteSourceSeekCallback)
    else {
      var pointer: UnsafeMutableRawPointer? = buffer
      av_freep(&pointer)
      opaque.release()
      throw PlayheadError(.ioError, "Could not allocate an I/O context", url: source.url)
    }
    // A source read in order (an HLS run) is not seekable to the demuxers.
    if !source.isSeekable { context.pointee.seekable = 0 }
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
let byteSourceInterruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
  guard let opaque else { return 0 }
  return Unmanaged<ByteSourceIOState>.fromOpaque(opaque).takeUnretainedValue().isInterrupted
    ? 1 : 0
}

private let byteSourceReadCallback:
  @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer, count > 0 else { return FFmpegError.eof }
    return Unmanaged<ByteSourceIOState>.fromOpaque(opaque).takeUnretainedValue()
      .read(buffer, count: count)
  }

private let byteSourceSeekCallback:
  @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 =
    { opaque, offset, whence in
      guard let opaque else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
      return Unmanaged<ByteSourceIOState>.fromOpaque(opaque).takeUnretainedValue()
        .seek(offset: offset, whence: whence)
    }
