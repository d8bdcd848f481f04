import CFFmpeg
import PlayheadCore

extension Demuxer {
  /// Makes a decoder for the video stream at `streamIndex`.
  ///
  /// `threadCount` 0 takes one thread per core (at most 16). Throws `.invalidArgument` for an
  /// index that is not a video stream, `.decoderUnavailable` when FFmpeg has no decoder
  /// for its codec.
  public func makeVideoDecoder(streamIndex: Int, threadCount: Int = 0) throws(PlayheadError)
    -> VideoDecoder
  {
    let info = try streamInfo(streamIndex)
    guard info.kind == .video, let stream = format.stream(streamIndex) else {
      throw PlayheadError(
        .invalidArgument, "Stream \(streamIndex) is \(info.kind.rawValue), not video", url: url)
    }
    return try VideoDecoder(stream: stream, info: info, threadCount: threadCount)
  }

  /// Makes a decoder for the audio stream at `streamIndex`.
  ///
  /// Throws `.invalidArgument` for an index that is not an audio stream,
  /// `.decoderUnavailable` when FFmpeg has no decoder for its codec.
  public func makeAudioDecoder(streamIndex: Int) throws(PlayheadError) -> AudioDecoder {
    let info = try streamInfo(streamIndex)
    guard info.kind == .audio, let stream = format.stream(streamIndex) else {
      throw PlayheadError(
        .invalidArgument, "Stream \(streamIndex) is \(info.kind.rawValue), not audio", url: url)
    }
    return try AudioDecoder(stream: stream, info: info)
  }

  /// Makes a decoder for the text subtitle stream at `streamIndex`.
  ///
  /// Throws `.invalidArgument` for an index that is not a subtitle stream,
  /// `.unsupportedFormat` for bitmap subtitles, `.decoderUnavailable` when FFmpeg has no
  /// decoder for its codec.
  public func makeSubtitleDecoder(streamIndex: Int) throws(PlayheadError) -> SubtitleDecoder {
    let info = try streamInfo(streamIndex)
    guard info.kind == .subtitle, let stream = format.stream(streamIndex) else {
      throw PlayheadError(
        .invalidArgument, "Stream \(streamIndex) is \(info.kind.rawValue), not subtitles",
        url: url)
    }
    return try SubtitleDecoder(stream: stream, info: info)
  }
}
