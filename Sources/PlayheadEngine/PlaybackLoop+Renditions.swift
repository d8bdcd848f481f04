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

  /// Mirrors the loader's rendition lists and selections into the item (before the
  /// item is reported ready, so they are there when `readyToPlay` arrives).
  func mirrorRenditions(_ active: ActiveItem, _ loaderStatus: LoaderStatus) {
    let item = active.item
    if loaderStatus.audioSelectionChanges != active.reportedAudioSelectionChanges
      || loaderStatus.audioRenditions != item.audioRenditions
    {
      active.reportedAudioSelectionChanges = loaderStatus.audioSelectionChanges
      item.update {
        $0.audioRenditions = loaderStatus.audioRenditions
        $0.selectedAudioRendition = loaderStatus.selectedAudioRendition
      }
    }
    if loaderStatus.subtitleSelectionChanges != active.reportedSubtitleSelectionChanges
      || loaderStatus.subtitleRenditions != item.subtitleRenditions
    {
      active.reportedSubtitleSelectionChanges = loaderStatus.subtitleSelectionChanges
      item.update {
        $0.subtitleRenditions = loaderStatus.subtitleRenditions
        $0.selectedSubtitleRendition = loaderStatus.selectedSubtitleRendition
        $0.subtitleSegments = loaderStatus.subtitleSegments
      }
    }
  }

  /// Mirrors the renditions into the item and raises an event for each selection that
  /// changed since the last one reported.
  func reportRenditions(_ active: ActiveItem, _ loaderStatus: LoaderStatus) {
    mirrorRenditions(active, loaderStatus)
    if loaderStatus.audioSelectionChanges > 0,
      active.emittedAudioRendition != .some(loaderStatus.selectedAudioRendition)
    {
      active.emittedAudioRendition = .some(loaderStatus.selectedAudioRendition)
      emit(.audioRenditionChanged(active.item, loaderStatus.selectedAudioRendition))
    }
    if loaderStatus.subtitleSelectionChanges > 0,
      active.emittedSubtitleRendition != .some(loaderStatus.selectedSubtitleRendition)
    {
      active.emittedSubtitleRendition = .some(loaderStatus.selectedSubtitleRendition)
      emit(.subtitleRenditionChanged(active.item, loaderStatus.selectedSubtitleRendition))
    }
  }
}
