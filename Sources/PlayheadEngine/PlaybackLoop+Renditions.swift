import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// Posts the application's audio rendition choice for `item` to its loader.
  func audioRenditionSelected(_ rendition: RenditionInfo?, for item: PlayerItem) {
    post { loop in
      guard let active = loop.current, active.item === item else { return }
      active.loader.selectAudioRendition(RenditionSelection(rendition: rendition))
    }
  }

  /// Raises an event for each rendition selection that changed since the last one
  /// reported (the loader's messages put them in the item).
  func reportRenditions(_ active: ActiveItem) {
    let audio = active.state.selectedAudioRendition
    let subtitle = active.state.selectedSubtitleRendition
    if active.audioSelectionKnown, active.emittedAudioRendition != .some(audio) {
      active.emittedAudioRendition = .some(audio)
      emit(.audioRenditionChanged(active.item, audio))
    }
    if active.subtitleSelectionKnown, active.emittedSubtitleRendition != .some(subtitle) {
      active.emittedSubtitleRendition = .some(subtitle)
      emit(.subtitleRenditionChanged(active.item, subtitle))
    }
  }
}
