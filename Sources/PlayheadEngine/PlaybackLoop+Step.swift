import Foundation
import PlayheadCore
import PlayheadMedia

extension PlaybackLoop {
  /// Does whatever is due now; returns the next clock deadline, or nil to wait for a
  /// signal (a command or new data from a loader).
  func step() -> MediaTime? {
    guard let active = current else {
      setTimeControl(rate != 0 ? .waitingToPlayAtSpecifiedRate(.noItemToPlay) : .paused)
      return nil
    }
    for message in active.loader.takeMessages() { receive(message, active) }
    guard !active.failed else { return nil }
    guard active.media != nil else {
      if rate != 0 { setTimeControl(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)) }
      return nil
    }
    let loaderStatus = active.loader.snapshot()
    reportLoaderProgress(active, loaderStatus)
    preloadNextIfNeeded(loaderStatus)

    if let seek = active.seek {
      // A seek past the end lands at its target once both streams have ended.
      let endedHere =
        loaderStatus.generation == seek.generation && loaderStatus.videoEnded
        && loaderStatus.audioEnded
      guard let resolved = active.landedSeekTime ?? (endedHere ? seek.target : nil)
      else { return nil }
      completeSeek(active, at: resolved)
    }
    stepText(active)

    guard rate != 0 else {
      if active.needsDisplayRefresh
        || (configuration.prerendersFirstFrame && !active.firstFramePresented)
      {
        if presentDueVideo(active, upTo: active.position, countDrops: false) {
          active.needsDisplayRefresh = false
        }
      }
      return nil
    }
    return playStep(active, loaderStatus)
  }

  /// Presents what is due while playing; returns the next deadline.
  private func playStep(_ active: ActiveItem, _ loaderStatus: LoaderStatus) -> MediaTime? {
    guard active.media != nil else { return nil }
    let now = clock.now
    let ended = loaderStatus.videoEnded && loaderStatus.audioEnded

    if timeControl != .playing {
      guard startHolds.isEmpty && !textHoldsStart(active) else {
        setTimeControl(.waitingToPlayAtSpecifiedRate(.startHeld))
        return nil
      }
      // Video that fell behind a device that leads (a picture that froze while the sound
      // went on) catches up by dropping what it decoded too late.
      if active.mediaClock != nil && active.firstFramePresented {
        active.video.dropFrames(endingBy: active.position)
      }
      // Start (or restart after a stall) once the buffer is likely to keep up: frames to
      // show, and what the load control asks to have loaded ahead (decision 0025).
      let hasNextFrames = !isFrozen(at: active.position, limit: presentableEnd(active))
      guard (active.state.isLikelyToKeepUp && hasNextFrames) || ended else {
        setTimeControl(
          .waitingToPlayAtSpecifiedRate(
            active.stalledSince == nil ? .evaluatingBufferingRate : .toMinimizeStalls))
        return nil
      }
      if let since = active.stalledSince {
        active.totalStallTime = active.totalStallTime + (now - since)
        active.stalledSince = nil
        logStallEnded(active, after: now - since)
        emit(.playbackRecovered(active.item))
      }
      active.isHeld = false
      anchor(active, at: active.position, clock: now)
      startPeriod(active)
      setTimeControl(.playing)
    } else if !releaseHold(active, now: now) {
      return nil
    }

    let previousPosition = active.position
    var position = positionAt(now, active)
    if let heard = active.mediaClock?.playbackPosition() {
      // The device leads: the position is what it plays, and the anchor follows it so that
      // deadlines (and a fall back to the player's clock) go on from there.
      position = max(heard, active.position)
      anchor(active, at: position, clock: now)
    }
    if let end = forwardEnd(active), position > end { position = end }
    let pausePoint = active.item.pausePoints.first { $0 > previousPosition && $0 <= position }
    if let pausePoint { position = pausePoint }
    active.position = position
    presentDueVideo(active, upTo: position, countDrops: true, stoppingAt: pausePoint)
    writeDueAudio(active, upTo: position)
    renderText(active, at: position)
    firePeriodicObservers(active, at: position)
    fireBoundaryObservers(active, upTo: position)
    positionMoved(active)
    if let pausePoint {
      setRate(0)
      // Stay at the point itself, not where the clock has moved on to since this step began.
      anchor(active, at: pausePoint, clock: clock.now)
      emit(.pausePointReached(active.item, pausePoint))
      return nil
    }

    // The end: everything decoded has been presented and its last frame has run out.
    let forwardEndTime = forwardEnd(active)
    let reachedForwardEnd = forwardEndTime.map { position + Self.dueTolerance >= $0 } ?? false
    let queuesEmpty = active.loader.peekVideo() == nil && active.loader.peekAudio() == nil
    if reachedForwardEnd || (ended && queuesEmpty) {
      var endTime = max(active.video.lastEnd, active.audio.lastEnd)
      if let forwardEndTime { endTime = min(endTime, forwardEndTime) }
      if reachedForwardEnd || position + Self.dueTolerance >= endTime {
        renderTextAtEnd(active, reachedForwardEnd ? (forwardEndTime ?? position) : endTime)
        itemReachedEnd(active, at: reachedForwardEnd ? (forwardEndTime ?? position) : endTime)
        return clock.now
      }
      return nextDeadline(
        active,
        candidates: [endTime] + periodicDeadlines() + boundaryDeadlines(after: position)
          + textDeadlines(active))
    }

    // Nothing left to present beyond the position: the media ran out (read afresh, as the
    // loader may have queued more since the step began).
    let limit = presentableEnd(active)
    if let limit, isFrozen(at: position, limit: limit) {
      return mediaRanOut(active, at: limit, now: now)
    }

    var candidates: [MediaTime] = []
    if let video = active.loader.peekVideo() { candidates.append(video.time) }
    if let audio = active.audio.nextDue(after: position) { candidates.append(audio) }
    if let limit { candidates.append(limit) }
    if let forwardEndTime { candidates.append(forwardEndTime) }
    candidates.append(contentsOf: active.item.pausePoints.filter { $0 > position })
    candidates.append(contentsOf: periodicDeadlines())
    candidates.append(contentsOf: boundaryDeadlines(after: position))
    candidates.append(contentsOf: textDeadlines(active))
    return nextDeadline(active, candidates: candidates)
  }

  /// The clock time at which the earliest of `candidates` (item times) is reached.
  private func nextDeadline(_ active: ActiveItem, candidates: [MediaTime]) -> MediaTime? {
    let horizon = active.position + Self.dueTolerance
    guard let earliest = candidates.filter({ $0.isNumeric && $0 > horizon }).min() else {
      return clock.now
    }
    return clockTime(of: earliest, active)
  }

  /// Where forward playback ends before the media's end: the earlier of the item's
  /// `forwardPlaybackEndTime` and `previewDuration`, if either is set.
  func forwardEnd(_ active: ActiveItem) -> MediaTime? {
    active.item.forwardEndTime
  }

  /// The item's preview limit (`previewDuration` from the item's start), if set.
  func previewEnd(_ active: ActiveItem) -> MediaTime? {
    let preview = active.item.previewDuration
    return preview.isNumeric && preview >= .zero ? preview : nil
  }

  /// Sets the position to `itemTime` at clock time `clock`.
  func anchor(_ active: ActiveItem, at itemTime: MediaTime, clock clockTime: MediaTime) {
    active.anchorItemTime = itemTime
    active.anchorClock = clockTime
    active.position = itemTime
  }

  /// The rate as an exact ratio over 1000.
  var rateRatio: (numerator: Int64, denominator: Int64) {
    (Int64((Double(rate) * 1000).rounded()), 1000)
  }

  /// The item time at clock time `now`, limited by the end of the presentable media (see
  /// `presentableEnd(_:)`) and never behind the current position.
  func positionAt(_ now: MediaTime, _ active: ActiveItem) -> MediaTime {
    let ratio = rateRatio
    let elapsed = (now - active.anchorClock).multiplied(
      byRatio: ratio.numerator, denominator: ratio.denominator)
    let position = active.anchorItemTime + elapsed
    guard let limit = presentableEnd(active), position > limit else { return position }
    return max(limit, active.position)
  }

  /// How close to the position a frame counts as due. Clock times are whole
  /// nanoseconds while media times are exact fractions (1/48000 s is not a whole number
  /// of nanoseconds), so a deadline can land a fraction of a nanosecond short of the
  /// frame it was computed for; a microsecond of slack absorbs that.
  static let dueTolerance = MediaTime(value: 1, timescale: 1_000_000)

  /// The clock time at which the item reaches `itemTime` at the current rate.
  func clockTime(of itemTime: MediaTime, _ active: ActiveItem) -> MediaTime {
    let ratio = rateRatio
    guard ratio.numerator > 0 else { return clock.now }
    let media = (itemTime - active.anchorItemTime).convertScale(
      1_000_000_000, rounding: .roundTowardPositiveInfinity)
    return active.anchorClock
      + media.multiplied(
        byRatio: ratio.denominator, denominator: ratio.numerator,
        rounding: .roundTowardPositiveInfinity)
  }

  /// Presents the frame due at `position` through the video renderer (dropping late ones
  /// while playing); with `pausePoint`, only frames before it (the one at the point shows
  /// when playback goes on). Returns whether a frame was presented.
  @discardableResult
  func presentDueVideo(
    _ active: ActiveItem, upTo position: MediaTime, countDrops: Bool,
    stoppingAt pausePoint: MediaTime? = nil
  ) -> Bool {
    let before = active.video.framesRendered
    let context = RenderContext(
      isPlaying: countDrops, forwardEnd: forwardEnd(active),
      dropsLateFrames: active.firstFramePresented, pausePoint: pausePoint)
    do throws(PlayheadError) {
      _ = try active.video.render(at: position, context: context)
    } catch {
      playbackFailed(active, error)
      return false
    }
    guard active.video.framesRendered > before else { return false }
    noteFirstPresentation(active)
    return true
  }

  /// Writes the audio due at `position` through the audio renderer (for a clocked device,
  /// what it keeps queued ahead too).
  func writeDueAudio(_ active: ActiveItem, upTo position: MediaTime) {
    let before = active.audio.buffersWritten
    let context = RenderContext(isPlaying: true, forwardEnd: forwardEnd(active))
    do throws(PlayheadError) {
      _ = try active.audio.render(at: position, context: context)
    } catch {
      playbackFailed(active, error)
      return
    }
    if active.audio.buffersWritten > before, active.media?.hasVideo == false {
      noteFirstPresentation(active)
    }
  }

  private func noteFirstPresentation(_ active: ActiveItem) {
    guard !active.firstFramePresented else { return }
    active.firstFramePresented = true
    if let requested = active.playRequestClock {
      active.state.timeToFirstFrame = clock.now - requested
    }
    emit(.firstFramePresented(active.item))
  }
}
