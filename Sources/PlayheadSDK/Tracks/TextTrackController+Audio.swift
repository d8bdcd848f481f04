import Foundation
import PlayheadCore
import PlayheadEngine

extension TextTrackController {
  /// The audio rendition `configuration.preferredAudioLanguages` asks for, when it differs
  /// from the engine's start choice; asks the engine to switch to it and returns it. On
  /// `work`, at ready.
  func preferredAudio(in item: PlayerItem) -> RenditionInfo? {
    let languages = configuration.preferredAudioLanguages
    let group = item.audioRenditions
    guard !languages.isEmpty, !group.isEmpty else { return nil }
    let candidates = group.filter { $0.autoselect || $0.isDefault }
    var choice: RenditionInfo?
    for language in languages where choice == nil {
      var best: (rendition: RenditionInfo, match: TrackLanguage.Match)?
      for rendition in candidates {
        let match = TrackLanguage.match(rendition.language, language)
        if match != .none && match > best?.match ?? .none { best = (rendition, match) }
      }
      choice = best?.rendition
    }
    guard let choice, choice != item.selectedAudioRendition,
      item.selectAudioRendition(choice)
    else { return nil }
    write { state in state.pendingAudio = choice }
    return choice
  }

  /// The engine switched the audio rendition: the selected audio and its language change,
  /// `audioChanged` is sent, and the preferences choose the text track again (the forced
  /// track follows the audio) unless it was selected by hand. On `work`.
  func audioChanged(in item: PlayerItem, to rendition: RenditionInfo?) {
    let changed = write { state -> AudioTrackOption?? in
      guard !state.closed, state.readyHandled else { return nil }
      // Until the engine has made the switch asked at ready, its earlier choice is stale.
      if let pending = state.pendingAudio {
        guard pending == rendition else { return nil }
        state.pendingAudio = nil
      }
      let option = state.audioOptions.first { state.renditions[$0.id] == rendition }
      guard option != state.selectedAudio else { return nil }
      state.selectedAudio = option
      state.audioLanguage = option?.language
      return .some(option)
    }
    guard let changed else { return }
    deliver([.audioChanged(changed)])
    chooseAutomatically(announcingNoChange: false)
  }
}
