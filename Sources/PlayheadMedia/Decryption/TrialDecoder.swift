import CFFmpeg
import PlayheadCore

/// A private decoder that stops at the first error, for `DecryptedSampleCheck`: fed the
/// first samples of a key in decoding order, it says whether they decode cleanly. Owns its
/// codec context and frame and frees them in deinit.
final class TrialDecoder {
  private let context: UnsafeMutablePointer<AVCodecContext>
  private var frame: UnsafeMutablePointer<AVFrame>?
  /// Frames decoded so far.
  private(set) var frameCount = 0

  /// A decoder for `parameters`; nil when FFmpeg has no decoder to judge with.
  init?(parameters: UnsafeMutablePointer<AVCodecParameters>) throws(PlayheadError) {
    guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { return nil }
    guard let context = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decryptionFailed, "Could not allocate a decoder to check a sample")
    }
    self.context = context
    frame = av_frame_alloc()
    guard frame != nil else {
      throw PlayheadError(.decryptionFailed, "Could not allocate a frame to check a sample")
    }
    if avcodec_parameters_to_context(context, parameters) < 0 { return nil }
    context.pointee.thread_count = 1
    // Fail at the first damage instead of concealing it.
    context.pointee.err_recognition = AV_EF_EXPLODE
    if avcodec_open2(context, codec, nil) < 0 { return nil }
  }

  deinit {
    av_frame_free(&frame)
    var pointer: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&pointer)
  }

  /// Decodes `packet` and takes out the frames that are ready; why it failed, or nil.
  func feed(_ packet: Packet) -> String? {
    let sent = avcodec_send_packet(context, packet.raw)
    if sent < 0 && sent != FFmpegError.again {
      return "the decoder refused it: \(FFmpegError.message(sent))"
    }
    return takeFrames()
  }

  /// Drops what the decoder holds, so that a keyframe can start a new sequence.
  func restart() {
    avcodec_flush_buffers(context)
  }

  /// Ends the stream and takes out the last frames; why it failed (also: no frame at all
  /// came out), or nil.
  func finish() -> String? {
    _ = avcodec_send_packet(context, nil)
    if let failure = takeFrames() { return failure }
    return frameCount == 0 ? "it gave no frame" : nil
  }

  private func takeFrames() -> String? {
    while let frame {
      let result = avcodec_receive_frame(context, frame)
      if result == FFmpegError.eof || result == FFmpegError.again { return nil }
      if result < 0 { return "the decoder failed: \(FFmpegError.message(result))" }
      frameCount += 1
      let damaged =
        frame.pointee.decode_error_flags != 0
        || (frame.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0
      av_frame_unref(frame)
      if damaged { return "the decoder concealed errors" }
    }
    return nil
  }
}
