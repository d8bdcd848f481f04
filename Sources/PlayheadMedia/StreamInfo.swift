import CFFmpeg
import PlayheadCore

/// What the container says about one of its streams.
///
/// Times are in the stream's own timeline (the same one packet and frame timestamps use).
/// Optional values are nil when the container does not say.
public struct StreamInfo: Sendable, Equatable {
  /// The stream's index in the container; packets carry it.
  public var index: Int
  public var kind: MediaKind
  /// FFmpeg's short codec name, e.g. "h264", "aac", "vp9", "opus".
  public var codecName: String
  /// One tick of the stream's time base, e.g. 1/12800.
  public var timeBase: MediaTime
  /// The first timestamp, or `.invalid` if unknown.
  public var startTime: MediaTime
  /// The stream's duration, or `.invalid` if unknown.
  public var duration: MediaTime
  public var width: Int?
  public var height: Int?
  /// Frames per second from the average frame rate, else the real base frame rate.
  public var frameRate: Double?
  /// Bits per second.
  public var bitRate: Int?
  public var sampleRate: Int?
  public var channels: Int?
  /// The language tag from the container's metadata, e.g. "eng".
  public var language: String?
  /// The stream's title from the container's metadata (a Matroska track name such as
  /// "Commentary"), when tagged.
  public var title: String?
  /// The frame count when the container states it (`nb_frames`).
  public var frameCount: Int?
  /// Whether the stream is cover art: a single picture that is not played as video.
  public var isAttachedPicture: Bool
  /// Whether this FFmpeg build has a decoder for the stream's codec.
  public var hasDecoder: Bool
  /// Whether the container flags the stream as the default of its kind.
  public var isDefault: Bool
  /// Whether the container flags the stream as forced (subtitles shown even when
  /// subtitles are off: foreign-language parts).
  public var isForced: Bool
  /// Whether the stream is subtitles carried as text (SubRip, ASS, WebVTT, MP4 timed text),
  /// not as bitmaps.
  public var isTextSubtitle: Bool

  init(stream: UnsafeMutablePointer<AVStream>) {
    let parameters = stream.pointee.codecpar.pointee
    let timeBase = stream.pointee.time_base
    index = Int(stream.pointee.index)
    kind = MediaKind(parameters.codec_type)
    codecName = String(cString: avcodec_get_name(parameters.codec_id))
    self.timeBase = MediaTime(timeBase: timeBase)
    startTime = MediaTime(ticks: stream.pointee.start_time, timeBase: timeBase)
    duration = MediaTime(ticks: stream.pointee.duration, timeBase: timeBase)
    if kind == .video {
      width = parameters.width > 0 ? Int(parameters.width) : nil
      height = parameters.height > 0 ? Int(parameters.height) : nil
      let average = stream.pointee.avg_frame_rate
      let real = stream.pointee.r_frame_rate
      if average.num > 0, average.den > 0 {
        frameRate = av_q2d(average)
      } else if real.num > 0, real.den > 0 {
        frameRate = av_q2d(real)
      }
    }
    if kind == .audio {
      sampleRate = parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil
      channels = parameters.ch_layout.nb_channels > 0 ? Int(parameters.ch_layout.nb_channels) : nil
    }
    bitRate = parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil
    if let entry = av_dict_get(stream.pointee.metadata, "language", nil, 0),
      let value = entry.pointee.value
    {
      let text = String(cString: value)
      language = text.isEmpty ? nil : text
    }
    if let entry = av_dict_get(stream.pointee.metadata, "title", nil, 0),
      let value = entry.pointee.value
    {
      let text = String(cString: value)
      title = text.isEmpty ? nil : text
    }
    frameCount = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
    isAttachedPicture = (stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0
    hasDecoder = avcodec_find_decoder(parameters.codec_id) != nil
    isDefault = (stream.pointee.disposition & AV_DISPOSITION_DEFAULT) != 0
    isForced = (stream.pointee.disposition & AV_DISPOSITION_FORCED) != 0
    if kind == .subtitle, let descriptor = avcodec_descriptor_get(parameters.codec_id) {
      isTextSubtitle = (descriptor.pointee.props & AV_CODEC_PROP_TEXT_SUB) != 0
    } else {
      isTextSubtitle = false
    }
  }
}
