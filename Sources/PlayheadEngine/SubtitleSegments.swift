import Foundation
import PlayheadCore
import PlayheadHLS

/// One segment of a subtitle rendition (a WebVTT file, or fMP4 text under an
/// initialization section) and where it lies on the item timeline.
public struct SubtitleSegment: Sendable, Equatable {
  /// The segment's URL, resolved against its media playlist.
  public var url: URL
  /// The item time the segment covers, from the playlist's durations (on the live
  /// timeline for live streams).
  public var timeRange: MediaTimeRange
  /// What the segment's bytes are.
  public var format: SubtitleSegmentFormat
  /// The segment's bytes in `url` (`EXT-X-BYTERANGE`, a DASH media range); nil for the
  /// whole resource. Read for fMP4 segments; a WebVTT segment is fetched whole.
  public var byteRange: ByteRange?
  /// The initialization section an fMP4 segment is read with (`EXT-X-MAP`, a DASH
  /// Representation's `Initialization`); nil for WebVTT.
  public var initialization: SubtitleInitialization?

  /// A WebVTT segment.
  public init(url: URL, timeRange: MediaTimeRange) {
    self.init(url: url, timeRange: timeRange, format: .webVTT)
  }

  /// A segment of `format`; an fMP4 one needs its `initialization`.
  public init(
    url: URL, timeRange: MediaTimeRange, format: SubtitleSegmentFormat,
    byteRange: ByteRange? = nil, initialization: SubtitleInitialization? = nil
  ) {
    self.url = url
    self.timeRange = timeRange
    self.format = format
    self.byteRange = byteRange
    self.initialization = initialization
  }
}

/// What a subtitle segment's bytes are.
public enum SubtitleSegmentFormat: String, Sendable, Equatable, CaseIterable {
  /// A WebVTT file (placed by its `X-TIMESTAMP-MAP`).
  case webVTT
  /// Fragmented MP4 text, `wvtt` or `stpp` (ISO/IEC 14496-30), read with its
  /// initialization section; its cues are placed from the segment's first sample time.
  case fragmentedMP4
}

/// Where a subtitle segment's initialization section is: a URL and, optionally, a byte
/// range of it.
public struct SubtitleInitialization: Sendable, Hashable {
  /// The section's URL.
  public var url: URL
  /// Its bytes in `url`; nil for the whole resource.
  public var byteRange: ByteRange?

  public init(url: URL, byteRange: ByteRange? = nil) {
    self.url = url
    self.byteRange = byteRange
  }
}

/// The segments of the selected subtitle rendition, for a cue reader to fetch and parse.
///
/// The player does not read the cues itself. For a live stream the list is the playlist
/// as fetched when the rendition was selected; selecting it again fetches it anew.
public struct SubtitleSegmentList: Sendable, Equatable {
  /// The rendition the segments belong to.
  public var rendition: RenditionInfo
  /// The rendition's media playlist.
  public var playlistURL: URL
  /// The segments in playlist order.
  public var segments: [SubtitleSegment]
  /// Whether the playlist has its end list (false for a live snapshot).
  public var isComplete: Bool

  public init(
    rendition: RenditionInfo, playlistURL: URL, segments: [SubtitleSegment], isComplete: Bool
  ) {
    self.rendition = rendition
    self.playlistURL = playlistURL
    self.segments = segments
    self.isComplete = isComplete
  }

  /// The segments whose time range contains `time`.
  public func segments(at time: MediaTime) -> [SubtitleSegment] {
    segments.filter { $0.timeRange.start <= time && time < $0.timeRange.end }
  }
}

/// The rules that pick an alternate rendition from a variant's group (or an audio stream
/// of a file from the file's audio streams).
///
/// Languages compare as `TrackLanguage` does: case and `_`/`-` aside, ISO 639-2 codes as
/// their two-letter form (`fra` and `fre` are `fr`).
enum RenditionChoice {
  /// The audio rendition an item starts with: for each preferred language in order, an
  /// AUTOSELECT (or DEFAULT) rendition in that language (the same tag first, then the
  /// same primary language: `fr-CA` finds `fr`); else the DEFAULT rendition; else the
  /// first. Nil for an empty group.
  static func startRendition(in group: [RenditionInfo], preferredLanguages: [String])
    -> RenditionInfo?
  {
    let candidates = group.filter { $0.autoselect || $0.isDefault }
    for preferred in preferredLanguages {
      if let exact = candidates.first(where: { languageMatches($0.language, preferred) }) {
        return exact
      }
      if let close = candidates.first(where: {
        TrackLanguage.match($0.language, preferred) == .language
      }) {
        return close
      }
    }
    return group.first { $0.isDefault } ?? group.first
  }

  /// The rendition of `group` that stands for `selected`: the same one, else the one
  /// with the same NAME (a variant switch to another group), else one in the same
  /// language. Nil when nothing matches.
  static func counterpart(of selected: RenditionInfo, in group: [RenditionInfo])
    -> RenditionInfo?
  {
    if group.contains(selected) { return selected }
    if let named = group.first(where: { $0.name == selected.name }) { return named }
    guard let language = selected.language else { return nil }
    return group.first { languageMatches($0.language, language) }
  }

  /// Whether two language tags are the same: equal ignoring case, or the same tag once
  /// normalised (`fra` = `fr`, `en_GB` = `en-GB`).
  static func languageMatches(_ language: String?, _ preferred: String) -> Bool {
    guard let language else { return false }
    return language.lowercased() == preferred.lowercased()
      || TrackLanguage.match(language, preferred) == .exact
  }
}

extension SubtitleSegment {
  /// The subtitle segment of a media playlist's `segment` starting at item time `start`: fMP4
  /// text when it has an initialization section (`EXT-X-MAP`), else WebVTT.
  init(_ segment: MediaSegment, start: MediaTime) {
    let range = MediaTimeRange(start: start, duration: segment.duration)
    guard let map = segment.map else {
      self.init(url: segment.uri, timeRange: range)
      return
    }
    self.init(
      url: segment.uri, timeRange: range, format: .fragmentedMP4, byteRange: segment.byteRange,
      initialization: SubtitleInitialization(url: map.uri, byteRange: map.byteRange))
  }
}
