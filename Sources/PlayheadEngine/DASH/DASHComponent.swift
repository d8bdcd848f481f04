import Foundation
import PlayheadDASH

/// What an AdaptationSet carries, as the segment engine sorts them: video for the
/// variants, audio for the audio renditions, text for the subtitle renditions; trick-mode
/// and thumbnail sets and anything else are not played.
enum DASHComponent: Sendable, Equatable {
  case video
  case audio
  case text
  case other

  /// `set`'s component: its `@contentType` (or `@mimeType`), else its Representations'
  /// MIME type, else their codecs.
  init(_ set: MPDAdaptationSet) {
    if set.isTrickMode || set.isThumbnailTiles {
      self = .other
      return
    }
    let first = set.representations.first
    let type = (set.contentType ?? first?.mimeType?.split(separator: "/").first.map(String.init))?
      .lowercased()
    switch type {
    case "video": self = .video
    case "audio": self = .audio
    case "text": self = .text
    case "application":
      self = Self.byCodecs(set.codecs ?? first?.codecs, mimeType: set.mimeType ?? first?.mimeType)
    default:
      self = Self.byCodecs(set.codecs ?? first?.codecs, mimeType: set.mimeType ?? first?.mimeType)
    }
  }

  private static func byCodecs(_ codecs: String?, mimeType: String?) -> DASHComponent {
    let mime = mimeType?.lowercased() ?? ""
    if mime.contains("ttml") || mime.contains("vtt") { return .text }
    guard let first = codecs?.split(separator: ",").first?.lowercased() else { return .other }
    let videoPrefixes = ["avc", "hvc", "hev", "vp08", "vp09", "vp8", "vp9", "av01", "mp4v"]
    let audioPrefixes = ["mp4a", "ac-3", "ec-3", "opus", "flac", "vorbis", "mp3", "ac-4"]
    let textPrefixes = ["wvtt", "stpp", "tx3g"]
    if videoPrefixes.contains(where: first.hasPrefix) { return .video }
    if audioPrefixes.contains(where: first.hasPrefix) { return .audio }
    if textPrefixes.contains(where: first.hasPrefix) { return .text }
    return .other
  }
}

extension MPDAdaptationSet {
  /// What the set carries (`DASHComponent`).
  var component: DASHComponent { DASHComponent(self) }

  /// Whether the set is a WebVTT file the text engine reads (`text/vtt`, not `wvtt` in
  /// fMP4 nor TTML).
  var isWebVTTFile: Bool {
    let mime = (mimeType ?? representations.first?.mimeType ?? "").lowercased()
    return mime == "text/vtt"
  }

  /// Whether the set is fMP4 text the text engine reads: `wvtt` (WebVTT in MP4) or `stpp`
  /// (TTML in MP4) by its codecs, in `application/mp4`.
  var isFragmentedText: Bool {
    let first = representations.first
    let mime = (mimeType ?? first?.mimeType ?? "").lowercased()
    guard mime == "application/mp4" else { return false }
    let codecs = (codecs ?? first?.codecs ?? "").lowercased()
    return codecs.hasPrefix("wvtt") || codecs.hasPrefix("stpp")
  }

  /// Whether the set is text the engine offers as a subtitle rendition (a WebVTT file or
  /// fMP4 text).
  var isPlayableText: Bool { isWebVTTFile || isFragmentedText }

  /// Whether the set's Role says it is the main one (`urn:mpeg:dash:role:2011` `main`).
  var isMain: Bool {
    roles.contains { $0.schemeIDURI == "urn:mpeg:dash:role:2011" && $0.value == "main" }
  }

  /// A name for menus: its Label, else its language, else its id.
  func displayName(fallback: String) -> String {
    labels.first ?? language ?? id.map { "\(fallback) \($0)" } ?? fallback
  }
}
