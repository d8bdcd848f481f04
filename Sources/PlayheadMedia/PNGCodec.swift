import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadNet

/// PNG snapshots through FFmpeg's own PNG encoder and decoder.
public enum PNGCodec {
  /// Encodes `image` as an RGBA PNG.
  ///
  /// Throws `.invalidArgument` when the image's pixel count does not match its size,
  /// `.decodeFailed` if the encoder fails.
  public static func encode(_ image: RGBAImage) throws(PlayheadError) -> Data {
    guard image.isWellFormed, image.width <= 65535, image.height <= 65535 else {
      throw PlayheadError(
        .invalidArgument,
        "Cannot encode a \(image.width)x\(image.height) image holding \(image.pixels.count) bytes")
    }
    let encoder = try PNGEncoder(width: image.width, height: image.height)
    return try encoder.encode(image)
  }

  /// Decodes PNG bytes to an RGBA image (PNGs without alpha come out opaque).
  ///
  /// Throws `.emptySource` for no bytes, `.unsupportedFormat` for bytes that are not a PNG,
  /// `.decodeFailed` when no picture comes out.
  public static func decode(_ data: Data) throws(PlayheadError) -> RGBAImage {
    if data.isEmpty { throw PlayheadError(.emptySource, "The PNG data is empty") }
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard data.starts(with: signature) else {
      throw PlayheadError(.unsupportedFormat, "The data is not a PNG (no PNG signature)")
    }
    let source = MemoryDataSource(data: data)
    let demuxer = try Demuxer(
      source: source, url: URL(string: "memory:image.png")!, formatHint: "png_pipe",
      formats: .pngImage)
    guard let stream = demuxer.bestStream(of: .video) else {
      throw PlayheadError(.unsupportedFormat, "No picture in the PNG data")
    }
    let decoder = try demuxer.makeVideoDecoder(streamIndex: stream.index, threadCount: 1)
    var frame: VideoFrame?
    while frame == nil, let packet = try demuxer.readPacket() {
      guard packet.streamIndex == stream.index else { continue }
      try decoder.send(packet)
      frame = try decoder.receiveFrame()
    }
    if frame == nil {
      try decoder.send(nil)
      frame = try decoder.receiveFrame()
    }
    guard let frame else { throw PlayheadError(.decodeFailed, "The PNG data held no picture") }
    return try VideoConverter().convert(frame, width: nil, height: nil, gravity: .stretch)
  }
}

/// Owns the PNG encoder's codec context, frame and packet for one encode.
private final class PNGEncoder {
  private let context: UnsafeMutablePointer<AVCodecContext>
  private var frame: UnsafeMutablePointer<AVFrame>?
  private var packet: UnsafeMutablePointer<AVPacket>?

  init(width: Int, height: Int) throws(PlayheadError) {
    guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
      throw PlayheadError(.decoderUnavailable, "This FFmpeg has no PNG encoder")
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decodeFailed, "Could not allocate the PNG encoder")
    }
    self.context = context
    frame = av_frame_alloc()
    packet = av_packet_alloc()
    context.pointee.width = Int32(width)
    context.pointee.height = Int32(height)
    context.pointee.pix_fmt = AV_PIX_FMT_RGBA
    context.pointee.time_base = AVRational(num: 1, den: 1)
    let opened = avcodec_open2(context, codec, nil)
    if opened < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not open the PNG encoder", code: opened)
    }
  }

  deinit {
    av_packet_free(&packet)
    av_frame_free(&frame)
    var pointer: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&pointer)
  }

  func encode(_ image: RGBAImage) throws(PlayheadError) -> Data {
    guard let frame, let packet else {
      throw PlayheadError(.decodeFailed, "Could not allocate the PNG frame")
    }
    frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
    frame.pointee.width = Int32(image.width)
    frame.pointee.height = Int32(image.height)
    frame.pointee.pts = 0
    let allocated = av_frame_get_buffer(frame, 0)
    if allocated < 0 {
      throw FFmpegError.make(.decodeFailed, "Could not allocate the PNG frame", code: allocated)
    }
    guard let plane = frame.pointee.data.0 else {
      throw PlayheadError(.decodeFailed, "The PNG frame has no pixel plane")
    }
    let stride = Int(frame.pointee.linesize.0)
    let rowBytes = image.width * 4
    image.pixels.withUnsafeBufferPointer { source in
      guard let base = source.baseAddress else { return }
      for row in 0..<image.height {
        (plane + row * stride).update(from: base + row * rowBytes, count: rowBytes)
      }
    }
    var result = avcodec_send_frame(context, frame)
    if result >= 0 { result = avcodec_send_frame(context, nil) }
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "PNG encoding failed", code: result)
    }
    result = avcodec_receive_packet(context, packet)
    if result < 0 {
      throw FFmpegError.make(.decodeFailed, "PNG encoding failed", code: result)
    }
    defer { av_packet_unref(packet) }
    guard let data = packet.pointee.data, packet.pointee.size > 0 else {
      throw PlayheadError(.decodeFailed, "The PNG encoder produced no bytes")
    }
    return Data(bytes: data, count: Int(packet.pointee.size))
  }
}
