import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// What a text track is for (the HTML `kind` of a `<track>`), open to other values.
///
/// Only `subtitles` and `captions` are rendered as cues; the other kinds are listed.
public struct TextTrackKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Makes a kind; the value is lowercased (`Captions` is `captions`).
  public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

  public var description: String { rawValue }

  /// A translation of the dialogue.
  public static let subtitles = TextTrackKind(rawValue: "subtitles")
  /// A transcription of the dialogue and sounds, for viewers who cannot hear them.
  public static let captions = TextTrackKind(rawValue: "captions")
  /// Text descriptions of the video, meant to be read aloud.
  public static let descriptions = TextTrackKind(rawValue: "descriptions")
  /// Chapter titles.
  public static let chapters = TextTrackKind(rawValue: "chapters")
  /// Data for scripts, not for viewers.
  public static let metadata = TextTrackKind(rawValue: "metadata")

  /// Whether cues of this kind are delivered when the track is selected.
  public var isRendered: Bool { self == .subtitles || self == .captions }
}

/// One text track a session can show: a sidecar WebVTT file of the video or a subtitle
/// rendition of the HLS stream (the seed platform's media-selection option).
///
/// Options compare by value; `id` is stable for a session (`sidecar:<index in the video's
/// text tracks>`, `hls:<group>:<name>`).
public struct TextTrackOption: Sendable, Hashable, Identifiable, CustomStringConvertible {
  /// Where the cues come from.
  public enum Source: Sendable, Hashable {
    /// A WebVTT file at a URL: a text track of the video (from the catalog or by hand).
    case sidecar(URL)
    /// A rendition of the HLS master playlist: `EXT-X-MEDIA` `SUBTITLES` with its media
    /// playlist of WebVTT segments, or `CLOSED-CAPTIONS` (no URI: carried in the video, not
    /// rendered).
    case inManifest(groupID: String, name: String, uri: URL?)
    /// A text subtitle stream of the media file (SubRip, ASS, WebVTT, MP4 timed text), by
    /// its container stream index; the engine reads its cues along with the media.
    case embedded(streamIndex: Int)
  }

  /// Unique among a session's options.
  public let id: String
  /// The BCP 47 language, when the track states one.
  public let language: String?
  /// The name to show in a menu: the track's label, else its language, else "Unknown
  /// language" in the SDK's language.
  public let label: String
  public let kind: TextTrackKind
  /// The track is marked on by default (`default: true`, `DEFAULT=YES`).
  public let isDefault: Bool
  /// The track only translates what the audio does not say in its own language
  /// (`FORCED=YES`, or `"forced": true` in a sidecar track's catalog fields).
  public let isForced: Bool
  /// HLS `AUTOSELECT`; sidecar tracks are always true.
  public let autoselect: Bool
  public let source: Source
  /// Whether the track can be selected: a rendered kind with a WebVTT document to fetch, or
  /// a text subtitle stream of the file.
  public let isSelectable: Bool

  public init(
    id: String, language: String?, label: String, kind: TextTrackKind, isDefault: Bool = false,
    isForced: Bool = false, autoselect: Bool = true, source: Source, isSelectable: Bool
  ) {
    self.id = id
    self.language = language
    self.label = label
    self.kind = kind
    self.isDefault = isDefault
    self.isForced = isForced
    self.autoselect = autoselect
    self.source = source
    self.isSelectable = isSelectable
  }

  public var description: String {
    var text = "\(id) \(kind) \"\(label)\""
    if let language { text += " [\(language)]" }
    if isDefault { text += " default" }
    if isForced { text += " forced" }
    return text
  }

  /// The option for the video's text track at `index`; nil for a track without `src` (an
  /// in-band track of the catalog, which the stream's renditions list instead).
  ///
  /// Selectable when the kind is rendered and the file is WebVTT (a MIME type naming `vtt`,
  /// or none with a `.vtt` path or no extension).
  public init?(sidecar track: TextTrack, index: Int) {
    guard let src = track.src else { return nil }
    let kind = TextTrackKind(rawValue: track.kind)
    let forced = track.properties["forced"]?.boolValue ?? false
    let isWebVTT: Bool
    if let mime = track.mimeType?.lowercased(), !mime.isEmpty {
      isWebVTT = mime.contains("vtt")
    } else {
      let ext = src.pathExtension.lowercased()
      isWebVTT = ext == "vtt" || ext.isEmpty
    }
    self.init(
      id: "sidecar:\(index)", language: track.srclang,
      label: Self.label(track.label, language: track.srclang), kind: kind,
      isDefault: track.isDefault, isForced: forced, autoselect: true, source: .sidecar(src),
      isSelectable: kind.isRendered && isWebVTT)
  }

