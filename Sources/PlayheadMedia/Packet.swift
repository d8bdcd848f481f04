import CFFmpeg
import PlayheadCore

/// One compressed packet read from a demuxer; owns its `AVPacket`.
///
/// Timestamps are in the stream's timeline; a timestamp the container does not give is
/// `.invalid`. Setting a timestamp rewrites the packet (rounded to the stream's time
/// base), so that an engine can shift a segment's timeline before decoding. Not
/// `Sendable`: a packet stays with the thread that reads and decodes it.
public final class Packet {
  let raw: UnsafeMutablePointer<AVPacket>
  let timeBase: AVRational

  /// Takes ownership of `raw`, which holds a packet of a stream with `timeBase`.
  init(raw: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
    self.raw = raw
    self.timeBase = timeBase
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVPacket>? = raw
    av_packet_free(&pointer)
  }

  /// The index of the stream the packet belongs to.
  public var streamIndex: Int {
    get { Int(raw.pointee.stream_index) }
    set { raw.pointee.stream_index = Int32(clamping: newValue) }
  }

  /// The presentation timestamp.
  public var pts: MediaTime {
    get { MediaTime(ticks: raw.pointee.pts, timeBase: timeBase) }
    set { raw.pointee.pts = newValue.ticks(in: timeBase) ?? FFmpegError.noPTS }
  }

  /// The decoding timestamp.
  public var dts: MediaTime {
    get { MediaTime(ticks: raw.pointee.dts, timeBase: timeBase) }
    set { raw.pointee.dts = newValue.ticks(in: timeBase) ?? FFmpegError.noPTS }
  }

  /// How long the packet plays; `.invalid` when the container does not say.
  public var duration: MediaTime {
    get {
      raw.pointee.duration > 0
        ? MediaTime(ticks: raw.pointee.duration, timeBase: timeBase) : .invalid
    }
    set { raw.pointee.duration = newValue.ticks(in: timeBase) ?? 0 }
  }

  /// Whether the packet starts a keyframe (decoding can begin here).
  public var isKeyframe: Bool {
    (raw.pointee.flags & AV_PKT_FLAG_KEY) != 0
  }

  /// The packet's payload size in bytes.
  public var size: Int {
    Int(raw.pointee.size)
  }

  /// The packet's byte position in the source, when the demuxer knows it.
  public var bytePosition: Int64? {
    raw.pointee.pos >= 0 ? raw.pointee.pos : nil
  }
}
