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
      // Selected by hand (or closed): that selection's load lets the start go.
      return
    }
    if generation < 0 {
      if selected == nil { releaseStartHold() }
      if announcingNoChange { deliver([.selectionChanged(selected, isAutomatic: true)]) }
      return
    }
    applySelection(generation: generation, isAutomatic: true)
  }

  /// Puts selection `generation` in place: the old track's cues exit, its loads and cue
  /// observers stop, `selectionChanged` is sent and the new track's cues are fetched. A
  /// generation already replaced is skipped. On `work`.
  func applySelection(generation: Int, isAutomatic: Bool) {
    let position = player?.currentTime() ?? .zero
    let change = write {
      state -> (events: [TextTrackEvent], tokens: [ObserverToken], loader: HLSSubtitleLoader?)? in
      guard !state.closed, state.generation == generation else { return nil }
      var events: [TextTrackEvent] = []
      if var timeline = state.timeline {
        let time = timeline.position ?? position
        events += timeline.clear().map { Self.event(for: $0, at: time) }
      }
      state.timeline = state.selected.map {
        TextCueTimeline(trackID: $0.id, language: $0.language)
      }
      state.appliedGeneration = generation
      state.loadedSent = false
      let tokens = state.boundaryTokens
      state.boundaryTokens = []
      state.boundaryTimes = []
      let loader = state.loader
      state.loader = nil
      state.pendingRendition = nil
      events.append(.selectionChanged(state.selected, isAutomatic: isAutomatic))
      return (events, tokens, loader)
    }
    guard let change else { return }
    change.loader?.cancel()
    for token in change.tokens { player?.removeTimeObserver(token) }
    let option = selected
    if option.map({ if case .inManifest = $0.source { return false } else { return true } }) ?? true
    {
      releaseEngineSubtitles()
    }
    deliver(change.events)
    guard let option else {
      releaseStartHold()
      return
    }
    load(option, generation: generation)
  }
}
