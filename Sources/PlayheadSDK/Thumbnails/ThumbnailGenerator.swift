import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadText

/// One image file a `ThumbnailGenerator` made: a thumbnail or a sprite sheet.
public struct GeneratedImageFile: Sendable, Equatable {
  /// The file name, which the thumbnails file refers to (`thumb-0001.jpg`, `sprite-001.jpg`).
  public var name: String
  /// The encoded image.
  public var data: Data
  /// The image's size in pixels.
  public var width: Int
  public var height: Int
}

/// What a `ThumbnailGenerator` run made.
public struct GeneratedThumbnails: Sendable, Equatable {
  /// The thumbnails file: one cue per thumbnail, payloads relative to the file.
  public var document: WebVTTDocument
  /// The image files, in the order they were made (their bytes were given to the sink).
  public var imageNames: [String]
  /// How many thumbnails.
  public var thumbnailCount: Int
  /// The size of each thumbnail in pixels.
  public var thumbnailWidth: Int
  public var thumbnailHeight: Int
  /// Where the last cue ends: the video's duration, or the last thumbnail's time plus the
  /// interval when the duration is unknown.
  public var end: MediaTime
  /// How many frames were decoded and how many seeks it took.
  public var decodedFrameCount: Int
  public var seekCount: Int

  /// The thumbnails file as text.
  public var vttText: String { WebVTTWriter.write(document) }
}

/// Makes seek thumbnails from a video: the frame shown every `intervalSeconds`, scaled,
/// as single images or sprite sheets, and the WebVTT thumbnails file that points at them
/// (payloads `thumb-0001.jpg`, or `sprite-001.jpg#xywh=x,y,w,h`). The file round-trips
/// through `ThumbnailTrack`.
///
/// Works on progressive media that FFmpeg demuxes (MP4, MPEG-TS, WebM, …) from a file or
/// over HTTP; not on HLS playlists. It decodes forward and seeks (to the keyframe before a
/// time) only when the next thumbnail is more than 3 s past the last decoded frame, so
/// short intervals decode every frame once and long ones skip most of the video.
///
/// Cue `k` covers `[k × interval, (k + 1) × interval)`, in whole milliseconds, the last one
/// cut at the duration; its picture is the frame shown at the cue's start (the latest frame
/// at or before it, as `playhead snapshot` takes). A video with a known duration gets a
/// thumbnail for every cue start before its end (the last frame is held after the video
/// track ends); with an unknown duration, thumbnails stop after the last frame.
///
/// ```swift
/// let options = ThumbnailGeneratorOptions(
///   intervalSeconds: 10, sprite: .init(columns: 5, rows: 5))
/// let result = try ThumbnailGenerator.generate(from: url, options: options) { file in
///   try write(file.data, to: directory.appendingPathComponent(file.name))
/// }
/// try Data(result.vttText.utf8).write(to: directory.appendingPathComponent("thumbnails.vtt"))
/// ```
public enum ThumbnailGenerator {
  /// Makes the thumbnails of the video at `url`, handing each image file to `sink` as soon
  /// as it is complete.
  ///
  /// Throws `.invalidArgument` for unusable options (or a sprite sheet wider or taller
  /// than `ImageCodec.maximumSide`, or more thumbnails than `maximumThumbnails`); the
  /// source's errors (`.fileNotFound`, `.httpStatus`, …); `.unsupportedFormat` for data
  /// that is not progressive media (an HLS playlist, whatever its name, a DASH manifest, a
  /// format outside `ContainerFormats.media`); `.noPlayableStreams` without a video track;
  /// `.decodeFailed` when
  /// no frame decodes; and whatever `sink` throws.
  public static func generate(
    from url: URL, options: ThumbnailGeneratorOptions,
    through stack: DataSourceStack = DataSourceStack(),
    sink: (GeneratedImageFile) throws(PlayheadError) -> Void
  ) throws(PlayheadError) -> GeneratedThumbnails {
    if let problem = options.problem { throw PlayheadError(.invalidArgument, problem) }
    let reader = DataSourceReader(
      source: stack.makeDataSource(), request: DataRequest(url: url, purpose: .media))
    try reader.open()
    let content = try ContentSniffer.sniff(reader)
    if let refusal = content.refusal(at: url) { throw refusal }
    if content == .hlsPlaylist {
      reader.cancel()
      throw PlayheadError(
        .unsupportedFormat,
        "thumbnails are made from progressive media (MP4, MPEG-TS, WebM, ...), not from HLS "
          + "playlists: \(url.absoluteString)", url: url)
    }
    let demuxer = try Demuxer(reader: reader)
    let sampler = try ThumbnailFrameSampler(demuxer: demuxer)
    let duration = demuxer.duration.isNumeric ? demuxer.duration : nil
    let intervalMs = max(1, Int64((options.intervalSeconds * 1000).rounded()))
    if let duration {
      let count = Int((duration.seconds * 1000 / Double(intervalMs)).rounded(.up))
      if count > options.maximumThumbnails {
        throw PlayheadError(
          .invalidArgument,
          "an interval of \(options.intervalSeconds) s makes \(count) thumbnails of a "
            + "\(duration.seconds) s video; the limit is \(options.maximumThumbnails)")
      }
    }
    let converter = VideoConverter()
    var builder: ThumbnailSheetBuilder?
    var cues: [WebVTTCue] = []
    var names: [String] = []
    var tileSize: (width: Int, height: Int)?
    var index = 0
    while index < options.maximumThumbnails {
      let start = MediaTime(value: Int64(index) * intervalMs, timescale: 1000)
      if let duration, start >= duration, index > 0 { break }
      guard let (frame, pastEnd) = try sampler.frame(at: start) else { break }
      if pastEnd && duration == nil { break }
      let image = try converter.convert(frame, width: options.width, height: nil, gravity: .stretch)
      if tileSize == nil {
        tileSize = (image.width, image.height)
        builder = try ThumbnailSheetBuilder(
          options: options, tileWidth: image.width, tileHeight: image.height)
      }
      guard let sheets = builder else { break }
      var end = MediaTime(value: Int64(index + 1) * intervalMs, timescale: 1000)
      if let duration, end > duration { end = duration.convertScale(1000) }
      if end <= start { end = start + MediaTime(value: 1, timescale: 1000) }
      let payload = try sheets.add(image) { file throws(PlayheadError) in
        names.append(file.name)
        try sink(file)
      }
      cues.append(WebVTTCue(start: start, end: end, text: payload))
      index += 1
    }
    guard let tileSize, let sheets = builder else {
      throw PlayheadError(
        .decodeFailed, "no video frame could be decoded from \(url.absoluteString)", url: url)
    }
    try sheets.finish { file throws(PlayheadError) in
      names.append(file.name)
      try sink(file)
    }
    return GeneratedThumbnails(
      document: WebVTTDocument(cues: cues), imageNames: names, thumbnailCount: cues.count,
      thumbnailWidth: tileSize.width, thumbnailHeight: tileSize.height,
      end: cues.last?.end ?? .zero, decodedFrameCount: sampler.decodedFrameCount,
      seekCount: sampler.seekCount)
  }
}
