import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadText

/// A subtitle rendition asked of the engine, waiting for its segment list.
struct PendingRendition {
  var generation: Int
  var option: TextTrackOption
  var rendition: RenditionInfo
}

extension TextTrackController {
  /// Starts fetching `option`'s cues for selection `generation`: a sidecar file at once, a
  /// subtitle rendition once the engine has selected it and loaded its segment list.
  /// On `work`.
  func load(_ option: TextTrackOption, generation: Int) {
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
    case .inManifest:
      selectInEngine(option, generation: generation)
    }
  }

  /// Asks the engine to select `option`'s rendition (`PlayerItem.selectSubtitleRendition`);
  /// its segment list arrives with `subtitleRenditionChanged`, or at once when the engine
  /// already has it. On `work`.
  private func selectInEngine(_ option: TextTrackOption, generation: Int) {
    guard let item = player?.currentItem, let rendition = read({ $0.renditions[option.id] }) else {
      loadFailed(
        PlayheadError(.invalidState, "subtitle rendition \(option.label): the item is gone"),
        for: option, generation: generation)
      return
    }
    if item.selectedSubtitleRendition == rendition, let list = item.subtitleSegments,
      list.rendition == rendition
    {
      write { state in state.engineSubtitle = rendition }
      startLoader(list, for: option, generation: generation)
      return
    }
    write { state in
      state.pendingRendition = PendingRendition(
        generation: generation, option: option, rendition: rendition)
      state.engineSubtitle = rendition
    }
    if !item.selectSubtitleRendition(rendition) {
      write { state in state.pendingRendition = nil }
      loadFailed(
        PlayheadError(
          .invalidState,
          "subtitle rendition \(option.label) cannot be selected: the item is not ready"),
        for: option, generation: generation)
    }
  }

  /// The engine's subtitle selection changed: the segment list a pending selection waits
  /// for. On `work`.
  func engineSubtitlesChanged(_ item: PlayerItem, to rendition: RenditionInfo?) {
    let pending = write { state -> PendingRendition? in
      guard let pending = state.pendingRendition, pending.rendition == rendition else {
        return nil
      }
      state.pendingRendition = nil
      return pending
    }
    guard let pending, let list = item.subtitleSegments, list.rendition == pending.rendition else {
      return
    }
    startLoader(list, for: pending.option, generation: pending.generation)
  }

  /// The engine logged an error: when it is the pending rendition's playlist, that
  /// selection failed. On `work`.
  func engineLoggedError(_ error: PlayheadError) {
    let pending = write { state -> PendingRendition? in
      guard let pending = state.pendingRendition, let url = error.url,
        pending.rendition.uri.flatMap({ URL(string: $0) }) == url
      else { return nil }
      state.pendingRendition = nil
      return pending
    }
    guard let pending else { return }
    loadFailed(error, for: pending.option, generation: pending.generation)
  }

  /// Turns the engine's subtitle rendition off when the selection moved away from the
  /// renditions. On `work`.
  func releaseEngineSubtitles() {
    let had = write { state -> Bool in
      defer { state.engineSubtitle = nil }
      return state.engineSubtitle != nil
    }
    if had { player?.currentItem?.selectSubtitleRendition(nil) }
  }

  /// Starts the segment loader of a rendition whose segment list the engine loaded.
  /// On `work`.
  private func startLoader(
    _ list: SubtitleSegmentList, for option: TextTrackOption, generation: Int
  ) {
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
      list: list, variantURL: variant, fetcher: fetcher, lookAhead: configuration.lookAhead,
      waitClock: waitClock, handlers: handlers)
    let position = player?.currentTime() ?? .zero
    let started = write { state -> Bool in
      guard !state.closed, state.appliedGeneration == generation else { return false }
      state.loader = loader
      return true
    }
    if started { loader.start(at: position) }
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
    // The boundary observers are posted to the player before the start is let go.
    releaseStartHold()
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
    guard current else { return }
    releaseStartHold()
    deliver([.failed(option, error)])
  }

  /// The event for a timeline change at `time`.
  static func event(for change: TextCueTimeline.Change, at time: MediaTime) -> TextTrackEvent {
    switch change {
    case .enter(let cue): return .cueEntered(cue, time: time)
    case .exit(let cue): return .cueExited(cue, time: time)
    }
  }
}
