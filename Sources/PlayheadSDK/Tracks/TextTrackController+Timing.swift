import Foundation
import PlayheadCore
import PlayheadEngine

extension TextTrackController {
  /// Follows `player`: its item's readiness, seeks, resumes and end (events), and the play
  /// position every progress interval. Called once, from `init`.
  func observe(_ player: Player) {
    let events = player.addEventObserver(queue: work) { [weak self] event in
      self?.handle(event)
    }
    let periodic = player.addPeriodicTimeObserver(
      forInterval: configuration.safeProgressInterval, queue: work
    ) { [weak self] time in
      self?.moved(to: time, continuous: true)
    }
    write { state in state.playerTokens = [events, periodic] }
  }

  /// One player event. On `work`.
  private func handle(_ event: PlayerEvent) {
    switch event.kind {
    case .itemStatusChanged(let item, .readyToPlay):
      itemBecameReady(item)
    case .itemStatusChanged(_, .failed):
      releaseStartHold()
    case .seekCompleted(_, finished: true):
      moved(to: event.itemTime, continuous: false)
    case .resumeCompleted:
      moved(to: player?.currentTime() ?? event.itemTime, continuous: false)
    case .didPlayToEnd, .previewEnded:
      moved(to: event.itemTime, continuous: true)
    case .subtitleRenditionChanged(let item, let rendition):
      engineSubtitlesChanged(item, to: rendition)
    case .audioRenditionChanged(let item, let rendition):
      audioChanged(in: item, to: rendition)
    case .errorLogEntryAdded(_, let error):
      engineLoggedError(error)
    default:
      break
    }
  }

  /// The play position is `time`: enters and exits of the selected track's cues, and the
  /// subtitle loader learns the position. `continuous` is true in normal playback, false
  /// for jumps (seeks). On `work`.
  func moved(to time: MediaTime, continuous: Bool) {
    guard time.isNumeric else { return }
    let maximumStep = configuration.safeProgressInterval + configuration.safeProgressInterval
    let outcome = write { state -> (events: [TextTrackEvent], loader: HLSSubtitleLoader?)? in
      guard !state.closed, var timeline = state.timeline else { return nil }
      let changes = timeline.move(to: time, continuous: continuous, maximumStep: maximumStep)
      state.timeline = timeline
      let at = timeline.position ?? time
      return (changes.map { Self.event(for: $0, at: at) }, state.loader)
    }
    guard let outcome else { return }
    outcome.loader?.update(position: time)
    deliver(outcome.events)
  }

  /// Adds a boundary time observer at each start and end of `cues` not observed yet, so
  /// that a cue enters and exits at its own time rather than at the next progress tick.
  /// On `work`.
  func addBoundaries(for cues: [TextCue], generation: Int) {
    guard let player, !cues.isEmpty else { return }
    let times = write { state -> [MediaTime] in
      guard !state.closed, state.appliedGeneration == generation else { return [] }
      let fresh = TextCueTimeline.boundaries(of: cues).filter { !state.boundaryTimes.contains($0) }
      state.boundaryTimes.formUnion(fresh)
      return fresh
    }
    guard !times.isEmpty else { return }
    var tokens: [ObserverToken] = []
    for time in times {
      tokens.append(
        player.addBoundaryTimeObserver(forTimes: [time], queue: work) { [weak self] in
          self?.moved(to: time, continuous: true)
        })
    }
    let stale = write { state -> Bool in
      guard !state.closed, state.appliedGeneration == generation else { return true }
      state.boundaryTokens += tokens
      return false
    }
    if stale {
      for token in tokens { player.removeTimeObserver(token) }
    }
  }
}
