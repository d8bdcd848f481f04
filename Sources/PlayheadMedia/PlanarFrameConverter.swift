import CFFmpeg
import PlayheadCore

/// Converts decoded frames, at their own size, to one of the layouts an output uploads
/// directly (`yuv420p` or `nv12`), through swscale.
///
/// Safe to call from several threads (calls are serialised by a lock); keep one converter
/// per output to reuse its scaler between frames. An RGB source becomes BT.601
/// limited-range YUV; a YUV source keeps its matrix.
///
/// ```swift
/// let planar = frame.planeLayout == .other ? try converter.convert(frame, to: .yuv420p) : frame
/// ```
public final class PlanarFrameConverter: Sendable {
  private let scaler = Locked(Scaler())

  /// The swscale context, reachable only under the lock.
  private struct Scaler: @unchecked Sendable {
    // Unchecked Sendable: the context is an FFmpeg pointer, not Sendable; it is only used
    // inside the `Locked` that holds it.
    let context = ScaleContext()
  }

  public init() {}

  /// A new frame holding `frame`'s picture in `layout`, with its timestamps and pixel
  /// aspect.
  ///
  /// `layout` `.other` returns `frame` itself. Throws `.decodeFailed` for a pixel format
  /// swscale cannot read or when allocating or converting fails.
  public func convert(_ frame: VideoFrame, to layout: VideoPlaneLayout) throws(PlayheadError)
    -> VideoFrame
  {
    let format: AVPixelFormat
    switch layout {
    case .yuv420p: format = AV_PIX_FMT_YUV420P
    case .nv12: format = AV_PIX_FMT_NV12
    case .other: return frame
    }
    let source = frame.raw
    guard let raw = av_frame_alloc() else {
      throw PlayheadError(.decodeFailed, "Could not allocate a frame to convert into")
    }
    let converted = VideoFrame(
      raw: raw, timeBase: AVRational(num: 1, den: 1), fallbackDuration: frame.duration)
    raw.pointee.format = format.rawValue
    raw.pointee.width = source.pointee.width
    raw.pointee.height = source.pointee.height
    let allocated = av_frame_get_buffer(raw, 0)
    if allocated < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not allocate a planar frame", code: allocated)
    }
    try scaler.withLock { (scaler) throws(PlayheadError) in
      try scaler.context.scale(source, into: raw)
    }
    raw.pointee.sample_aspect_ratio = source.pointee.sample_aspect_ratio
    raw.pointee.key_frame = source.pointee.key_frame
    converted.pts = frame.pts
    converted.duration = frame.duration
    return converted
  }
}

/// Owns one `SwsContext` (from `sws_getCachedContext`), freed in deinit.
private final class ScaleContext {
  private var context: OpaquePointer?

  deinit {
    sws_freeContext(context)
  }

  /// Converts the whole of `source` into `target`, which has its format, size and buffers.
  func scale(_ source: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<AVFrame>)
    throws(PlayheadError)
  {
    let sourceFormat = AVPixelFormat(source.pointee.format)
    context = sws_getCachedContext(
      context, source.pointee.width, source.pointee.height, sourceFormat, target.pointee.width,
      target.pointee.height, AVPixelFormat(target.pointee.format), SWS_BILINEAR, nil, nil, nil)
    guard let context else {
      let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "unknown"
      throw PlayheadError(.decodeFailed, "Cannot convert pictures in pixel format \(name)")
    }
    let scaled = sws_scale_frame(context, target, source)
    if scaled < 0 {
      throw FFmpegError.make(.decodeFailed, "Converting the picture failed", code: scaled)
    }
  }
}
