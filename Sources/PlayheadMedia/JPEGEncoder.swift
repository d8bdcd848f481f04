import CFFmpeg
import Foundation
import PlayheadCore

/// Owns what one JPEG encode needs: the mjpeg encoder's codec context, an RGBA source
/// frame, a full-range YUV 4:2:0 frame, the swscale context between them and a packet.
final class JPEGEncoder {
  private let context: UnsafeMutablePointer<AVCodecContext>
  private var source: UnsafeMutablePointer<AVFrame>?
  private var converted: UnsafeMutablePointer<AVFrame>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private var scaler: OpaquePointer?
  private let width: Int
  private let height: Int

  /// The quantiser for `quality` in 0...1: 1 gives 2 (best), 0 gives 31 (worst).
  static func quantiser(forQuality quality: Double) -> Int32 {
    let clamped = min(1, max(0, quality))
    return Int32((31 - clamped * 29).rounded())
  }

  init(width: Int, height: Int, quality: Double) throws(PlayheadError) {
    _ = MediaLibrary.configured
    self.width = width
    self.height = height
    guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
      throw PlayheadError(.decoderUnavailable, "This FFmpeg has no JPEG (mjpeg) encoder")
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decodeFailed, "Could not allocate the JPEG encoder")
    }
    self.context = context
    source = av_frame_alloc()
    converted = av_frame_alloc()
    packet = av_packet_alloc()
    context.pointee.width = Int32(width)
    context.pointee.height = Int32(height)
    context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
    context.pointee.color_range = AVCOL_RANGE_JPEG
    context.pointee.time_base = AVRational(num: 1, den: 25)
    context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
    let lambda = Self.quantiser(forQuality: quality) * Int32(FF_QP2LAMBDA)
    context.pointee.global_quality = lambda
    let opened = avcodec_open2(context, codec, nil)
    if opened < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not open the JPEG encoder", code: opened)
    }
  }

  deinit {
    sws_freeContext(scaler)
    av_packet_free(&packet)
    av_frame_free(&converted)
    av_frame_free(&source)
    var pointer: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&pointer)
  }

  func encode(_ image: RGBAImage) throws(PlayheadError) -> Data {
    guard let source, let converted, let packet else {
      throw PlayheadError(.decodeFailed, "Could not allocate the JPEG encoder's frames")
    }
    try image.copy(into: source)
    converted.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
    converted.pointee.width = Int32(width)
    converted.pointee.height = Int32(height)
    converted.pointee.color_range = AVCOL_RANGE_JPEG
    let allocated = av_frame_get_buffer(converted, 0)
    if allocated < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not allocate the JPEG frame", code: allocated)
    }
    scaler = sws_getCachedContext(
      scaler, Int32(width), Int32(height), AV_PIX_FMT_RGBA, Int32(width), Int32(height),
      AV_PIX_FMT_YUVJ420P, SWS_BICUBIC, nil, nil, nil)
    guard let scaler else {
      throw PlayheadError(.decodeFailed, "Cannot convert RGBA pictures for the JPEG encoder")
    }
    let scaled = sws_scale_frame(scaler, converted, source)
    if scaled < 0 {
      throw FFmpegError.make(.decodeFailed, "Converting the picture to YUV failed", code: scaled)
    }
    converted.pointee.pts = 0
    converted.pointee.quality = context.pointee.global_quality
    var result = avcodec_send_frame(context, converted)
    if result >= 0 { result = avcodec_send_frame(context, nil) }
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "JPEG encoding failed", code: result)
    }
    result = avcodec_receive_packet(context, packet)
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "JPEG encoding failed", code: result)
    }
    defer { av_packet_unref(packet) }
    guard let data = packet.pointee.data, packet.pointee.size > 0 else {
      throw PlayheadError(.decodeFailed, "The JPEG encoder produced no bytes")
    }
    return Data(bytes: data, count: Int(packet.pointee.size))
  }
}
