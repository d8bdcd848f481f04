import Foundation
import Playhead

/// What `probe` lists as text and audio tracks, in the SDK's terms (the IDs a session's
/// `textTracks` uses): for HLS the master playlist's renditions, for a file its subtitle
/// and audio streams.
struct ProbeTracks: Sendable {
  /// One text track.
  struct TextEntry: Sendable {
    var id: String
    var kind: String
    var label: String
    var language: String?
    var isDefault: Bool
    var isForced: Bool
    /// Whether `play --subtitles` can show it (HLS WebVTT renditions and a file's text
    /// subtitle streams; not closed captions carried in the video, nor bitmap subtitles).
    var isSelectable: Bool
    /// `inManifest` or `embedded`.
    var source: String
    /// The rendition's playlist, or the stream's codec.
    var detail: String?
  }

  var text: [TextEntry]
  var audio: [AudioTrackOption]

  /// The tracks of an HLS stream's renditions (URIs resolved against `base`).
  init(renditions: [Rendition], base: URL) {
    let infos = renditions.map { rendition in
      RenditionInfo(
        type: Self.typeName(rendition.type), groupID: rendition.groupID, name: rendition.name,
        language: rendition.language, isDefault: rendition.isDefault,
        autoselect: rendition.autoselect, forced: rendition.forced,
        uri: rendition.uri?.absoluteString)
    }
    text = infos.compactMap { TextTrackOption(rendition: $0, relativeTo: base) }.map { option in
      var uri: String?
      if case .inManifest(_, _, let url) = option.source { uri = url?.absoluteString }
      return TextEntry(
        id: option.id, kind: option.kind.rawValue, label: option.label,
        language: option.language, isDefault: option.isDefault, isForced: option.isForced,
        isSelectable: option.isSelectable, source: "inManifest", detail: uri)
    }
    audio = infos.compactMap { AudioTrackOption(rendition: $0, relativeTo: base) }
  }

  /// The subtitle and audio streams of a file.
  init(tracks: [AssetTrack]) {
    text = tracks.filter { $0.kind == .subtitle }.map { track in
      let language = TrackLanguage.normalized(track.languageCode) == nil ? nil : track.languageCode
      return TextEntry(
        id: "stream:\(track.id)", kind: "subtitles",
        label: TextTrackOption.label(track.title, language: language), language: language,
        isDefault: track.isDefault, isForced: track.isForced,
        isSelectable: track.isTextSubtitle, source: "embedded", detail: track.codec)
    }
    let audioTracks = tracks.filter { $0.kind == .audio }
    audio = audioTracks.enumerated().compactMap { index, track in
      AudioTrackOption(track: track, isFirst: index == 0)
    }
  }

  private static func typeName(_ type: RenditionType) -> String {
    switch type {
    case .audio: return "audio"
    case .video: return "video"
    case .subtitles: return "subtitles"
    case .closedCaptions: return "closedCaptions"
    }
  }

  // MARK: Output

  /// `textTracks` and `audioTracks` for `probe --json`.
  var jsonFields: [JSONField] {
    let textValues = text.map { entry in
      JSONValue.object([
        JSONField("id", .string(entry.id)),
        JSONField("kind", .string(entry.kind)),
        JSONField("label", .string(entry.label)),
        JSONField("language", .text(entry.language)),
        JSONField("default", .bool(entry.isDefault)),
        JSONField("forced", .bool(entry.isForced)),
        JSONField("selectable", .bool(entry.isSelectable)),
        JSONField("source", .string(entry.source)),
        JSONField(entry.source == "embedded" ? "codec" : "uri", .text(entry.detail)),
      ])
    }
    let audioValues = audio.map { option in
      var uri: String?
      var source = "embedded"
      if case .inManifest(_, _, let url) = option.source {
        uri = url?.absoluteString
        source = "inManifest"
      }
      return JSONValue.object([
        JSONField("id", .string(option.id)),
        JSONField("label", .string(option.label)),
        JSONField("language", .text(option.language)),
        JSONField("default", .bool(option.isDefault)),
        JSONField("source", .string(source)),
        JSONField("uri", .text(uri)),
      ])
    }
    return [
      JSONField("textTracks", .array(textValues)), JSONField("audioTracks", .array(audioValues)),
    ]
  }

  /// `text track …` and `audio track …` lines.
  var textLines: [String] {
    var lines: [String] = []
    for entry in text {
      var parts = ["text track", entry.id, entry.kind, "\"\(entry.label)\""]
      if let language = entry.language { parts.append("[\(language)]") }
      if entry.isDefault { parts.append("default") }
      if entry.isForced { parts.append("forced") }
      if !entry.isSelectable { parts.append("(not shown)") }
      lines.append(parts.joined(separator: "  "))
    }
    for option in audio {
      var parts = ["audio track", option.id, "\"\(option.label)\""]
      if let language = option.language { parts.append("[\(language)]") }
      if option.isDefault { parts.append("default") }
      lines.append(parts.joined(separator: "  "))
    }
    return lines
  }
}
