import CFFmpeg
import PlayheadCore

/// Decodes one video stream's packets into frames.
///
/// Used by one thread (not `Sendable`). The loop is: `send` a packet, then `receiveFrame` until
/// it returns nil; at the end `send(nil)` and receive until `isDrained`. After a seek,
/// `flush()`. Packets the codec rejects as corrupt are skipped and counted in
/// `rejectedPacketCount` rather than failing playback.
public final class VideoDecoder {
  /// The stream this decoder decodes.
  public let stream: StreamInfo
  let context: DecoderContext
  private let frameDuration: MediaTime

  init(stream: UnsafeMutablePointer<AVStream>, info: StreamInfo, threadCount: Int)
    throws(PlayheadError)
  {
    self.stream = info
    context = try DecoderContext(stream: stream, info: info, threadCount: threadCount)
    let rate =
      stream.pointee.avg_frame_rate.num > 0
      ? stream.pointee.avg_frame_rate
      : stream.pointee.r_frame_rate
    if rate.num > 0, rate.den > 0 {
      frameDuration = MediaTime(value: Int64(rate.den), timescale: rate.num)
    } else {
      frameDuration = .invalid
    }
  }

  /// Sends the next packet of the stream; nil signals the end of the stream (drain).
  ///
  /// Throws `.decodeFailed` when the codec fails for a reason other than corrupt data.
  public func send(_ packet: Packet?) throws(PlayheadError) {
    try context.send(packet)
  }

  /// The next decoded frame in presentation order; nil when the decoder needs more input
  /// or is drained.
  public func receiveFrame() throws(PlayheadError) -> VideoFrame? {
    guard let frame = try context.receive() else { return nil }
    return VideoFrame(raw: frame, timeBase: context.timeBase, fallbackDuration: frameDuration)
  }

  /// Drops everything buffered (after a seek); decoding restarts at the next keyframe.
  public func flush() {
    context.flush()
  }

  /// Whether the end of the stream has been sent and every frame received.
  public var isDrained: Bool { context.isDrained }

  /// How many packets the codec rejected as corrupt so far.
  public var rejectedPacketCount: Int { context.rejectedPacketCount }

  /// How many threads the codec runs (FFmpeg's choice when created with 0).
  public var threadCount: Int { Int(context.raw.pointee.thread_count) }
}

/// One decoded picture; owns its `AVFrame` (whose pixel buffers FFmpeg reference-counts).
public final class VideoFrame: @unchecked Sendable {
  // Unchecked Sendable: a frame goes from the decoding thread to the presenting one and
  // sinks keep it; once decoded, its `AVFrame` is only read, and the `var`s are set by
  // the decoding thread before it hands the frame on.
  let raw: UnsafeMutablePointer<AVFrame>
  /// The presentation time: the best-effort timestamp in the stream's timeline, or
  /// `.invalid` when FFmpeg could not guess one.
  public var pts: MediaTime
  /// How long the frame shows: the packet's duration, else one frame at the stream's
  /// frame rate, else `.invalid`.
  public var duration: MediaTime

  init(raw: UnsafeMutablePointer<AVFrame>, timeBase: AVRational, fallbackDuration: MediaTime) {
    self.raw = raw
    pts = MediaTime(ticks: raw.pointee.best_effort_timestamp, timeBase: timeBase)
    if raw.pointee.pkt_duration > 0 {
      duration = MediaTime(ticks: raw.pointee.pkt_duration, timeBase: timeBase)
    } else {
      duration = fallbackDuration
    }
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVFrame>? = raw
    av_frame_free(&pointer)
  }

  /// The picture's width in pixels.
  public var width: Int { Int(raw.pointee.width) }
  /// The picture's height in pixels.
  public var height: Int { Int(raw.pointee.height) }
  /// Whether this is a keyframe (an intra picture).
  public var isKeyframe: Bool { raw.pointee.key_frame != 0 }
  /// FFmpeg's name for the pixel format, e.g. "yuv420p".
  public var pixelFormatName: String {
    guard let name = av_get_pix_fmt_name(AVPixelFormat(raw.pointee.format)) else { return "none" }
    return String(cString: name)
  }
}
