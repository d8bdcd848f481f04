import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

extension TextTrackController {
  /// The item is ready: adds the rendition and audio options (the variant's SUBTITLES and
  /// AUDIO groups, closed captions, or the file's audio streams), applies the preferred
  /// audio languages, finds the audio language and chooses a text track unless one was
  /// selected by hand. On `work`, once.
  func itemBecameReady(_ item: PlayerItem) {
    let base = item.asset.url
    var renditions: [String: RenditionInfo] = [:]
    var textOptions: [TextTrackOption] = []
    for rendition in item.subtitleRenditions
      + item.renditions.filter({ $0.type == "closedCaptions" })
    {
      guard let option = TextTrackOption(rendition: rendition, relativeTo: base) else { continue }
      renditions[option.id] = rendition
      textOptions.append(option)
    }
    var audio: [AudioTrackOption] = []
    for rendition in item.audioRenditions {
      // A file's audio stream reads as its track does when listed only (`probe` too).
      let track = rendition.streamIndex.flatMap { index in
        item.tracks.first { $0.id == index && $0.kind == .audio }
      }
      guard
        let option = track.flatMap({ AudioTrackOption(track: $0, isFirst: rendition.isDefault) })
          ?? AudioTrackOption(rendition: rendition, relativeTo: base)
      else { continue }
      renditions[option.id] = rendition
      audio.append(option)
    }
    if audio.isEmpty {
      let tracks = item.tracks.filter { $0.kind == .audio }
      audio = tracks.enumerated().compactMap { index, track in
        AudioTrackOption(track: track, isFirst: index == 0)
      }
    }
    let playing = preferredAudio(in: item) ?? item.selectedAudioRendition
    let playingOption = audio.first { option in renditions[option.id].map { $0 == playing } ?? false
    }
    let proceed = write { state -> Bool in
      guard !state.closed, !state.readyHandled else { return false }
      state.readyHandled = true
      let known = Set(state.options.map(\.id))
      state.options += textOptions.filter { !known.contains($0.id) }
      state.renditions.merge(renditions) { _, new in new }
      state.audioOptions = audio
      state.selectedAudio = item.audioRenditions.isEmpty ? audio.first : playingOption
      state.audioLanguage = state.selectedAudio?.language
      return true
    }
    guard proceed else { return }
    chooseAutomatically(announcingNoChange: true)
  }

  /// Applies the preferences' choice unless a track was selected by hand; with
  /// `announcingNoChange` (at ready) `selectionChanged` is sent even when the choice is the
  /// track already selected. On `work`.
  func chooseAutomatically(announcingNoChange: Bool) {
    let generation = write { state -> Int? in
      guard !state.closed, !state.selectedByHand else { return nil }
      let choice = state.preferences.choose(
        from: state.options, audioLanguage: state.audioLanguage)
      if choice == state.selected && state.appliedGeneration == state.generation {
        return -1
      }
      state.selected = choice
      state.generation += 1
      return state.generation
    }
    guard let generation else {
      // Selected by hand (or closed): that selection goes to the engine now.
      handPendingSelectionToEngine()
      releaseStartHold()
      return
    }
    if generation < 0 {
      if selected == nil { releaseStartHold() }
      if announcingNoChange { deliver([.selectionChanged(selected, isAutomatic: true)]) }
      return
    }
    applySelection(generation: generation, isAutomatic: true)
  }

  /// Puts selection `generation` in place: the old track's active cues exit,
  /// `selectionChanged` is sent and the new track is handed to the engine, whose text
  /// renderer reads and times its cues. A generation already replaced is skipped. On
  /// `work`.
  func applySelection(generation: Int, isAutomatic: Bool) {
    let time = player?.currentTime() ?? .zero
    let events = write { state -> [TextTrackEvent]? in
      guard !state.closed, state.generation == generation else { return nil }
      var events: [TextTrackEvent] = state.active.sorted { ($0.end, $0.id) < ($1.end, $1.id) }
        .map { .cueExited($0, time: time) }
      state.active = []
      state.engineTrack = nil
      state.appliedGeneration = generation
      state.loadedSent = false
      events.append(.selectionChanged(state.selected, isAutomatic: isAutomatic))
      return events
    }
    guard let events else { return }
    deliver(events)
    selectInEngine(selected, generation: generation)
    // The engine has the choice (its renderer holds a fast start until the cues are in).
    releaseStartHold()
  }

  /// Hands a selection made before the item was there to the engine, at ready. On `work`.
  func handPendingSelectionToEngine() {
    let pending = read { state -> Int? in
      state.enginePending && !state.closed ? state.appliedGeneration : nil
    }
    guard let generation = pending else { return }
    selectInEngine(selected, generation: generation)
  }
}
