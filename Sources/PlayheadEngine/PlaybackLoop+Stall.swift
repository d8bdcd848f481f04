import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// The item time up to which playback can go without new data; nil when no stream limits
  /// it (every stream has ended, or has media waiting that the clock may run through).
  ///
  /// The earliest reach among the streams that have not ended (see `audioReach(_:_:)` and
  /// `videoReach(_:_:)`). The position never passes this limit: a loop that wakes late (a
  /// descheduled thread, a suspended machine, a clock moved while the loop was busy) finds
  /// the position frozen where the media ran out instead of far beyond the data it has.
  func presentableEnd(_ active: ActiveItem) -> MediaTime? {
    guard let media = active.media else { return nil }
    let queued = active.loader.queuedEnds()
    var reaches: [MediaTime] = []
    if media.hasAudio && !queued.audioEnded, let end = audioReach(queued.audio, active) {
      reaches.append(end)
    }
    if media.hasVideo && !queued.videoEnded, let end = videoReach(queued.video, active) {
      reaches.append(end)
    }
    return reaches.min()
  }

  /// How far the audio clock can run: to the end of the queued audio when that lies ahead
  /// of the position, to the end of the audio written when none is queued, and without
  /// limit while the queue holds only audio at or before the position (late, or out of
  /// order after a timestamp reset), which the step writes at once.
  private func audioReach(_ queuedEnd: MediaTime?, _ active: ActiveItem) -> MediaTime? {
    guard let queuedEnd else { return active.audio.lastEnd }
    return queuedEnd > active.position ? max(queuedEnd, active.audio.lastEnd) : nil
  }

  /// How far video lets the position go: to the end of the last frame shown when no frame
  /// is queued; without limit otherwise, as video follows the clock and drops frames it is
  /// late for rather than stopping it.
  private func videoReach(_ queuedEnd: MediaTime?, _ active: ActiveItem) -> MediaTime? {
    queuedEnd == nil ? active.video.lastEnd : nil
  }

  /// Whether the position has reached `limit`, the end of the presentable media.
  func isFrozen(at position: MediaTime, limit: MediaTime?) -> Bool {
    guard let limit else { return false }
    return position + Self.dueTolerance >= limit
  }

  /// The clock time at which the position reached `itemTime`, between the anchor and now.
  func clockTimeReached(_ itemTime: MediaTime, _ active: ActiveItem, now: MediaTime) -> MediaTime {
    let reached = clockTime(of: max(itemTime, active.anchorItemTime), active)
    return min(now, max(active.anchorClock, reached))
  }

  /// The position has reached the end of the presentable media at item time `limit`:
  /// stalls, or holds the position until data comes before anything was presented. (In
  /// fast mode the decoder is never behind the clock, so media runs out only when it
  /// really waits for the network: a simulated source, a retry delay.) Returns nil: the loop waits for a signal, never spins.
  ///
  /// The stall begins when the position reached `limit`, which a late wake finds in the
  /// past; that time counts in `totalStallTime` and not in the playing time, and the
  /// `playbackStalled` event carries it as its clock time.
  func mediaRanOut(_ active: ActiveItem, at limit: MediaTime, now: MediaTime) -> MediaTime? {
    let since = clockTimeReached(limit, active, now: now)
    active.playingTime = active.playingTime + (since - active.anchorClock)
    anchor(active, at: active.position, clock: since)
    guard active.firstFramePresented else {
      active.isHeld = true
      return nil
    }
    active.stalledSince = since
    active.stallCount += 1
    finishPeriod(active)
    logStallBegan(active)
    emit(.playbackStalled(active.item), at: since)
    if !active.state.isBufferEmpty {
      active.state.isBufferEmpty = true
      emit(.bufferEmptyChanged(active.item, true))
    }
    setTimeControl(.waitingToPlayAtSpecifiedRate(.toMinimizeStalls))
    return nil
  }

  /// Ends a hold once more media can be presented: the position goes on from where it
  /// waited, at `now`. Returns false while the hold goes on.
  func releaseHold(_ active: ActiveItem, now: MediaTime) -> Bool {
    guard active.isHeld else { return true }
    guard !isFrozen(at: active.position, limit: presentableEnd(active)) else { return false }
    active.isHeld = false
    anchor(active, at: active.position, clock: now)
    return true
  }

  /// Whether the position moves with the clock now (playing, not stalled, not held).
  func isClockRunning(_ active: ActiveItem) -> Bool {
    rate != 0 && timeControl == .playing && !active.isHeld
  }
}
