import Foundation
import PlayheadCore

/// The item's buffer as the playback loop judges it at one step (decision 0025).
struct BufferView {
  /// The loaded time ranges: what was decoded since the stretch began (the start or the
  /// last seek) together with what the source holds (downloaded, on disk, or local).
  var ranges: [MediaTimeRange]
  /// The media loaded ahead of the position, in the range that holds it (zero when none
  /// does).
  var ahead: MediaTime
  /// Whether the rest of the media, to its end or the forward end, is loaded: nothing
  /// more will come, so waiting for more would never end.
  var restLoaded: Bool
  /// Whether loading holds back at its limit (the load control's target, the item's
  /// forward target, a read-ahead limit) until playback moves on; for a source that
  /// cannot tell, whether the decoder's queues are full.
  var holdingBack: Bool
  /// Whether the source holds back at its limit or has everything (for a source that
  /// cannot tell, whether the decoder's queues are full): I/O is suspended
  /// (`isPlaybackBufferFull`).
  var isFull: Bool
  /// Whether both decoded streams have ended.
  var ended: Bool
  /// Whether the decoder's queues are full or both streams have ended.
  var decodedFull: Bool
}

extension PlaybackLoop {
  /// How far apart the ends of loaded ranges must move before an event announces them
  /// (the item's `loadedTimeRanges` always holds the latest).
  static let loadedRangesEventStep = MediaTime(value: 1, timescale: 1)

  /// The buffer of `active` from the loader's snapshot.
  func bufferView(_ active: ActiveItem, _ status: LoaderStatus) -> BufferView {
    let ended = status.videoEnded && status.audioEnded
    let source = status.sourceBuffer
    var ranges: [MediaTimeRange] = []
    if let decoded = status.bufferedRange { ranges.append(decoded) }
    if source.isKnown { ranges += source.ranges }
    ranges = MediaTimeRange.merged(ranges)
    let position = active.position
    let holding = MediaTimeRange.range(containing: position, inMerged: ranges)
    let ahead = holding.map { max(.zero, $0.end - position) } ?? .zero
    var contentEnd = active.media?.duration ?? .indefinite
    if let end = forwardEnd(active), !contentEnd.isNumeric || end < contentEnd {
      contentEnd = end
    }
    let reachesContentEnd =
      contentEnd.isNumeric && holding.map { $0.end + Self.dueTolerance >= contentEnd } ?? false
    let restLoaded = ended || (source.isKnown && source.reachesEnd) || reachesContentEnd
    let decodedFull = status.isFull || ended
    let holdingBack = source.isKnown ? source.isHoldingBack : decodedFull
    let sourceStopped = source.isKnown ? source.isHoldingBack || source.reachesEnd : decodedFull
    return BufferView(
      ranges: ranges, ahead: ahead, restLoaded: restLoaded, holdingBack: holdingBack,
      isFull: sourceStopped || ended, ended: ended, decodedFull: decodedFull)
  }

  /// Judges the item's buffer into its state and raises the buffer events: loaded
  /// time ranges, buffer empty, likely to keep up (the start and resume rule of the load
  /// control), buffer full. Also tells the load control how playback goes.
  func reportBuffering(_ active: ActiveItem, _ loaderStatus: LoaderStatus) {
    active.loadControl.setPlaybackState(
      isPlaying: isClockRunning(active), watched: playingTime(of: active))
    let view = bufferView(active, loaderStatus)
    let ended = view.ended
    let hasData = loaderStatus.queuedVideoFrames > 0 || loaderStatus.queuedAudioDuration > .zero
    let empty =
      !hasData && !ended && active.seek == nil
      || (active.seek != nil && active.landedSeekTime == nil && !ended)
      || active.stalledSince != nil
    // Frames to start on, and media enough ahead by the load control's rule: the startup
    // buffer, or after a stall the buffer after a rebuffer (AVPlayer's
    // isPlaybackLikelyToKeepUp), unless nothing more can come.
    let decodedReady = view.decodedFull || (hasData && loaderStatus.queuedVideoFrames >= 2)
    let bufferReady =
      view.restLoaded || view.holdingBack
      || active.loadControl.shouldStartPlayback(
        bufferedAhead: view.ahead, isAfterRebuffer: active.stalledSince != nil)
    let likely = decodedReady && bufferReady
    if empty != active.state.isBufferEmpty {
      active.state.isBufferEmpty = empty
      emit(.bufferEmptyChanged(active.item, empty))
    }
    if likely != active.state.isLikelyToKeepUp {
      active.state.isLikelyToKeepUp = likely
      emit(.likelyToKeepUpChanged(active.item, likely))
    }
    if view.isFull != active.state.isBufferFull {
      active.state.isBufferFull = view.isFull
      emit(.bufferFullChanged(active.item, view.isFull))
    }
    publishLoadedRanges(active, view)
  }

  /// Keeps the loaded time ranges when they changed, and announces them when they
  /// changed in shape or an end moved by `loadedRangesEventStep` (or reached the end).
  private func publishLoadedRanges(_ active: ActiveItem, _ view: BufferView) {
    let ranges = view.ranges
    guard ranges != active.state.loadedTimeRanges else { return }
    active.state.loadedTimeRanges = ranges
    let last = active.announcedRanges
    let reshaped =
      last.count != ranges.count || zip(last, ranges).contains { $0.start != $1.start }
    let moved = zip(last, ranges).contains { old, new in
      abs((new.end - old.end).seconds) >= Self.loadedRangesEventStep.seconds
        || (view.restLoaded && new.end != old.end)
    }
    guard reshaped || moved else { return }
    active.announcedRanges = ranges
    emit(.loadedTimeRangesChanged(active.item, ranges))
  }
}
