import CFFmpeg
import PlayheadCore

/// Decodes one audio stream's packets into frames of samples.
///
/// Same shape and threading rules (one thread, not `Sendable`) as `VideoDecoder`: `send` a packet, `receiveFrame`
/// until nil, `send(nil)` at the end, `flush()` after a seek.
public final class AudioDecoder {
  /// The stream this decoder decodes.
  public let stream: StreamInfo
  let context: DecoderContext

  init(stream: UnsafeMutablePointer<AVStream>, info: StreamInfo) throws(PlayheadError) {
    self.stream = info
    context = try DecoderContext(stream: stream, info: info, threadCount: 1)
  }

  /// Sends the next packet of the stream; nil signals the end of the stream (drain).
  public func send(_ packet: Packet?) throws(PlayheadError) {
    try context.send(packet)
  }

  /// The next decoded frame; nil when the decoder needs more input or is drained.
  public func receiveFrame() throws(PlayheadError) -> AudioFrame? {
    guard let frame = try context.receive() else { return nil }
    return AudioFrame(raw: frame, timeBase: context.timeBase)
  }

  /// Drops everything buffered (after a seek).
  public func flush() {
    context.flush()
  }

  /// Whether the end of the stream has been sent and every frame received.
  public var isDrained: Bool { context.isDrained }

  /// How many packets the codec rejected as corrupt so far.
  public var rejectedPacketCount: Int { context.rejectedPacketCount }
}

/// One decoded block of audio samples; owns its `AVFrame`. Not `Sendable`: it is
/// converted on the thread that decoded it.
public final class AudioFrame {
  let raw: UnsafeMutablePointer<AVFrame>
  /// The time of the first sample in the stream's timeline, or `.invalid`.
  public var pts: MediaTime

  init(raw: UnsafeMutablePointer<AVFrame>, timeBase: AVRational) {
    self.raw = raw
    pts = MediaTime(ticks: raw.pointee.best_effort_timestamp, timeBase: timeBase)
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVFrame>? = raw
    av_frame_free(&pointer)
  }

  /// Samples per channel in this frame.
  public var sampleCount: Int { Int(raw.pointee.nb_samples) }
  /// Samples per second.
  public var sampleRate: Int { Int(raw.pointee.sample_rate) }
  /// The number of channels.
  public var channels: Int { Int(raw.pointee.ch_layout.nb_channels) }
  /// How long the frame plays: `sampleCount / sampleRate`, exactly.
  public var duration: MediaTime {
    guard raw.pointee.sample_rate > 0 else { return .invalid }
    return MediaTime(value: Int64(raw.pointee.nb_samples), timescale: raw.pointee.sample_rate)
  }
  /// FFmpeg's name for the sample format, e.g. "fltp".
  public var sampleFormatName: String {
    guard let name = av_get_sample_fmt_name(AVSampleFormat(raw.pointee.format)) else {
      return "none"
    }
    return String(cString: name)
  }
}
