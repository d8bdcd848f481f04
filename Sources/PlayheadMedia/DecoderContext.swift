import CFFmpeg
import Foundation
import PlayheadCore

/// Owns one opened `AVCodecContext` and runs FFmpeg's send/receive loop for it; shared by
/// `VideoDecoder` and `AudioDecoder`.
///
/// A packet the codec refuses with EAGAIN (its output is full) is kept and re-sent once
/// the caller has received the waiting frames, so callers may alternate `send` and
/// `receive` freely. Packets the codec rejects as invalid data are dropped and counted.
final class DecoderContext {
  let raw: UnsafeMutablePointer<AVCodecContext>
  let timeBase: AVRational
  private var spareFrame: UnsafeMutablePointer<AVFrame>?
  private var heldPacket: Packet?
  private var heldEndOfStream = false
  private(set) var isDrained = false
  private(set) var rejectedPacketCount = 0
  private let streamDescription: String

  init(stream: UnsafeMutablePointer<AVStream>, info: StreamInfo, threadCount: Int)
    throws(PlayheadError)
  {
    streamDescription = "\(info.kind.rawValue) stream \(info.index) (\(info.codecName))"
    guard threadCount >= 0 else {
      throw PlayheadError(.invalidArgument, "Decoder thread count must be 0 (auto) or more")
    }
    guard let parameters = stream.pointee.codecpar else {
      throw PlayheadError(.decodeFailed, "No codec parameters for \(streamDescription)")
    }
    guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
      throw PlayheadError(
        .decoderUnavailable, "No decoder for \(streamDescription)",
        ffmpegErrorCode: CFFmpeg_AVERROR_DECODER_NOT_FOUND())
    }
    guard let context = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decodeFailed, "Could not allocate a decoder for \(streamDescription)")
    }
    raw = context
    timeBase = stream.pointee.time_base
    let copied = avcodec_parameters_to_context(context, parameters)
    if copied < 0 {
      throw FFmpegError.make(
        .decodeFailed, "Could not configure the decoder for \(streamDescription)", code: copied)
    }
    context.pointee.pkt_timebase = stream.pointee.time_base
    let threads = threadCount == 0 ? Self.automaticThreadCount : threadCount
    context.pointee.thread_count = Int32(clamping: threads)
    let opened = avcodec_open2(context, codec, nil)
    if opened < 0 {
      throw FFmpegError.make(
        .decoderUnavailable, "Could not open the decoder for \(streamDescription)", code: opened)
    }
  }

  /// The thread count of a decoder left to choose: one per core, at most 16 (FFmpeg's own
  /// choice, one more than the cores, holds one more frame context, about 10 MB at 1080p,
  /// without decoding a real-time stream any faster).
  static var automaticThreadCount: Int {
    min(max(1, ProcessInfo.processInfo.activeProcessorCount), 16)
  }

  deinit {
    var frame = spareFrame
    av_frame_free(&frame)
    var context: UnsafeMutablePointer<AVCodecContext>? = raw
    avcodec_free_context(&context)
  }

  /// Sends `packet` (nil = end of stream) to the codec.
  func send(_ packet: Packet?) throws(PlayheadError) {
    if heldPacket != nil || heldEndOfStream {
      throw PlayheadError(
        .invalidState,
        "The \(streamDescription) decoder has output waiting; receive frames before sending")
    }
    if packet == nil && isDrained { return }
    let result = avcodec_send_packet(raw, packet?.raw)
    if result >= 0 { return }
    if result == FFmpegError.again {
      if let packet { heldPacket = packet } else { heldEndOfStream = true }
      return
    }
    if result == FFmpegError.eof { return }
    if result == FFmpegError.invalidData {
      rejectedPacketCount += 1
      return
    }
    throw FFmpegError.make(.decodeFailed, "Decoding \(streamDescription) failed", code: result)
  }

  /// The next decoded frame, owned by the caller; nil when the codec needs input or is
  /// drained.
  func receive() throws(PlayheadError) -> UnsafeMutablePointer<AVFrame>? {
    if isDrained { return nil }
    if spareFrame == nil {
      guard let frame = av_frame_alloc() else {
        throw PlayheadError(.decodeFailed, "Could not allocate a frame for \(streamDescription)")
      }
      spareFrame = frame
    }
    guard let frame = spareFrame else { return nil }
    while true {
      let result = avcodec_receive_frame(raw, frame)
      if result >= 0 {
        spareFrame = nil
        return frame
      }
      if result == FFmpegError.again {
        if try resendHeld() { continue }
        return nil
      }
      if result == FFmpegError.eof {
        isDrained = true
        return nil
      }
      throw FFmpegError.make(.decodeFailed, "Decoding \(streamDescription) failed", code: result)
    }
  }

  /// Re-sends a packet held back by EAGAIN; returns whether one was sent.
  private func resendHeld() throws(PlayheadError) -> Bool {
    guard heldPacket != nil || heldEndOfStream else { return false }
    let packet = heldPacket
    heldPacket = nil
    heldEndOfStream = false
    try send(packet)
    return true
  }

  /// Drops buffered input and output (after a seek); the decoder can be fed again.
  func flush() {
    avcodec_flush_buffers(raw)
    heldPacket = nil
    heldEndOfStream = false
    isDrained = false
  }
}
