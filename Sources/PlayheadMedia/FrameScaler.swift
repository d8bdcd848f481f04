import CFFmpeg
import PlayheadCore

/// Scales a rectangle of a decoded frame into a packed RGBA or gray scratch plane; owns its
/// `SwsContext` (from `sws_getCachedContext`), a cropping view `AVFrame` and an aligned
/// `av_malloc` scratch buffer, all reused across calls.
final class FrameScaler {
  private var context: OpaquePointer?
  private var view: UnsafeMutablePointer<AVFrame>?
  private(set) var scratch: UnsafeMutablePointer<UInt8>?
  private var scratchCapacity = 0
  private(set) var stride = 0
  /// The colourspace details last given to `context`, to set them only on change.
  private var appliedDetails: (context: OpaquePointer, space: Int32, fullRange: Bool)?

  deinit {
    sws_freeContext(context)
    var frame = view
    av_frame_free(&frame)
    av_free(scratch)
  }

  /// Scales `region` of `frame` to `width` x `height` in `format`; the result is in
  /// `scratch`, `stride` bytes per row, valid until the next call.
  func scale(
    _ frame: UnsafeMutablePointer<AVFrame>, region: PixelRect, width: Int, height: Int,
    format: AVPixelFormat, bytesPerPixel: Int
  ) throws(PlayheadError) {
    if view == nil { view = av_frame_alloc() }
    guard let view else { throw PlayheadError(.decodeFailed, "Could not allocate a frame view") }
    defer { av_frame_unref(view) }
    let referenced = av_frame_ref(view, frame)
    if referenced < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not reference the frame", code: referenced)
    }
    view.pointee.crop_left = Int(region.x)
    view.pointee.crop_top = Int(region.y)
    view.pointee.crop_right = Int(frame.pointee.width) - region.x - region.width
    view.pointee.crop_bottom = Int(frame.pointee.height) - region.y - region.height
    let cropped = av_frame_apply_cropping(view, Int32(AV_FRAME_CROP_UNALIGNED))
    if cropped < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not crop the frame", code: cropped)
    }
    let sourceFormat = AVPixelFormat(view.pointee.format)
    context = sws_getCachedContext(
      context, Int32(region.width), Int32(region.height), sourceFormat, Int32(width),
      Int32(height), format, SWS_BILINEAR, nil, nil, nil)
    guard let context else {
      let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "unknown"
      throw PlayheadError(.decodeFailed, "Cannot convert pictures in pixel format \(name)")
    }
    applyColourspace(of: view, format: sourceFormat, to: context)
    let rowBytes = width * bytesPerPixel
    stride = (rowBytes + 63) & ~63
    let needed = stride * height
    if needed > scratchCapacity {
      av_free(scratch)
      scratch = av_malloc(needed)?.assumingMemoryBound(to: UInt8.self)
      scratchCapacity = scratch == nil ? 0 : needed
    }
    guard let scratch else {
      throw PlayheadError(.decodeFailed, "Could not allocate \(needed) bytes to convert into")
    }
    let scaled = CFFmpeg_sws_scale_frame_into(context, view, scratch, Int32(stride))
    if scaled < 0 {
      throw FFmpegError.make(.decodeFailed, "Converting the picture failed", code: scaled)
    }
  }

  /// Tells swscale the YUV matrix and range of the source (RGB sources need nothing).
  private func applyColourspace(
    of frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat, to context: OpaquePointer
  ) {
    guard let descriptor = av_pix_fmt_desc_get(format),
      descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0,
      descriptor.pointee.nb_components >= 3
    else { return }
    var space = Int32(frame.pointee.colorspace.rawValue)
    if space < 1 || space > 10 || space == Int32(AVCOL_SPC_UNSPECIFIED.rawValue) {
      // Untagged video: HD sizes are BT.709, smaller ones BT.601.
      space = frame.pointee.height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
    }
    let name = String(cString: descriptor.pointee.name)
    let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || name.hasPrefix("yuvj")
    if let applied = appliedDetails, applied.context == context, applied.space == space,
      applied.fullRange == fullRange
    {
      return
    }
    sws_setColorspaceDetails(
      context, sws_getCoefficients(space), fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT),
      1, 0, 1 << 16, 1 << 16)
    appliedDetails = (context, space, fullRange)
  }
}
