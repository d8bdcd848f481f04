import Foundation
import PlayheadCore

/// Parses M3U8 playlists (RFC 8216 and draft-pantos-hls-rfc8216bis) into models.
///
/// Parsing works on the UTF-8 bytes in one pass, in time linear in the input. The bad-input
/// policy: structural problems are fatal and throw a `PlaylistParseError` naming the line
/// (see its `Kind`); recoverable oddities become `warnings` on the returned playlist.
/// `PlaylistParserLimits` bounds size, line length, counts and variable expansion.
///
/// ```swift
/// let playlist = try PlaylistParser.parse(data, url: playlistURL)
/// if case .media(let media) = playlist { print(media.segments.count) }
/// ```
public enum PlaylistParser {
  /// Parses `data`, fetched from `url` (relative URIs resolve against it, and its scheme
  /// decides which URI schemes the playlist may use).
  ///
  /// A leading UTF-8 byte-order mark and CRLF line breaks are accepted.
  public static func parse(
    _ data: Data, url: URL, limits: PlaylistParserLimits = .default
  ) throws(PlaylistParseError) -> Playlist {
    try parse(data, url: url, importable: nil, limits: limits)
  }

  /// Parses a media playlist `data` whose `EXT-X-DEFINE IMPORT` tags take their values
  /// from `masterDefinitions` (the master playlist's `definitions`).
  public static func parse(
    _ data: Data, url: URL, importing masterDefinitions: [String: String],
    limits: PlaylistParserLimits = .default
  ) throws(PlaylistParseError) -> Playlist {
    try parse(data, url: url, importable: masterDefinitions, limits: limits)
  }

  /// Parses playlist text (see `parse(_:url:limits:)` for `Data`).
  public static func parse(
    _ text: String, url: URL, limits: PlaylistParserLimits = .default
  ) throws(PlaylistParseError) -> Playlist {
    try parse(Data(text.utf8), url: url, importable: nil, limits: limits)
  }

  /// Parses media playlist text whose `IMPORT` variables come from `masterDefinitions`.
  public static func parse(
    _ text: String, url: URL, importing masterDefinitions: [String: String],
    limits: PlaylistParserLimits = .default
  ) throws(PlaylistParseError) -> Playlist {
    try parse(Data(text.utf8), url: url, importable: masterDefinitions, limits: limits)
  }

  private static func parse(
    _ data: Data, url: URL, importable: [String: String]?, limits: PlaylistParserLimits
  ) throws(PlaylistParseError) -> Playlist {
    guard data.count <= limits.maxBytes else {
      throw PlaylistParseError(
        .limitExceeded, line: 0,
        "playlist is \(data.count) bytes, more than the limit of \(limits.maxBytes)")
    }
    let result: Result<Playlist, PlaylistParseError> = data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      do throws(PlaylistParseError) {
        return .success(
          try parse(ByteText(bytes: bytes), url: url, importable: importable, limits: limits))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func parse(
    _ text: ByteText, url: URL, importable: [String: String]?, limits: PlaylistParserLimits
  ) throws(PlaylistParseError) -> Playlist {
    var start = 0
    let bytes = text.bytes
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
    if bytes[start...].allSatisfy({ ByteText.isBlank($0) || $0 == 0x0A || $0 == 0x0D }) {
      throw PlaylistParseError(
        .emptyPlaylist, line: bytes.isEmpty ? 0 : 1,
        bytes.isEmpty
          ? "the playlist is empty (0 bytes)" : "the playlist is empty (only blank lines)")
    }
    var reader = LineReader(text: text, start: start, maxLineLength: limits.maxLineLength)
    guard let first = try reader.next(), text.equals(text.trimmed(first), "#EXTM3U") else {
      throw PlaylistParseError(.missingHeader, line: 1, "the first line is not #EXTM3U")
    }
    let context = ParserContext(text: text, url: url, limits: limits, importable: importable)
    if PlaylistKindDetector.isMaster(
      text, from: reader.position, maxLineLength: limits.maxLineLength)
    {
      var builder = MasterPlaylistBuilder(context: context)
      return .master(try builder.parse(&reader))
    }
    var builder = MediaPlaylistBuilder(context: context)
    return .media(try builder.parse(&reader))
  }
}
