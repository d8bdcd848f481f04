import CFFmpeg
import Foundation
import PlayheadCore

/// Owns one image decoder's codec context and packet; decodes a whole file given as one
/// packet (the decoded frame is owned by the `VideoFrame` it returns).
final class StillImageDecoder {
  private let context: UnsafeMutablePointer<AVCodecContext>
  private var packet: UnsafeMutablePointer<AVPacket>?
  private let format: ImageFormat

  init(format: ImageFormat) throws(PlayheadError) {
    _ = MediaLibrary.configured
    self.format = format
    let codecID = format == .jpeg ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG
    guard let codec = avcodec_find_decoder(codecID) else {
      throw PlayheadError(.decoderUnavailable, "This FFmpeg has no \(format.rawValue) decoder")
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decodeFailed, "Could not allocate the \(format.rawValue) decoder")
    }
    self.context = context
    packet = av_packet_alloc()
    // Abort on any detected damage rather than concealing it with grey blocks.
    context.pointee.err_recognition = AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM
    context.pointee.thread_count = 1
    // Refuse oversized pictures before the decoder allocates them.
    context.pointee.max_pixels = Int64(ImageCodec.maximumPixelCount)
    let opened = avcodec_open2(context, codec, nil)
    if opened < 0 {
      throw FFmpegError.make(
        .decoderUnavailable, "Could not open the \(format.rawValue) decoder", code: opened)
    }
  }

  deinit {
    av_packet_free(&packet)
    var pointer: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&pointer)
  }

  /// Decodes the one picture in `data`.
  func decode(_ data: Data) throws(PlayheadError) -> VideoFrame {
    guard let packet else {
      throw PlayheadError(.decodeFailed, "Could not allocate a packet")
    }
    guard data.count < Int(Int32.max) - 64 else {
      throw PlayheadError(.unsupportedFormat, "The \(format.rawValue) data is too large")
    }
    let allocated = av_new_packet(packet, Int32(data.count))
    if allocated < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not allocate a packet", code: allocated)
    }
    defer { av_packet_unref(packet) }
    guard let target = packet.pointee.data else {
      throw PlayheadError(.decodeFailed, "The packet has no buffer")
    }
    data.withUnsafeBytes { bytes in
      guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return }
      target.update(from: base, count: data.count)
    }
    guard let raw = av_frame_alloc() else {
      throw PlayheadError(.decodeFailed, "Could not allocate a frame")
    }
    let frame = VideoFrame(
      raw: raw, timeBase: AVRational(num: 1, den: 1), fallbackDuration: .invalid)
    var result = avcodec_send_packet(context, packet)
    if result >= 0 { result = avcodec_send_packet(context, nil) }
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "The \(format.rawValue) data is damaged", code: result)
    }
    result = avcodec_receive_frame(context, raw)
    if result < 0 {
      let reason = result == FFmpegError.eof ? "holds no picture" : "is damaged or truncated"
      throw FFmpegError.make(.decodeFailed, "The \(format.rawValue) data \(reason)", code: result)
    }
    if raw.pointee.decode_error_flags != 0 {
      throw PlayheadError(.decodeFailed, "The \(format.rawValue) data is damaged or truncated")
    }
    return frame
  }
}
