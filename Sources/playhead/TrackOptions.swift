import Foundation
import Playhead

/// `--subtitles LANG`, `--sub-file FILE`, `--audio LANG` and `--decrypt-key-hex HEX`: the
/// tracks `play` shows and hears; `download` takes `--audio` and `--subtitles` for the
/// renditions it fetches.
struct TrackOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--subtitles", "--sub-file", "--audio", "--decrypt-key-hex"]

  /// `--subtitles LANG`.
  var subtitles: String?
  /// `--sub-file FILE` (repeatable): WebVTT files shown as subtitle tracks of the media.
  var subtitleFiles: [SubtitleFile] = []
  /// `--audio LANG`.
  var audio: String?
  /// `--decrypt-key-hex HEX`: the key of an offline download encrypted at rest.
  var offlineKey: [UInt8]?

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--subtitles": subtitles = try ArgumentValue.language(text, option: name)
    case "--sub-file": subtitleFiles.append(try SubtitleFile(argument: text))
    case "--audio": audio = try ArgumentValue.language(text, option: name)
    default: offlineKey = try ArgumentValue.key(text, option: name)
    }
  }

  /// Whether subtitles are shown: `--subtitles LANG` or a `--sub-file`.
  var showsSubtitles: Bool { subtitles != nil || !subtitleFiles.isEmpty }
}
