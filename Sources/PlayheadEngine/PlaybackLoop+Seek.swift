import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// Posts a seek of `item` (which must be the current item).
  func seek(
    item: PlayerItem, to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
    completion: (@Sendable (Bool) -> Void)?
  ) {
    post { loop in
      loop.performSeek(
        item: item, to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
        completion: completion)
    }
  }

  /// Posts the cancellation of `item`'s pending seek.
  func cancelPendingSeeks(item: PlayerItem) {
    post { loop in
      guard let active = loop.current, active.item === item else { return }
      loop.failPendingSeek(active)
    }
  }

  func performSeek(
    item: PlayerItem, to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime,
    completion: (@Sendable (Bool) -> Void)?
  ) {
    guard let active = current, active.item === item, !active.failed, time.isNumeric else {
      completion.map { handler in DispatchQueue.global().async { handler(false) } }
      return
    }
    failPendingSeek(active)
    var target = max(.zero, time)
    let duration = (active.media ?? active.origin.media)?.duration ?? .indefinite
    if duration.isNumeric && target > duration { target = duration }
    if let preview = previewEnd(active), target > preview { target = preview }
    // Live: inside the playlist's window, a little before the live edge.
    target = active.loader.seekTarget(for: target)
    logSeek(item, requested: time, target: target)
    if isClockRunning(active) {
      active.playingTime = active.playingTime + (clock.now - active.anchorClock)
    }
    if rate != 0 { finishPeriod(active) }
    active.isHeld = false
    seekGeneration += 1
    active.seek = PendingSeek(generation: seekGeneration, target: target, completion: completion)
    active.landedSeekTime = nil
    active.position = target
    active.hasEnded = false
    for renderer in active.renderers { renderer.reset(to: target) }
    // Tell the loader first: a streaming source must restart before it hears of the new
    // position, or it would load ahead of the old one.
    active.loader.seek(
      SeekRequest(
        target: target, toleranceBefore: max(.zero, toleranceBefore),
        toleranceAfter: max(.zero, toleranceAfter), generation: seekGeneration))
    resetText(active, to: target)
    positionMoved(active)
    resetAudioStages()
    if rate != 0 { setTimeControl(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)) }
  }

  /// The loader's first data after the seek arrived: the seek lands at `resolved`.
  func completeSeek(_ active: ActiveItem, at resolved: MediaTime) {
    guard let seek = active.seek else { return }
    active.seek = nil
    active.landedSeekTime = nil
    anchor(active, at: resolved, clock: clock.now)
    active.needsDisplayRefresh = true
    boundaryCursor = resolved
    resetPeriodicObservers()
    positionMoved(active)
    if rate != 0 {
      startPeriod(active)
    } else if presentDueVideo(active, upTo: resolved, countDrops: false) {
      // Paused: show the frame at the new position before reporting completion.
      active.needsDisplayRefresh = false
    }
    emit(.seekCompleted(active.item, finished: true))
    if active.isResuming {
      active.isResuming = false
      emit(.resumeCompleted(active.item))
    }
    // Published with the event just sent.
    if let completion = seek.completion { DispatchQueue.global().async { completion(true) } }
  }

  /// Rebuilds the current item's source from scratch and continues at `time`.
  ///
  /// The old loader (and its connections) is dropped, a new one opens the asset again,
  /// and a zero-tolerance seek to `time` runs once it is open. Refused (completion
  /// `false`) while an earlier resume is still in progress or without a current item.
  func resume(at time: MediaTime, completion: (@Sendable (Bool) -> Void)?) {
    guard let old = current, !old.isResuming, time.isNumeric else {
      completion.map { handler in DispatchQueue.global().async { handler(false) } }
      return
    }
    let item = old.item
    emit(.resumeStarted(item, time))
    finishPeriod(old)
    failPendingSeek(old)
    old.loader.stop()
    // The new source starts from the old run's state and figures, with nothing opened.
    var state = old.state
    state.status = .unknown
    // The seek is queued before the loader starts, so the media opens at `time`.
    let fresh = makeActive(item, origin: itemSnapshot(old), state: state, startLoading: false)
    fresh.isResuming = true
    current = fresh
    if rate != 0 { setTimeControl(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)) }
    performSeek(
      item: item, to: time, toleranceBefore: .zero, toleranceAfter: .zero, completion: completion)
    logItemOpening(item)
    fresh.loader.start()
  }

  /// Ends `active`'s pending seek with `finished == false`.
  func failPendingSeek(_ active: ActiveItem) {
    guard let seek = active.seek else { return }
    active.seek = nil
    active.landedSeekTime = nil
    emit(.seekCompleted(active.item, finished: false))
    if let completion = seek.completion { DispatchQueue.global().async { completion(false) } }
  }
}
