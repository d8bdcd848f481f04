import Foundation
import PlayheadEngine

/// How a session chooses its text track when the item becomes ready (until the
/// application selects one by hand).
///
/// `languages` are the viewer's languages, most preferred first (BCP 47; `en` matches
/// `en-US`, an exact tag wins over a language-only match). The audio language is the
/// application's `audioLanguage`, else the default audio rendition's, else the language
/// of the file's first audio stream; unknown when none is stated. The rules, by `mode`
/// (docs/tracks.md has a table):
///
/// - `automatic`: if the viewer understands the audio (its language is one of
///   `languages`, or it is unknown and `languages` is not empty), the forced track in the
///   audio's language (or the first preferred language when the audio's is unknown), else
///   the default track, else none. Otherwise: the first full (not forced) track in a
///   preferred language, trying the languages in order; else the default track; else the
///   forced track in the audio's language; else none.
/// - `always` (subtitles on): the first full track in a preferred language; else the
///   default track; else the forced track in the audio's language (or the first preferred
///   language); else none.
/// - `forcedOnly` (subtitles off): the forced track in the audio's language (or the first
///   preferred language); else none.
///
/// "The default track" is the first selectable track marked default, full tracks before
/// forced ones. Within one language, the exact tag first, then a default track, then the
/// options' order.
public struct TextTrackPreferences: Sendable, Equatable {
  /// When a text track is shown without the application choosing one.
  public enum Mode: String, Sendable, CaseIterable {
    /// Subtitles when the audio is in a language the viewer did not list; otherwise only
    /// forced subtitles (or a default track).
    case automatic
    /// Subtitles in a preferred language whatever the audio (a "subtitles on" switch).
    case always
    /// Only forced subtitles for the audio's language (a "subtitles off" switch).
    case forcedOnly
  }

  /// The viewer's languages, most preferred first.
  public var languages: [String]
  public var mode: Mode
  /// The audio's language when the application knows it better than the stream; nil to
  /// take it from the stream.
  public var audioLanguage: String?

  public init(languages: [String] = [], mode: Mode = .automatic, audioLanguage: String? = nil) {
    self.languages = languages
    self.mode = mode
    self.audioLanguage = audioLanguage
  }

  /// The option these preferences choose among `options` (see the type's rules); nil for
  /// none. Options that are not selectable are never chosen.
  public func choose(from options: [TextTrackOption], audioLanguage streamAudio: String?)
    -> TextTrackOption?
  {
    let candidates = options.filter(\.isSelectable)
    let audio = TrackLanguage.normalized(audioLanguage ?? streamAudio)
    let wanted = languages.compactMap { TrackLanguage.normalized($0) }
    let defaultOption =
      candidates.first { $0.isDefault && !$0.isForced } ?? candidates.first { $0.isDefault }
    let forcedLanguage = audio ?? wanted.first
    let forced = forcedLanguage.flatMap { Self.best(in: candidates, forced: true, language: $0) }
    func firstFull() -> TextTrackOption? {
      for language in wanted {
        if let option = Self.best(in: candidates, forced: false, language: language) {
          return option
        }
      }
      return nil
    }
    switch mode {
    case .automatic:
      let understood =
        audio.map { audio in wanted.contains { TrackLanguage.match(audio, $0) != .none } }
        ?? !wanted.isEmpty
      if understood { return forced ?? defaultOption }
      return firstFull() ?? defaultOption ?? forced
    case .always:
      return firstFull() ?? defaultOption ?? forced
    case .forcedOnly:
      return forced
    }
  }

  /// The best option in `language` that is (or is not) forced: an exact tag first, then a
  /// default track, then the first.
  private static func best(in options: [TextTrackOption], forced: Bool, language: String)
    -> TextTrackOption?
  {
    var chosen: (option: TextTrackOption, score: Int)?
    for option in options where option.isForced == forced {
      let match = TrackLanguage.match(option.language, language)
      guard match != .none else { continue }
      let score = match.rawValue * 2 + (option.isDefault ? 1 : 0)
      if chosen == nil || score > chosen?.score ?? 0 { chosen = (option, score) }
    }
    return chosen?.option
  }
}
