import CFFmpeg
import PlayheadCore

extension RGBAImage {
  /// Gives `frame` (allocated, without buffers) an RGBA buffer of this image's size and
  /// copies the pixels into it.
  func copy(into frame: UnsafeMutablePointer<AVFrame>) throws(PlayheadError) {
    guard isWellFormed else {
      throw PlayheadError(
        .invalidArgument,
        "Cannot use a \(width)x\(height) image holding \(pixels.count) bytes")
    }
    frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
    frame.pointee.width = Int32(width)
    frame.pointee.height = Int32(height)
    let allocated = av_frame_get_buffer(frame, 0)
    if allocated < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not allocate an RGBA frame", code: allocated)
    }
    guard let plane = frame.pointee.data.0 else {
      throw PlayheadError(.decodeFailed, "The RGBA frame has no pixel plane")
    }
    let stride = Int(frame.pointee.linesize.0)
    let rowBytes = width * 4
    let rows = height
    pixels.withUnsafeBufferPointer { source in
      guard let base = source.baseAddress else { return }
      for row in 0..<rows {
        (plane + row * stride).update(from: base + row * rowBytes, count: rowBytes)
      }
    }
  }

  /// This image as a decoded frame (which owns its copy of the pixels).
  func makeFrame() throws(PlayheadError) -> VideoFrame {
    guard let raw = av_frame_alloc() else {
      throw PlayheadError(.decodeFailed, "Could not allocate a frame")
    }
    let frame = VideoFrame(
      raw: raw, timeBase: AVRational(num: 1, den: 1), fallbackDuration: .invalid)
    try copy(into: raw)
    return frame
  }
}
