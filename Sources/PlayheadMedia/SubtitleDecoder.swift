import CFFmpeg
import Foundation
import PlayheadCore

/// One subtitle event decoded from a text subtitle stream.
///
/// Times are in the stream's timeline, as packet timestamps are.
public struct SubtitleEvent: Sendable, Equatable {
  /// When the event shows.
  public var start: MediaTime
  /// When it stops showing: the packet's duration, else the decoder's display time; nil
  /// when neither says (the caller decides).
  public var end: MediaTime?
  /// The text as WebVTT cue markup: ASS italic, bold and underline become `<i>`, `<b>`,
  /// `<u>`, other override tags are dropped, `\N` is a line break, and `&`, `<`, `>` are
  /// escaped (`SubtitleText.webVTTMarkup(ofASSText:)`).
  public var text: String
  /// The decoder's ASS event line (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,
  /// Effect,Text`), for a renderer that draws ASS itself.
  public var assEvent: String
}

/// Decodes the packets of one text subtitle stream (SubRip, ASS/SSA, WebVTT, MP4 timed
/// text, …) into `SubtitleEvent`s with FFmpeg's subtitle decoders, which turn every text
/// format into ASS events.
///
/// Bitmap subtitles (DVD, PGS, DVB) are refused at creation: they have no text. A packet
/// the decoder rejects gives no event and is counted. Not `Sendable`: one thread decodes.
public final class SubtitleDecoder {
  private let context: UnsafeMutablePointer<AVCodecContext>
  private let timeBase: AVRational
  /// The stream decoded.
  public let stream: StreamInfo
  /// Packets the decoder could not decode.
  public private(set) var rejectedPacketCount = 0

  init(stream raw: UnsafeMutablePointer<AVStream>, info: StreamInfo) throws(PlayheadError) {
    stream = info
    let description = "subtitle stream \(info.index) (\(info.codecName))"
    guard info.isTextSubtitle else {
      throw PlayheadError(
        .unsupportedFormat, "The \(description) is not a text subtitle stream")
    }
    guard let parameters = raw.pointee.codecpar,
      let codec = avcodec_find_decoder(parameters.pointee.codec_id)
    else {
      throw PlayheadError(
        .decoderUnavailable, "No decoder for the \(description)",
        ffmpegErrorCode: CFFmpeg_AVERROR_DECODER_NOT_FOUND())
    }
    guard let allocated = avcodec_alloc_context3(codec) else {
      throw PlayheadError(.decodeFailed, "Could not allocate a decoder for the \(description)")
    }
    context = allocated
    timeBase = raw.pointee.time_base
    let copied = avcodec_parameters_to_context(allocated, parameters)
    if copied < 0 {
      throw FFmpegError.make(
        .decodeFailed, "Could not configure the decoder for the \(description)", code: copied)
    }
    allocated.pointee.pkt_timebase = raw.pointee.time_base
    let opened = avcodec_open2(allocated, codec, nil)
    if opened < 0 {
      throw FFmpegError.make(
        .decoderUnavailable, "Could not open the decoder for the \(description)", code: opened)
    }
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVCodecContext>? = context
    avcodec_free_context(&pointer)
  }

  /// The ASS script header the decoder made (`[Script Info]`, styles), for a renderer that
  /// draws ASS itself; nil when the decoder gives none.
  public var assHeader: String? {
    guard let header = context.pointee.subtitle_header, context.pointee.subtitle_header_size > 0
    else { return nil }
    let bytes = UnsafeBufferPointer(
      start: header, count: Int(context.pointee.subtitle_header_size))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes `packet` (of this stream) into its events: usually one, none for a packet that
  /// clears the screen or that the decoder rejects.
  public func decode(_ packet: Packet) -> [SubtitleEvent] {
    guard packet.streamIndex == stream.index, packet.pts.isNumeric else { return [] }
    var subtitle = AVSubtitle()
    var got: Int32 = 0
    let result = avcodec_decode_subtitle2(context, &subtitle, &got, packet.raw)
    guard result >= 0 else {
      rejectedPacketCount += 1
      return []
    }
    guard got != 0 else { return [] }
    defer { avsubtitle_free(&subtitle) }
    let start = packet.pts + MediaTime(value: Int64(subtitle.start_display_time), timescale: 1000)
    var end: MediaTime?
    if packet.duration.isNumeric {
      end = packet.pts + packet.duration
    } else if subtitle.end_display_time > subtitle.start_display_time,
      subtitle.end_display_time != UInt32.max
    {
      end = packet.pts + MediaTime(value: Int64(subtitle.end_display_time), timescale: 1000)
    }
    var events: [SubtitleEvent] = []
    for index in 0..<Int(subtitle.num_rects) {
      guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_ASS,
        let ass = rect.pointee.ass
      else { continue }
      let line = String(cString: ass)
      events.append(
        SubtitleEvent(
          start: start, end: end,
          text: SubtitleText.webVTTMarkup(ofASSText: SubtitleText.text(ofASSEvent: line)),
          assEvent: line))
    }
    return events
  }
}
