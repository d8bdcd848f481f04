import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Starts following the current session's player (and its bumper's). Call on the queue.
  func observe(_ runtime: SessionRuntime) {
    guard let player = runtime.player else { return }
    let interval = readSettings { $0.progressInterval }
    runtime.observerTokens.append(
      player.addEventObserver(queue: queue) { [weak self, weak runtime] event in
        guard let self, let runtime, runtime === self.current else { return }
        self.handle(event, of: runtime)
      })
    runtime.observerTokens.append(
      player.addPeriodicTimeObserver(forInterval: interval, queue: queue) {
        [weak self, weak runtime] time in
        guard let self, let runtime, runtime === self.current else { return }
        self.progressed(runtime, to: time)
      })
    let cueTimes = runtime.cues.times
    if !cueTimes.isEmpty {
      runtime.observerTokens.append(
        player.addBoundaryTimeObserver(forTimes: cueTimes, queue: queue) {
          [weak self, weak runtime] in
          guard let self, let runtime, runtime === self.current, let player = runtime.player
          else { return }
          self.passCuePoints(runtime, upTo: player.currentTime())
        })
    }
    if let bumper = runtime.bumper { observeBumper(bumper, of: runtime) }
  }

  /// Stops following a session's players. Call on the queue.
  func removeObservers(_ runtime: SessionRuntime) {
    for token in runtime.observerTokens {
      runtime.player?.removeEventObserver(token)
      runtime.player?.removeTimeObserver(token)
    }
    runtime.observerTokens.removeAll()
    if let bumper = runtime.bumper {
      for token in bumper.observerTokens {
        bumper.session.player?.removeEventObserver(token)
        bumper.session.player?.removeTimeObserver(token)
      }
      bumper.observerTokens.removeAll()
    }
  }

  /// Turns one engine event of the content player into lifecycle events and callbacks.
  private func handle(_ event: PlayerEvent, of runtime: SessionRuntime) {
    let session = runtime.session
    switch event.kind {
    case .itemStatusChanged(let item, .readyToPlay):
      guard !runtime.isReady else { return }
      runtime.isReady = true
      applyRate(to: runtime)
      sendLifecycle(.ready, runtime, time: event.itemTime)
      if let player = runtime.player, player.rate > 0, !runtime.isPlaying {
        runtime.isPlaying = true
        sendLifecycle(.play, runtime, time: event.itemTime)
      }
      if let variant = item.currentVariant {
        runtime.qoe.variantChanged(bandwidth: variant.bandwidth)
      }
      let type: SourceMediaType = item.isAudioOnly ? .audioOnly : .audioVideo
      if !runtime.mediaTypeSent {
        runtime.mediaTypeSent = true
        session.setMediaType(type)
        notify(.mediaType(session, type))
      }
      if let index = currentIndex { prepareNext(after: index) }
      adsServerSideReady(runtime)
      adsInterstitialsChanged(runtime, item.interstitialSchedule)
      adsContentReady(runtime)
    case .itemStatusChanged(_, .failed(let error)):
      guard !runtime.hasFailed else { return }
      runtime.hasFailed = true
      refreshQoE(runtime)
      sendLifecycle(.fail, runtime, error: error, time: event.itemTime)
      moveOnAfterFailure(runtime)
    case .durationChanged(_, let duration):
      notify(.duration(session, duration))
      adsContentDurationChanged(runtime, duration)
    case .pausePointReached(_, let time):
      adsPausePointReached(runtime, at: time)
    case .interstitialsChanged(_, let schedule):
      adsInterstitialsChanged(runtime, schedule)
    case .seekableTimeRangesChanged(_, let ranges):
      notify(.seekableRanges(session, ranges))
    case .rateChanged(let rate):
      rateChanged(runtime, rate: rate, itemTime: event.itemTime)
    case .playbackStalled:
      sendLifecycle(.playbackStalled, runtime, time: event.itemTime)
      runtime.bufferPhase = .waiting(emptySent: false)
    case .playbackRecovered:
      sendLifecycle(.playbackRecovered, runtime, time: event.itemTime)
    case .bufferEmptyChanged(_, true):
      guard !runtime.isResuming, runtime.bufferPhase == .waiting(emptySent: false) else { return }
      runtime.bufferPhase = .waiting(emptySent: true)
      sendLifecycle(.playbackBufferEmpty, runtime, time: event.itemTime)
    case .likelyToKeepUpChanged(_, true):
      guard !runtime.isResuming else { return }
      bufferIsLikelyToKeepUp(runtime, time: event.itemTime)
    case .variantChanged(_, let variant, _):
      runtime.qoe.variantChanged(bandwidth: variant.bandwidth)
    case .errorLogEntryAdded(_, let error):
      runtime.qoe.errorLogged()
      sendLifecycle(.error, runtime, error: error, time: event.itemTime)
    case .failedToPlayToEnd(_, let error):
      runtime.hasFailed = true
      refreshQoE(runtime)
      sendLifecycle(.failedToPlayToEndTime, runtime, error: error, time: event.itemTime)
    case .didPlayToEnd:
      contentEnded(runtime, at: event.itemTime)
    case .previewEnded:
      previewEnded(runtime, at: event.itemTime)
    case .sourceRefreshed(_, let record):
      sendSourceRefreshed(record, runtime, time: event.itemTime)
    case .sourceRefreshFailed(_, let failure):
      sendLifecycle(.sourceRefreshFailed, runtime, error: failure.error, time: event.itemTime)
    case .itemStatusChanged, .currentItemChanged, .timeControlStatusChanged, .firstFramePresented,
      .bufferEmptyChanged, .likelyToKeepUpChanged, .bufferFullChanged, .liveCatchUp,
      .loadedTimeRangesChanged, .seekCompleted, .resumeStarted, .resumeCompleted, .resumeFailed,
      .backupSourceUsed, .softwareDecodingUsed, .accessLogEntryAdded, .audioRenditionChanged,
      .subtitleRenditionChanged, .downloadSpeedChanged, .textCueEntered, .textCueExited,
      .textTrackLoaded, .textTrackFailed:
      return
    }
  }

  /// Ends a buffer wait: `playbackBufferEmpty` if not yet sent, then `playbackLikelyToKeepUp`.
  func bufferIsLikelyToKeepUp(_ runtime: SessionRuntime, time: MediaTime) {
    guard case .waiting(let emptySent) = runtime.bufferPhase else { return }
    if !emptySent { sendLifecycle(.playbackBufferEmpty, runtime, time: time) }
    runtime.bufferPhase = .idle
    sendLifecycle(.playbackLikelyToKeepUp, runtime, time: time)
  }

  /// The content player's rate changed: `play` or `pause` (not the pause at the end).
  private func rateChanged(_ runtime: SessionRuntime, rate: Float, itemTime: MediaTime) {
    // Before `ready`, a play is reported right after `ready` (see the ready case).
    guard runtime.isReady, !adsHoldContent(runtime) else { return }
    if rate > 0, !runtime.isPlaying {
      runtime.isPlaying = true
      sendLifecycle(.play, runtime, time: itemTime)
      adsStitchedRateChanged(runtime, playing: true)
    } else if rate == 0, runtime.isPlaying {
      runtime.isPlaying = false
      guard !runtime.hasEnded, !runtime.hasFailed else { return }
      sendLifecycle(.pause, runtime, time: itemTime)
      adsStitchedRateChanged(runtime, playing: false)
    }
  }

  /// Progress of the content: cue points, QoE and `didProgressTo`.
  private func progressed(_ runtime: SessionRuntime, to time: MediaTime) {
    guard !runtime.isResuming else { return }
    let interval = readSettings { $0.progressInterval }
    runtime.qoe.progressed(to: time, maximumStep: interval + interval)
    passCuePoints(runtime, upTo: time)
    refreshQoE(runtime)
    notify(.progress(runtime.session, time))
    adsProgressed(runtime, to: time)
    adsServerSideMoved(runtime, to: time)
  }

  /// Fires the timed cue points normal playback passed up to `time`.
  func passCuePoints(_ runtime: SessionRuntime, upTo time: MediaTime) {
    let previous = runtime.cues.position ?? time
    let passed = runtime.cues.advance(to: time)
    guard !passed.isEmpty else { return }
    notify(
      .cuePoints(
        runtime.session,
        CuePointPassage(
          previousTime: previous, currentTime: time, cuePoints: CuePointCollection(passed))))
  }

  /// The content played to its end: remaining cue points, "after" cue points, `end`, and
  /// the next session with autoAdvance. A second end is ignored.
  private func contentEnded(_ runtime: SessionRuntime, at time: MediaTime) {
    guard !runtime.hasEnded else { return }
    if adsTakeOverEnd(runtime) { return }
    finishContent(runtime, at: time)
  }

  /// The content's end once its post-roll (if any) has played: the "after" cue points,
  /// `end`, and on.
  func finishContent(_ runtime: SessionRuntime, at time: MediaTime) {
    guard !runtime.hasEnded else { return }
    runtime.hasEnded = true
    passCuePoints(runtime, upTo: time)
    let after = runtime.cues.takeAfter()
    if !after.isEmpty {
      notify(
        .cuePoints(
          runtime.session,
          CuePointPassage(
            previousTime: time, currentTime: time, cuePoints: CuePointCollection(after))))
    }
    refreshQoE(runtime)
    sendLifecycle(.end, runtime, time: time)
    moveOnAfterEnd(runtime)
  }

  /// The session reached the controller's preview limit: `previewEnded`, then on as
  /// after an end.
  private func previewEnded(_ runtime: SessionRuntime, at time: MediaTime) {
    guard !runtime.hasEnded else { return }
    runtime.hasEnded = true
    passCuePoints(runtime, upTo: time)
    refreshQoE(runtime)
    sendLifecycle(.previewEnded, runtime, time: time)
    moveOnAfterEnd(runtime)
  }
}
