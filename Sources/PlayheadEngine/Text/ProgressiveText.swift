import Foundation
import PlayheadCore
import PlayheadMedia

/// The text subtitle streams of a progressive file (MKV, MP4, …) as subtitle renditions,
/// listed and selected the way an HLS SUBTITLES group is (`PlayerItem.subtitleRenditions`).
enum ProgressiveText {
  /// The GROUP-ID of a file's subtitle streams.
  static let groupID = "stream"
  /// How long a cue shows when neither its packet nor its decoder says.
  static let fallbackCueDuration = MediaTime(value: 5, timescale: 1)
  /// How far before a seek's target the file is read for the subtitle cues still showing
  /// there: a cue that started longer before is not found by the seek.
  static let seekPreroll = MediaTime(value: 5, timescale: 1)

  /// One rendition per text subtitle stream of `demuxer` that FFmpeg can decode, in stream
  /// order (bitmap subtitles are left out: they have no text). The container's default
  /// and forced flags carry over; every stream is AUTOSELECT.
  static func renditions(of demuxer: Demuxer) -> [RenditionInfo] {
    let streams = demuxer.streams.filter { $0.isTextSubtitle && $0.hasDecoder }
    return streams.enumerated().map { place, stream in
      RenditionInfo(
        type: "subtitles", groupID: groupID,
        name: stream.title ?? stream.language ?? "Subtitles \(place + 1)",
        language: stream.language, isDefault: stream.isDefault, autoselect: true,
        forced: stream.isForced, uri: nil, streamIndex: stream.index)
    }
  }
}

/// One subtitle event of a file's stream, on the item timeline.
struct EmbeddedTextEvent: Sendable {
  var streamIndex: Int
  var start: MediaTime
  var end: MediaTime
  var text: String
}
