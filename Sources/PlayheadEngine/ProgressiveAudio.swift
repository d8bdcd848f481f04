import Foundation
import PlayheadCore
import PlayheadMedia

/// The audio streams of a progressive file (MP4, MKV, …) as audio renditions, so that they
/// are listed and selected the way an HLS AUDIO group is (`PlayerItem.audioRenditions`).
enum ProgressiveAudio {
  /// The GROUP-ID of a file's audio streams.
  static let groupID = "stream"

  /// One rendition per decodable audio stream of `demuxer`, in stream order, when there are
  /// at least two; empty otherwise (one stream offers no choice, as a variant without an
  /// AUDIO group). The stream the demuxer picks by default (`bestStream(of: .audio)`, which
  /// prefers the container's default flag) is the DEFAULT rendition; every stream is
  /// AUTOSELECT.
  static func renditions(of demuxer: Demuxer) -> [RenditionInfo] {
    let streams = demuxer.streams.filter { $0.kind == .audio && $0.hasDecoder }
    guard streams.count >= 2 else { return [] }
    let preferred = demuxer.bestStream(of: .audio)?.index
    return streams.enumerated().map { place, stream in
      RenditionInfo(
        type: "audio", groupID: groupID,
        name: stream.title ?? stream.language ?? "Audio \(place + 1)",
        language: stream.language, isDefault: stream.index == preferred, autoselect: true,
        forced: false, uri: nil, streamIndex: stream.index)
    }
  }
}
