import Foundation

/// Writes playlist models as M3U8 text.
///
/// For any playlist the parser returns, parsing the written text gives an equal model
/// (warnings aside, since they describe the original text). The output uses LF line
/// breaks, writes every byte range with its offset, writes `EXT-X-KEY`, `EXT-X-MAP` and
/// `EXT-X-BITRATE` only where they change, and puts unknown tags and date ranges back at
/// their positions. Variables are written as `EXT-X-DEFINE` `NAME`/`VALUE` pairs, and every
/// value that substitution produced as the text it was substituted from (its `{$name}`
/// references), so that it reads back the same; a value set in code is written as it is.
/// Double quotes and line breaks in quoted values, and definitions holding them, do not
/// survive.
public enum PlaylistWriter {
  /// The M3U8 text of `playlist`.
  public static func write(_ playlist: Playlist) -> String {
    switch playlist {
    case .master(let master): return write(master)
    case .media(let media): return write(media)
    }
  }

  /// The M3U8 text of a master playlist.
  public static func write(_ playlist: MasterPlaylist) -> String {
    var output = MasterPlaylistWriter(playlist: playlist)
    return SubstitutionSources.$writing.withValue(playlist.substitutionSources) { output.write() }
  }

  /// The M3U8 text of a media playlist.
  public static func write(_ playlist: MediaPlaylist) -> String {
    var output = MediaPlaylistWriter(playlist: playlist)
    return SubstitutionSources.$writing.withValue(playlist.substitutionSources) { output.write() }
  }
}

/// Lines shared by both playlist kinds.
enum CommonTagText {
  static func start(_ start: StartPoint) -> String {
    var attributes = AttributeWriter()
    attributes.plain("TIME-OFFSET", WriterFormat.decimal(start.timeOffset))
    attributes.yes("PRECISE", start.precise)
    return "#EXT-X-START:" + attributes.text
  }

  /// One `EXT-X-DEFINE` per variable, by name; values with a double quote or a line feed
  /// cannot be written and are left out.
  static func definitions(_ definitions: [String: String]) -> [String] {
    definitions.keys.sorted().compactMap { name in
      guard let value = definitions[name],
        !value.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\n" })
      else { return nil }
      return "#EXT-X-DEFINE:NAME=\"\(name)\",VALUE=\"\(value)\""
    }
  }

  static func key(_ key: EncryptionKey, tag: String) -> String {
    var attributes = AttributeWriter()
    attributes.plain("METHOD", key.method.rawValue)
    attributes.quoted("URI", key.uriString)
    attributes.plain("IV", key.iv.map(WriterFormat.hex))
    if key.keyFormat != "identity" { attributes.quoted("KEYFORMAT", key.keyFormat) }
    attributes.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
    return tag + ":" + attributes.text
  }
}
