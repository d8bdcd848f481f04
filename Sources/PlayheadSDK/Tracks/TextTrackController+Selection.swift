import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadText

extension TextTrackController {
  /// The item is ready: adds the rendition and audio options, finds the audio language and
  /// chooses a track unless one was selected by hand. On `work`, once.
  func itemBecameReady(_ item: PlayerItem) {
    let base = item.asset.url
    let renditions = item.renditions
    var audio = renditions.compactMap { AudioTrackOption(rendition: $0, relativeTo: base) }
    if audio.isEmpty {
      let tracks = item.tracks.filter { $0.kind == .audio }
      audio = tracks.enumerated().compactMap { index, track in
        AudioTrackOption(track: track, isFirst: index == 0)
      }
    }
    let played =
      audio.first { $0.isDefault } ?? audio.first { $0.autoselect } ?? audio.first
    let proceed = write { state -> Bool in
      guard !state.closed, !state.readyHandled else { return false }
      state.readyHandled = true
      let known = Set(state.options.map(\.id))
      state.options += renditions.compactMap { TextTrackOption(rendition: $0, relativeTo: base) }
        .filter { !known.contains($0.id) }
      state.audioOptions = audio
      state.audioLanguage = state.preferences.audioLanguage ?? played?.language
      return true
    }
    guard proceed else { return }
    chooseAutomatically()
  }

  /// Applies the preferences' choice (and says so even when nothing changes), unless a
  /// track was selected by hand. On `work`.
  func chooseAutomatically() {
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
    guard let generation else { return }
    if generation < 0 {
      deliver([.selectionChanged(selected, isAutomatic: true)])
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
      events.append(.selectionChanged(state.selected, isAutomatic: isAutomatic))
      return (events, tokens, loader)
    }
    guard let change else { return }
    change.loader?.cancel()
    for token in change.tokens { player?.removeTimeObserver(token) }
    deliver(change.events)
    guard let option = selected else { return }
    load(option, generation: generation)
  }

  /// Starts fetching `option`'s cues for selection `generation`. On `work`.
  private func load(_ option: TextTrackOption, generation: Int) {
    switch option.source {
    case .sidecar(let url):
      let fetcher = self.fetcher
      DispatchQueue.global().async { [weak self] in
        let result = Result { () throws(PlayheadError) -> WebVTTDocument in
          try fetcher.webVTT(at: url)
        }
        self?.onWork { controller in
          switch result {
          case .success(let document):
            controller.cuesArrived(
              document.cues, for: option, generation: generation, isComplete: true)
          case .failure(let error):
            controller.loadFailed(error, for: option, generation: generation)
          }
        }
      }
    case .inManifest(_, _, let uri):
      guard let uri else { return }
      let variant = (player?.currentItem?.currentVariant?.uri).flatMap { URL(string: $0) }
      let handlers = HLSSubtitleLoader.Handlers(
        cues: { [weak self] cues in
          self?.onWork { controller in
            controller.cuesArrived(cues, for: option, generation: generation, isComplete: false)
          }
        },
        caughtUp: { [weak self] in
          self?.onWork { $0.allLoaded(option, generation: generation) }
        },
        failed: { [weak self] error in
          self?.onWork { $0.loadFailed(error, for: option, generation: generation) }
        })
      let loader = HLSSubtitleLoader(
        playlistURL: uri, variantURL: variant, fetcher: fetcher,
        lookAhead: configuration.lookAhead, waitClock: waitClock, handlers: handlers)
      let position = player?.currentTime() ?? .zero
      let started = write { state -> Bool in
        guard !state.closed, state.generation == generation else { return false }
        state.loader = loader
        return true
      }
      if started { loader.start(at: position) }
    }
  }

  /// Runs `body` on `work` with the controller, if it still exists then.
  func onWork(_ body: @escaping @Sendable (TextTrackController) -> Void) {
    work.async { [weak self] in
      guard let self else { return }
      body(self)
    }
  }

  /// Cues of the selected track arrived: they join the timeline, get boundary observers,
  /// and the timeline is brought to the play position. On `work`.
  private func cuesArrived(
    _ newCues: [WebVTTCue], for option: TextTrackOption, generation: Int, isComplete: Bool
  ) {
    let position = player?.currentTime() ?? .zero
    let maximumStep = configuration.safeProgressInterval + configuration.safeProgressInterval
    let outcome = write { state -> (added: [TextCue], events: [TextTrackEvent])? in
      guard !state.closed, state.appliedGeneration == generation, var timeline = state.timeline
      else { return nil }
      let added = timeline.add(newCues)
      let time = max(position, timeline.position ?? position)
      var events = timeline.move(to: time, continuous: false, maximumStep: maximumStep)
        .map { Self.event(for: $0, at: time) }
      if isComplete && !state.loadedSent {
        state.loadedSent = true
        events.append(.loaded(option, cueCount: timeline.cues.count))
      }
      state.timeline = timeline
      return (added, events)
    }
    guard let outcome else { return }
    addBoundaries(for: outcome.added, generation: generation)
    deliver(outcome.events)
  }

  /// Every segment up to the horizon is in: `loaded`, once per selection. On `work`.
  private func allLoaded(_ option: TextTrackOption, generation: Int) {
    let count = write { state -> Int? in
      guard !state.closed, state.appliedGeneration == generation, !state.loadedSent else {
        return nil
      }
      state.loadedSent = true
      return state.timeline?.cues.count ?? 0
    }
    if let count { deliver([.loaded(option, cueCount: count)]) }
  }

  /// A load of the selected track failed. On `work`.
  private func loadFailed(_ error: PlayheadError, for option: TextTrackOption, generation: Int) {
    let current = read { !$0.closed && $0.appliedGeneration == generation }
    if current { deliver([.failed(option, error)]) }
  }

  /// The event for a timeline change at `time`.
  static func event(for change: TextCueTimeline.Change, at time: MediaTime) -> TextTrackEvent {
    switch change {
    case .enter(let cue): return .cueEntered(cue, time: time)
    case .exit(let cue): return .cueExited(cue, time: time)
    }
  }
}
