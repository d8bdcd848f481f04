import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadText

extension TextTrackController {
  /// Hands selection `option` (nil: none) to the engine's text renderer: a sidecar file is
  /// added to the item as a sidecar track, a rendition is selected as it is. When the item
  /// is not there (or not ready) yet, the selection is handed over when it is ready.
  /// On `work`.
  func selectInEngine(_ option: TextTrackOption?, generation: Int) {
    guard let item = player?.currentItem else {
      write { state in state.enginePending = state.appliedGeneration == generation }
      return
    }
    let track: RenditionInfo?
    switch option?.source {
    case nil:
      track = nil
    case .sidecar(let url):
      track = item.addSidecarTextTrack(
        url: url, language: option?.language, label: option?.label,
        isDefault: option?.isDefault ?? false, forced: option?.isForced ?? false)
    case .inManifest, .embedded:
      guard let rendition = option.flatMap({ option in read { $0.renditions[option.id] } }) else {
        write { state in state.enginePending = state.appliedGeneration == generation }
        return
      }
      track = rendition
    }
    let current = write { state -> Bool in
      guard !state.closed, state.appliedGeneration == generation else { return false }
      state.engineTrack = track
      state.enginePending = false
      return true
    }
    guard current else { return }
    if track != nil || item.selectedTextTrack != nil {
      item.subtitleLookAhead = configuration.lookAhead
      item.textNetwork = configuration.network
      if !item.selectTextTrack(track) {
        write { state in state.enginePending = state.appliedGeneration == generation }
      }
    }
  }

  /// One of the engine's text events: cue enters and exits of the selection's track
  /// become `cueEntered` / `cueExited`, its loading `loaded` / `failed`; events of any
  /// other track (an earlier selection) are dropped. On `work`.
  func engineTextEvent(_ event: PlayerEvent) {
    let events = write { state -> [TextTrackEvent] in
      guard !state.closed, let option = state.selected, let track = state.engineTrack else {
        return []
      }
      switch event.kind {
      case .textCueEntered(_, let cue) where cue.track == track:
        let textCue = Self.textCue(cue, of: option)
        guard !state.active.contains(where: { $0.id == cue.id }) else { return [] }
        state.active.append(textCue)
        state.active.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        return [.cueEntered(textCue, time: event.itemTime)]
      case .textCueExited(_, let cue) where cue.track == track:
        guard let index = state.active.firstIndex(where: { $0.id == cue.id }) else { return [] }
        let textCue = state.active.remove(at: index)
        return [.cueExited(textCue, time: event.itemTime)]
      case .textTrackLoaded(_, let loaded, let count) where loaded == track:
        guard !state.loadedSent else { return [] }
        state.loadedSent = true
        return [.loaded(option, cueCount: count)]
      case .textTrackFailed(_, let failed, let error) where failed == track:
        return [.failed(option, error)]
      default:
        return []
      }
    }
    deliver(events)
  }

  /// The engine's cue as the controller's, for the selected `option`.
  static func textCue(_ cue: TimedTextCue, of option: TextTrackOption) -> TextCue {
    TextCue(id: cue.id, trackID: option.id, language: option.language, cue: cue.cue)
  }

  /// Runs `body` on `work` with the controller, if it still exists then.
  func onWork(_ body: @escaping @Sendable (TextTrackController) -> Void) {
    work.async { [weak self] in
      guard let self else { return }
      body(self)
    }
  }
}
