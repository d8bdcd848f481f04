import Foundation
import PlayheadCore
import PlayheadHLS

extension HLSDriver {
  // MARK: Playback state as the loader sees it

  /// Where playback is now: the position the player last reported, or, under the playback
  /// simulator, what its pass-through consumer has played by the clock's time.
  var currentPlaybackPosition: MediaTime {
    lock.lock()
    let provider = positionProvider
    let reported = playbackPosition
    lock.unlock()
    return provider?() ?? reported
  }

  /// The media downloaded ahead of `position` (negative when loading lags behind it).
  func bufferAhead(at position: MediaTime) -> MediaTime {
    lock.lock()
    let loadTime = nextLoadTime
    lock.unlock()
    return (queue.bufferedEnd ?? loadTime) - position
  }

  /// The playback phase the loader can tell from its own state: starting until the first
  /// segment since the stream opened is in, seeking until the first since a restart,
  /// stalled while nothing is buffered ahead of the play position, else playing.
  func playbackPhase(bufferAhead: MediaTime) -> ABRPhase {
    guard queue.bufferedEnd != nil else { return queue.generation == 0 ? .starting : .seeking }
    return bufferAhead > .zero ? .playing : .stalled
  }

  // MARK: Rendition choice

  /// Whether to download another segment of `nextChunkDuration` with `bufferedAhead` of
  /// media downloaded. Without a load control, loading runs while less than
  /// `forwardBufferDuration` is buffered. A player's item load control has the watch time
  /// and playing state from the playback loop; otherwise the play position stands in for
  /// the watch time.
  func shouldContinueLoading(
    bufferedAhead: MediaTime, nextChunkDuration: MediaTime, position: MediaTime,
    isPlaying: Bool
  ) -> Bool {
    guard let loadControl else { return bufferedAhead < configuration.forwardBufferDuration }
    if itemLoadControl == nil { loadControl.playbackDidProgress(elapsed: position) }
    return loadControl.shouldContinueLoading(
      bufferedAhead: bufferedAhead, nextChunkDuration: nextChunkDuration,
      playbackElapsed: position, isPlaying: isPlaying)
  }

  /// The buffer the bitrate controller plans with.
  var maximumBuffer: MediaTime {
    loadControl?.targetBuffer ?? configuration.forwardBufferDuration
  }

  /// The ladder as the bitrate controller sees it.
  var bitrateLevels: [BitrateLevel] {
    levels.map { level in
      BitrateLevel(
        index: level.index, bandwidth: level.bandwidth, averageBandwidth: level.averageBandwidth,
        width: level.resolution?.width, height: level.resolution?.height,
        frameRate: level.frameRate, codecs: level.codecs)
    }
  }

  /// What the bitrate controller decides from: throughput, buffer, caps, position.
  ///
  /// The segment duration is the next segment's (the target duration before the playlist
  /// is known); the remaining content is what follows the next segment.
  func abrContext(bufferAhead: MediaTime, phase: ABRPhase) -> ABRContext {
    lock.lock()
    let current = currentLevel
    let loadTime = nextLoadTime
    let media = playlists[current]
    let contentEnd = contentEndLocked
    let selection =
      selectionOverride
      ?? VariantSelection(
        preferredPeakBitRate: configuration.preferredPeakBitRate,
        maximumPixelCount: configuration.maximumPixelCount,
        manualIndex: configuration.manualVariantIndex)
    lock.unlock()
    let next = media == nil ? nil : nextSegment(level: current)
    let segmentDuration =
      next?.segment.duration
      ?? MediaTime(value: Int64(max(1, media?.targetDuration ?? 2)), timescale: 1)
    let nextEnd = next.map { $0.start + $0.segment.duration } ?? loadTime
    let remaining = contentEnd.map { max(.zero, $0 - max(loadTime, nextEnd)) }
    return ABRContext(
      // Before any measurement the meter answers with the configured start bandwidth.
      throughputBitsPerSecond: bandwidthMeter.estimateBitsPerSecond,
      lastTransferBitsPerSecond: bandwidthMeter.lastTransferBitsPerSecond,
      bufferLevel: max(.zero, bufferAhead), maximumBuffer: maximumBuffer,
      currentLevel: current, segmentDuration: segmentDuration, remainingContent: remaining,
      phase: phase,
      constraints: ABRConstraints(
        preferredPeakBitRate: selection.preferredPeakBitRate,
        maxPixelCount: selection.maximumPixelCount,
        manualLevel: selection.manualIndex))
  }

  /// The level to start with, from the controller's start preference and the caps.
  func initialLevel() -> Int {
    let chosen = abr.selectInitialLevel(
      levels: bitrateLevels, context: abrContext(bufferAhead: .zero, phase: .starting))
    return levels.indices.contains(chosen) ? chosen : 0
  }

  /// The level of the stream's first segment: the initial level when the configuration
  /// asks for a start preference (a default bandwidth, resolution or quality label, so
  /// that the preference decides where playback starts), else the controller's choice at
  /// start. A preload (`MediaLoader`) asks the same, so it fetches what playback starts on.
  func startLevel() -> Int {
    guard configuration.startPreference == .automatic || configuration.makeABRController != nil
    else {
      lock.lock()
      defer { lock.unlock() }
      return currentLevel
    }
    return chooseLevel(bufferAhead: .zero, phase: .starting).level
  }

  /// The level for the next segment and why, as the bitrate controller decides; `phase`
  /// nil reads it from the loader's state.
  func chooseLevel(bufferAhead: MediaTime, phase: ABRPhase? = nil) -> (
    level: Int, reason: VariantChangeReason
  ) {
    let decision = abr.selectLevel(
      levels: bitrateLevels,
      context: abrContext(
        bufferAhead: bufferAhead, phase: phase ?? playbackPhase(bufferAhead: bufferAhead)))
    let level = levels.indices.contains(decision.level) ? decision.level : 0
    return (level, VariantChangeReason(decision.reason))
  }
}
