import Foundation
import Playhead

/// `play --audio LANG`: the audio track in LANG, for HLS audio renditions and the audio
/// streams of a file alike (`PlayerItem.audioRenditions`).
///
/// The item starts with `preferredAudioLanguages = [LANG]`, so the engine decodes the
/// track from the start; when the ready item plays another one (an HLS rendition in LANG
/// that is not AUTOSELECT), it is selected then, before playback starts. An item with no
/// audio track in LANG fails the run with a usage error (exit status 2), unless it offers
/// no choice and its audio is not tagged with a language (then that audio plays).
struct AudioChoice: Sendable {
  /// The language asked for.
  var language: String

  /// What to do once the item is ready.
  enum Decision: Equatable, Sendable {
    /// The track in the language plays: its description (`French [fra]`).
    case playing(String)
    /// The rendition (or stream) in the language must be selected first.
    case select(RenditionInfo)
    /// No audio track is in the language; the message says which are.
    case missing(String)
  }

  /// Asks the engine for the language before the item loads.
  func apply(to item: PlayerItem) {
    item.preferredAudioLanguages = [language]
  }

  /// The decision for the ready `item`.
  func decide(for item: PlayerItem) -> Decision {
    let renditions = item.audioRenditions
    if renditions.isEmpty {
      // Nothing to choose from: the one audio stream, if any, must be in the language.
      let tracks = item.tracks.filter { $0.kind == .audio }
      if let track = tracks.first(where: { matches($0.languageCode) }) {
        let option = AudioTrackOption(track: track, isFirst: true)
        return .playing(Self.describe(label: option?.label, language: track.languageCode))
      }
      // Untagged audio may well be in the language: with no choice, it plays.
      if let only = tracks.first,
        tracks.allSatisfy({ TrackLanguage.normalized($0.languageCode) == nil })
      {
        let label = only.title ?? "the only audio track"
        return .playing("\(label) (its language is not tagged)")
      }
      return .missing(missingMessage(available: tracks.map(\.languageCode)))
    }
    if let playing = item.selectedAudioRendition, matches(playing.language) {
      return .playing(Self.describe(playing))
    }
    let best = renditions.max { lhs, rhs in
      TrackLanguage.match(lhs.language, language) < TrackLanguage.match(rhs.language, language)
    }
    if let best, matches(best.language) { return .select(best) }
    return .missing(missingMessage(available: renditions.map(\.language)))
  }

  /// Whether `tag` is in the language asked for (the same language, whatever the subtags
  /// and code form: `fra` and `fre` are `fr`).
  private func matches(_ tag: String?) -> Bool {
    TrackLanguage.match(tag, language) != .none
  }

  private func missingMessage(available: [String?]) -> String {
    let languages = available.map { $0 ?? "und" }
    return "option '--audio' asks for audio in '\(language)', but there is no audio track in it "
      + "(available: \(languages.isEmpty ? "none" : languages.joined(separator: ", ")))"
  }

  /// `NAME [LANGUAGE]` for an audio rendition or stream.
  static func describe(_ rendition: RenditionInfo) -> String {
    describe(label: rendition.name, language: rendition.language)
  }

  private static func describe(label: String?, language: String?) -> String {
    let name = label ?? language ?? "unknown"
    guard let language, language != name else { return name }
    return "\(name) [\(language)]"
  }
}
