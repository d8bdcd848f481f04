import Foundation
import PlayheadCore

/// Playhead's load control: a startup buffer, a buffer to resume after a stall, loading
/// between a low- and a high-water mark under a hard maximum, and the growing buffer
/// optimiser.
///
/// Loading runs until the buffer reaches the stop level, then pauses until the buffer
/// falls below the low-water mark. The stop level is the high-water mark, lowered while
/// the optimiser's size (which grows with watch time) is smaller; `targetBuffer` reports
/// it. A chunk that would take the buffer past the maximum is not requested, unless the
/// buffer is empty. While playback is not running and the buffer is below what it needs
/// to start, loading always continues. Thread-safe; the state sits behind a lock.
///
/// ```swift
/// let control = DefaultLoadControl(scene: .short,
///                                  settings: BufferSettings(startupBuffer: .zero))
/// ```
public final class DefaultLoadControl: LoadControl, @unchecked Sendable {
  private let lock = NSLock()
  private var scene: PlayerScene
  private var settings: BufferSettings
  private var resolved: LoadControlParameters
  private var watchedSeconds: Double = 0
  private var isLoading = true
  private var hasStarted = false

  /// Creates a load control for `scene` with `settings` winning over the scene's values.
  public init(scene: PlayerScene = .none, settings: BufferSettings = BufferSettings()) {
    self.scene = scene
    self.settings = settings
    self.resolved = settings.resolved(for: scene)
  }

  /// The parameters in effect (the scene with the explicit settings applied).
  public var parameters: LoadControlParameters { lock.withLock { resolved } }

  /// Changes the scene; explicit settings keep winning over it.
  public func setScene(_ scene: PlayerScene) {
    lock.withLock {
      self.scene = scene
      resolved = settings.resolved(for: scene)
    }
  }

  /// Replaces the explicit settings.
  public func setSettings(_ settings: BufferSettings) {
    lock.withLock {
      self.settings = settings
      resolved = settings.resolved(for: scene)
    }
  }

  public var targetBuffer: MediaTime {
    lock.withLock { MediaTime(seconds: stopLevelSeconds(), preferredTimescale: 1000) }
  }

  public func shouldContinueLoading(
    bufferedAhead: MediaTime, playbackElapsed: MediaTime, isPlaying: Bool
  ) -> Bool {
    shouldContinueLoading(
      bufferedAhead: bufferedAhead, nextChunkDuration: .zero, playbackElapsed: playbackElapsed,
      isPlaying: isPlaying)
  }

  public func shouldContinueLoading(
    bufferedAhead: MediaTime, nextChunkDuration: MediaTime, playbackElapsed: MediaTime,
    isPlaying: Bool
  ) -> Bool {
    lock.withLock {
      noteWatched(playbackElapsed)
      let buffered = bufferedAhead.finiteSeconds
      let chunk = nextChunkDuration.finiteSeconds
      if buffered > 0, buffered + chunk > resolved.maximumBuffer.finiteSeconds {
        isLoading = false
        return false
      }
      let stop = stopLevelSeconds()
      if !isPlaying, buffered < neededToPlaySeconds() {
        isLoading = true
        return true
      }
      if isLoading {
        if buffered >= stop { isLoading = false }
      } else if buffered < min(resolved.lowWaterMark.finiteSeconds, stop) {
        isLoading = true
      }
      return isLoading
    }
  }

  public func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool {
    lock.withLock {
      let needed = isAfterRebuffer ? resolved.bufferAfterRebuffer : resolved.startupBuffer
      let ready = bufferedAhead.finiteSeconds >= min(needed.finiteSeconds, stopLevelSeconds())
      if ready { hasStarted = true }
      return ready
    }
  }

  public func playbackDidProgress(elapsed: MediaTime) {
    lock.withLock { noteWatched(elapsed) }
  }

  public func reset() {
    lock.withLock {
      watchedSeconds = 0
      isLoading = true
      hasStarted = false
    }
  }

  /// Keeps the largest watch time reported (watch time never goes back within an item).
  private func noteWatched(_ elapsed: MediaTime) {
    watchedSeconds = max(watchedSeconds, elapsed.finiteSeconds)
  }

  /// The level at which loading stops now, in seconds.
  private func stopLevelSeconds() -> Double {
    let high = resolved.highWaterMark.finiteSeconds
    guard let size = resolved.optimizer.sizeSeconds(afterWatching: watchedSeconds) else {
      return high
    }
    return min(high, size)
  }

  /// What playback needs buffered to start (or resume), capped at the stop level.
  private func neededToPlaySeconds() -> Double {
    let needed = hasStarted ? resolved.bufferAfterRebuffer : resolved.startupBuffer
    return min(needed.finiteSeconds, stopLevelSeconds())
  }
}
