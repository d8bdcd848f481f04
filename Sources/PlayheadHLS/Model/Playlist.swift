import Foundation
import PlayheadCore

/// A parsed M3U8 playlist: a master (multivariant) playlist or a media playlist.
///
/// Which one is decided by the text: a playlist whose first decisive tag is
/// `EXT-X-STREAM-INF` or `EXT-X-I-FRAME-STREAM-INF` is a master playlist; one whose first
/// decisive tag is `EXTINF`, or that has neither, is a media playlist.
public enum Playlist: Sendable, Equatable {
  /// A master playlist: variants, renditions and session data.
  case master(MasterPlaylist)
  /// A media playlist: segments.
  case media(MediaPlaylist)

  /// The URL the playlist was loaded from; relative URIs resolve against it.
  public var url: URL {
    switch self {
    case .master(let playlist): return playlist.url
    case .media(let playlist): return playlist.url
    }
  }

  /// The master playlist, or nil for a media playlist.
  public var masterPlaylist: MasterPlaylist? {
    if case .master(let playlist) = self { return playlist }
    return nil
  }

  /// The media playlist, or nil for a master playlist.
  public var mediaPlaylist: MediaPlaylist? {
    if case .media(let playlist) = self { return playlist }
    return nil
  }

  /// The recoverable oddities found while parsing, in line order.
  public var warnings: [ParseWarning] {
    switch self {
    case .master(let playlist): return playlist.warnings
    case .media(let playlist): return playlist.warnings
    }
  }

  /// The variables defined by `EXT-X-DEFINE` (name to value), imported ones included.
  public var definitions: [String: String] {
    switch self {
    case .master(let playlist): return playlist.definitions
    case .media(let playlist): return playlist.definitions
    }
  }

  /// The same playlist without its warnings.
  ///
  /// Warnings describe the text a playlist was parsed from, not the model, so round-trip
  /// comparisons (`parse(write(p))` against `p`) compare playlists without them.
  public var withoutWarnings: Playlist {
    switch self {
    case .master(var playlist):
      playlist.warnings = []
      return .master(playlist)
    case .media(var playlist):
      playlist.warnings = []
      return .media(playlist)
    }
  }
}

/// A tag the parser does not model, kept verbatim so that the writer can put it back.
///
/// Tags of the wrong playlist kind (a segment tag in a master playlist, for example) and
/// informational tags too malformed to model are kept this way as well, with a warning.
public struct UnknownTag: Sendable, Hashable {
  /// The whole line, from `#EXT` to its end (trailing whitespace removed).
  public var text: String
  /// Where the tag stood: in a media playlist, the index of the segment whose tags follow
  /// it (`segments.count` after the last segment); in a master playlist, the index of the
  /// variant that follows it.
  public var position: Int

  public init(text: String, position: Int) {
    self.text = text
    self.position = position
  }
}

/// `EXT-X-START`: where playback should preferably start.
public struct StartPoint: Sendable, Hashable {
  /// Seconds from the start of the playlist, or from its end when negative.
  public var timeOffset: MediaTime
  /// Whether playback starts exactly there (`PRECISE=YES`) or at the segment holding it.
  public var precise: Bool

  public init(timeOffset: MediaTime, precise: Bool = false) {
    self.timeOffset = timeOffset
    self.precise = precise
  }
}

/// A recoverable oddity found while parsing.
public struct ParseWarning: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line it was found on (0 when it concerns the whole playlist).
  public var line: Int
  /// A one-line description.
  public var message: String

  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}
