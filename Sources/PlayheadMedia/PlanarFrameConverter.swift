import CFFmpeg
import PlayheadCore

/// Converts decoded frames, at their own size, to one of the layouts an output uploads
/// directly (`yuv420p` or `nv12`), through swscale.
///
/// Safe to call from several threads (calls are serialised by a lock); keep one converter
/// per output to reuse its scaler between frames. The result is limited range (a
/// full-range source is scaled to it); a YUV source keeps its matrix, an RGB source becomes
/// BT.601.
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
    raw.pointee.colorspace =
      source.pointee.colorspace == AVCOL_SPC_RGB ? AVCOL_SPC_UNSPECIFIED : source.pointee.colorspace
    raw.pointee.color_range = AVCOL_RANGE_MPEG
    raw.pointee.key_frame = source.pointee.key_frame
    converted.pts = frame.pts
    converted.duration = frame.duration
    return converted
  }
}

/// Owns one `SwsContext`, made for one source and target shape and remade when it changes;
/// freed in deinit.
private final class ScaleContext {
  private var context: OpaquePointer?
  private var shape: Shape?

  /// What the context was made for.
  private struct Shape: Equatable {
    var width: Int32
    var height: Int32
    var sourceFormat: Int32
    var targetFormat: Int32
    var sourceIsFullRange: Bool
  }

  deinit {
    sws_freeContext(context)
  }

  /// Converts the whole of `source` into `target`, which has its format, size and buffers,
  /// from the source's range to limited range.
  func scale(_ source: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<AVFrame>)
    throws(PlayheadError)
  {
    let sourceFormat = AVPixelFormat(source.pointee.format)
    let shape = Shape(
      width: source.pointee.width, height: source.pointee.height,
      sourceFormat: source.pointee.format, targetFormat: target.pointee.format,
      sourceIsFullRange: Self.isFullRangeYUV(source, format: sourceFormat))
    if context == nil || self.shape != shape {
      sws_freeContext(context)
      context = nil
      self.shape = nil
      context = Self.makeContext(shape)
      self.shape = shape
    }
    guard let context else {
      let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "unknown"
      throw PlayheadError(.decodeFailed, "Cannot convert pictures in pixel format \(name)")
    }
    let scaled = sws_scale_frame(context, target, source)
    if scaled < 0 {
      throw FFmpegError.make(.decodeFailed, "Converting the picture failed", code: scaled)
    }
  }

  /// A context for `shape`, its ranges set before it is initialised: set afterwards, a
  /// conversion between equal formats and sizes would stay a plain copy.
  private static func makeContext(_ shape: Shape) -> OpaquePointer? {
    guard let context = sws_alloc_context() else { return nil }
    let object = UnsafeMutableRawPointer(context)
    let options: [(String, Int64)] = [
      ("srcw", Int64(shape.width)), ("srch", Int64(shape.height)),
      ("src_format", Int64(shape.sourceFormat)), ("dstw", Int64(shape.width)),
      ("dsth", Int64(shape.height)), ("dst_format", Int64(shape.targetFormat)),
      ("sws_flags", Int64(SWS_BILINEAR)), ("src_range", shape.sourceIsFullRange ? 1 : 0),
      ("dst_range", 0),
    ]
    for (name, value) in options where av_opt_set_int(object, name, value, 0) < 0 {
      sws_freeContext(context)
      return nil
    }
    guard sws_init_context(context, nil, nil) >= 0 else {
      sws_freeContext(context)
      return nil
    }
    return context
  }

  /// Whether `frame` is YUV in full (JPEG) range: tagged so, or a `yuvj` format.
  private static func isFullRangeYUV(_ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat)
    -> Bool
  {
    guard let descriptor = av_pix_fmt_desc_get(format),
      descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0,
      descriptor.pointee.nb_components >= 3
    else { return false }
    let name = String(cString: descriptor.pointee.name)
    return frame.pointee.color_range == AVCOL_RANGE_JPEG || name.hasPrefix("yuvj")
  }
}
