import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Plays the current session: on the first play the "before" cue points fire (and a
  /// bumper plays first, if the session has one), then the content plays.
  ///
  /// Sends `playRequest`; `play` follows when the player starts.
  public func play() {
    queue.async { [self] in
      guard let runtime = current else { return }
      performPlay(runtime, isRequest: true)
    }
  }

  /// Pauses the current session (or its bumper). Sends `pauseRequest`, then `pause`.
  public func pause() {
    queue.async { [self] in
      guard let runtime = current else { return }
      sendLifecycle(.pauseRequest, runtime)
      if runtime.ads?.active != nil {
        pauseActiveAd(runtime)
      } else if runtime.isInBumper, let bumper = runtime.bumper {
        pauseBumper(bumper, of: runtime)
      } else {
        runtime.player?.pause()
      }
    }
  }

  /// Seeks the content to `time` with 0.1 s of tolerance either side.
  ///
  /// Before the session's `ready` event the seek is not carried out and `completion` is never
  /// called (as the seed says: seek from the `ready` event on). While the session's bumper
  /// has not finished (before it starts and while it plays) the seek is refused:
  /// `completion(false)`. A forward seek passes cue points (see `CuePointTracker`).
  public func seek(to time: MediaTime, completion: (@Sendable (Bool) -> Void)? = nil) {
    let tolerance = MediaTime(value: 1, timescale: 10)
    seek(to: time, toleranceBefore: tolerance, toleranceAfter: tolerance, completion: completion)
  }

  /// Seeks the content to `time` within the given tolerances; see `seek(to:completion:)`.
  public func seek(
    to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
    completion: (@Sendable (Bool) -> Void)? = nil
  ) {
    queue.async { [self] in
      performSeek(
        to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
        firesCuePoints: true, completion: completion)
    }
  }

  /// Seeks exactly to `time` without playing the cue points (ad breaks) it jumps over; for
  /// resuming where a viewer left off. Same rules as `seek(to:completion:)` otherwise.
  ///
  /// Cue points jumped over stay unfired, so seeking back before them plays them again.
  public func seekWithoutAds(to time: MediaTime, completion: (@Sendable (Bool) -> Void)? = nil) {
    queue.async { [self] in
      performSeek(
        to: time, toleranceBefore: .zero, toleranceAfter: .zero, firesCuePoints: false,
        completion: completion)
    }
  }

  /// Rebuilds the current session's source and continues at `time` (the recovery after
  /// `failedToPlayToEndTime`); plays afterwards when `autoPlay` is true.
  ///
  /// Sends `resumeBegin`, then `resumeComplete` or `resumeFail`. No effect without a current
  /// session; a call while an earlier one has not finished is refused (logged, nothing sent).
  /// Progress and buffer events are held back while the source is rebuilt.
  public func resumeVideo(at time: MediaTime, autoPlay: Bool) {
    queue.async { [self] in
      guard let runtime = current, let player = runtime.player else { return }
      guard !runtime.isResuming else {
        manager.log("resumeVideo refused: the previous resume has not finished")
        return
      }
      runtime.isResuming = true
      sendLifecycle(.resumeBegin, runtime, time: time)
      player.resume(at: time) { [weak self, weak runtime] succeeded in
        guard let self, let runtime else { return }
        self.queue.async {
          guard runtime === self.current else { return }
          self.resumeFinished(runtime, at: time, succeeded: succeeded, autoPlay: autoPlay)
        }
      }
    }
  }

  private func resumeFinished(
    _ runtime: SessionRuntime, at time: MediaTime, succeeded: Bool, autoPlay: Bool
  ) {
    runtime.isResuming = false
    guard succeeded else {
      let error =
        runtime.player?.currentItem?.error
        ?? PlayheadError(.invalidState, "the source could not be rebuilt")
      sendLifecycle(.resumeFail, runtime, error: error, time: time)
      return
    }
    runtime.hasFailed = false
    runtime.hasEnded = false
    runtime.qoe.jumped(to: time)
    _ = runtime.cues.seek(to: time, firesPassedCuePoints: false)
    runtime.bufferPhase = .idle
    sendLifecycle(.resumeComplete, runtime, time: time)
    if autoPlay { runtime.player?.play() }
  }

  /// Play for the current session: cue points and bumper first. Call on the queue.
  func performPlay(_ runtime: SessionRuntime, isRequest: Bool) {
    guard runtime.session.player != nil else { return }
    if isRequest { sendLifecycle(.playRequest, runtime) }
    if runtime.ads?.active != nil {
      resumeActiveAd(runtime)
      return
    }
    if let bumper = runtime.bumper, !bumper.hasFinished {
      playBumper(bumper, of: runtime)
      return
    }
    playContent(runtime)
  }

  /// Plays the content, firing the "before" cue points the first time.
  func playContent(_ runtime: SessionRuntime) {
    if !runtime.hasPlayed {
      runtime.hasPlayed = true
      let before = runtime.cues.takeBefore()
      if !before.isEmpty {
        let start = runtime.player?.currentTime() ?? .zero
        notify(
          .cuePoints(
            runtime.session,
            CuePointPassage(
              previousTime: start, currentTime: start, cuePoints: CuePointCollection(before))))
      }
    }
    if adsTakeOverPlay(runtime) { return }
    runtime.hasStartedContent = true
    runtime.player?.play()
  }

  private func performSeek(
    to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
    firesCuePoints: Bool, completion: (@Sendable (Bool) -> Void)?
  ) {
    if let runtime = current, runtime.ads?.active != nil {
      manager.log("seek refused: an ad is playing")
      if let completion { callbackQueue.async { completion(false) } }
      return
    }
    if let runtime = current, runtime.isInBumper {
      manager.log("seek refused: the bumper plays first")
      if let completion { callbackQueue.async { completion(false) } }
      return
    }
    guard let runtime = current, let player = runtime.player, runtime.isReady else {
      manager.log("seek ignored: the session is not ready (seek from the ready event on)")
      return
    }
    let from = player.currentTime()
    var (time, toleranceBefore, toleranceAfter) = (time, toleranceBefore, toleranceAfter)
    if firesCuePoints {
      _ = adsTakeOverSeek(runtime, from: from, to: time)
      let redirected = adsServerSideSeekTarget(runtime, from: from, to: time)
      if redirected != time {
        // To the start of a server-side ad period: exactly there.
        (time, toleranceBefore, toleranceAfter) = (redirected, .zero, .zero)
      }
    }
    if runtime.bufferPhase != .waiting(emptySent: true) {
      runtime.bufferPhase = .waiting(emptySent: true)
      sendLifecycle(.playbackBufferEmpty, runtime, time: from)
    }
    player.seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) {
      [weak self, weak runtime] finished in
      guard let self else { return }
      let runtime = runtime
      self.queue.async {
        if let runtime, runtime === self.current, finished {
          self.seekFinished(runtime, from: from, firesCuePoints: firesCuePoints)
        }
        if let completion { self.callbackQueue.async { completion(finished) } }
      }
    }
  }

  private func seekFinished(_ runtime: SessionRuntime, from: MediaTime, firesCuePoints: Bool) {
    guard let player = runtime.player else { return }
    let landed = player.currentTime()
    runtime.qoe.jumped(to: landed)
    if runtime.hasEnded, landed < (player.currentItem?.duration ?? landed) {
      runtime.hasEnded = false
    }
    let passed = runtime.cues.seek(to: landed, firesPassedCuePoints: firesCuePoints)
    if !passed.isEmpty {
      notify(
        .cuePoints(
          runtime.session,
          CuePointPassage(
            previousTime: from, currentTime: landed, cuePoints: CuePointCollection(passed))))
    }
    notify(.progress(runtime.session, landed))
    adsServerSideMoved(runtime, to: landed)
    if player.currentItem?.isPlaybackLikelyToKeepUp == true {
      bufferIsLikelyToKeepUp(runtime, time: landed)
    }
  }
}
