import Foundation
import Playhead

/// `play --sub-file FILE`: a WebVTT file shown as a subtitle track of the media, as mpv's
/// `--sub-file` (a path or an http(s) URL).
///
/// Its language is the tag before `.vtt` in the name (`movie.fr.vtt`, `movie.pt-BR.vtt`),
/// else none; its label is the file's name. The engine's containment rule applies: a local
/// file goes with local media only (for network media its loading fails with
/// `unsupportedScheme`, reported on standard error, and playback goes on).
struct SubtitleFile: Sendable, Equatable {
  var url: URL
  var language: String?
  var label: String

  /// Reads the option's value; throws a usage error for a file that is not WebVTT.
  init(argument: String) throws(UsageError) {
    let url = URLArgument.url(fromArgument: argument)
    guard url.pathExtension.lowercased() == "vtt" else {
      throw UsageError("option '--sub-file' needs a WebVTT file (.vtt), not '\(argument)'")
    }
    self.url = url
    label = url.lastPathComponent
    language = Self.language(inName: url.deletingPathExtension().lastPathComponent)
  }

  /// The language tag that ends `name` after a dot (`movie.fr` → `fr`): a primary subtag
  /// of 2 or 3 letters, optionally with a region or script (`pt-BR`, `zh-Hant`).
  static func language(inName name: String) -> String? {
    guard let dot = name.lastIndex(of: ".") else { return nil }
    let tag = String(name[name.index(after: dot)...])
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
    guard let primary = parts.first, (2...3).contains(primary.count),
      primary.allSatisfy({ $0.isASCII && $0.isLetter }),
      parts.dropFirst().allSatisfy({
        (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
      }),
      TrackLanguage.normalized(tag) != nil
    else { return nil }
    return tag
  }

  /// The SDK's sidecar track for the file.
  var textTrack: TextTrack {
    TextTrack(src: url, srclang: language, label: label, kind: "subtitles")
  }

  /// Adds the file to `item` as a sidecar text track, as the SDK's text tracks add it
  /// when it is selected (the same track, so it is listed once).
  @discardableResult
  func add(to item: PlayerItem) -> RenditionInfo {
    item.addSidecarTextTrack(url: url, language: language, label: label)
  }
}