  /// The option for an HLS rendition of type `subtitles` or `closedCaptions`, or for a text
  /// subtitle stream of a file that the engine lists as a rendition (`streamIndex` set:
  /// `stream:<index>`, labelled by its NAME); nil for other types. `base` resolves a
  /// relative URI.
  public init?(rendition: RenditionInfo, relativeTo base: URL? = nil) {
    let kind: TextTrackKind
    switch rendition.type {
    case "subtitles": kind = .subtitles
    case "closedCaptions": kind = .captions
    default: return nil
    }
    if let index = rendition.streamIndex {
      let language =
        TrackLanguage.normalized(rendition.language) == nil ? nil : rendition.language
      self.init(
        id: "stream:\(index)", language: language,
        label: Self.label(rendition.name, language: language), kind: kind,
        isDefault: rendition.isDefault, isForced: rendition.forced,
        autoselect: rendition.autoselect, source: .embedded(streamIndex: index),
        isSelectable: kind == .subtitles)
      return
    }
    let uri = rendition.uri.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    self.init(
      id: "hls:\(rendition.groupID):\(rendition.name)", language: rendition.language,
      label: Self.label(rendition.name, language: rendition.language), kind: kind,
      isDefault: rendition.isDefault, isForced: rendition.forced,
      autoselect: rendition.autoselect,
      source: .inManifest(groupID: rendition.groupID, name: rendition.name, uri: uri),
      isSelectable: kind == .subtitles && uri != nil)
  }

  /// A label, or the language, or "Unknown language".
  public static func label(_ label: String?, language: String?) -> String {
    if let label, !label.isEmpty { return label }
    if let language, !language.isEmpty { return language }
    return Localization.shared.string(.unknownLanguage)
  }
}

/// One audio track of a session: an alternate audio rendition of the HLS stream or an
/// audio stream of the media file.
///
/// `TextTrackController.selectAudio(_:)` plays it through the engine's audio rendition
/// selection; the one stream of a file with a single audio stream is listed only (see
/// docs/tracks.md).
public struct AudioTrackOption: Sendable, Hashable, Identifiable, CustomStringConvertible {
  /// Where the audio comes from.
  public enum Source: Sendable, Hashable {
    /// An `EXT-X-MEDIA TYPE=AUDIO` rendition (`uri` nil when carried in the variants).
    case inManifest(groupID: String, name: String, uri: URL?)
    /// An audio stream of the file, by its container stream index.
    case embedded(streamIndex: Int)
  }

  /// Unique among a session's audio options (`hls:<group>:<name>`, `stream:<index>`).
  public let id: String
  public let language: String?
  public let label: String
  public let isDefault: Bool
  public let autoselect: Bool
  public let source: Source

  public init(
    id: String, language: String?, label: String, isDefault: Bool, autoselect: Bool,
    source: Source
  ) {
    self.id = id
    self.language = language
    self.label = label
    self.isDefault = isDefault
    self.autoselect = autoselect
    self.source = source
  }

  public var description: String {
    var text = "\(id) \"\(label)\""
    if let language { text += " [\(language)]" }
    if isDefault { text += " default" }
    return text
  }

  /// The option for an HLS rendition of type `audio`, or for an audio stream of a file
  /// that the engine lists as a rendition (`streamIndex` set: `stream:<index>`, labelled
  /// by its NAME); nil for other types.
  public init?(rendition: RenditionInfo, relativeTo base: URL? = nil) {
    guard rendition.type == "audio" else { return nil }
    if let index = rendition.streamIndex {
      let language =
        TrackLanguage.normalized(rendition.language) == nil ? nil : rendition.language
      self.init(
        id: "stream:\(index)", language: language,
        label: TextTrackOption.label(rendition.name, language: language),
        isDefault: rendition.isDefault, autoselect: rendition.autoselect,
        source: .embedded(streamIndex: index))
      return
    }
    let uri = rendition.uri.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    self.init(
      id: "hls:\(rendition.groupID):\(rendition.name)", language: rendition.language,
      label: TextTrackOption.label(rendition.name, language: rendition.language),
      isDefault: rendition.isDefault, autoselect: rendition.autoselect,
      source: .inManifest(groupID: rendition.groupID, name: rendition.name, uri: uri))
  }

  /// The option for an audio stream of a file, labelled by its title, else its language;
  /// nil for other kinds of track.
  public init?(track: AssetTrack, isFirst: Bool) {
    guard track.kind == .audio else { return nil }
    let language = TrackLanguage.normalized(track.languageCode) == nil ? nil : track.languageCode
    self.init(
      id: "stream:\(track.id)", language: language,
      label: TextTrackOption.label(track.title, language: language), isDefault: isFirst,
      autoselect: true, source: .embedded(streamIndex: track.id))
  }
}
