import Foundation
import PlayheadCore

/// Playhead's load control: a startup buffer, a buffer to resume after a stall, loading
/// between a low- and a high-water mark under a hard maximum, and the growing buffer
/// optimiser.
///
/// Loading runs until the buffer reaches the stop level, then pauses until the buffer
/// falls below the low-water mark. The stop level is the high-water mark, lowered while
/// the optimiser's size (which grows with watch time) is smaller; `targetBuffer` reports
/// it. While the stop level is below the low-water mark, loading resumes below the same
/// share of the stop level (40 / 50 s: at 80 % of it), so a refill is a stretch of loading
/// and a stretch of rest, not a restart at every frame. A chunk that would take the
/// buffer past the maximum is not requested, unless the buffer is empty. While playback
/// is not running and the buffer is below what it needs to start, loading always
/// continues. Thread-safe; the state sits in a `Locked`.
///
/// ```swift
/// let control = DefaultLoadControl(scene: .short,
///                                  settings: BufferSettings(startupBuffer: .zero))
/// ```
public final class DefaultLoadControl: LoadControl, Sendable {
  private let state: Locked<State>

  /// Creates a load control for `scene` with `settings` winning over the scene's values.
  public init(scene: PlayerScene = .none, settings: BufferSettings = BufferSettings()) {
    state = Locked(
      State(scene: scene, settings: settings, resolved: settings.resolved(for: scene)))
  }

  /// The parameters in effect (the scene with the explicit settings applied).
  public var parameters: LoadControlParameters { state.withLock { $0.resolved } }

  /// Changes the scene; explicit settings keep winning over it.
  public func setScene(_ scene: PlayerScene) {
    state.withLock { state in
      state.scene = scene
      state.resolved = state.settings.resolved(for: scene)
    }
  }

  /// Replaces the explicit settings.
  public func setSettings(_ settings: BufferSettings) {
    state.withLock { state in
      state.settings = settings
      state.resolved = settings.resolved(for: state.scene)
    }
  }

  public var targetBuffer: MediaTime {
    state.withLock { MediaTime(seconds: $0.stopLevelSeconds(), preferredTimescale: 1000) }
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
    state.withLock { state in
      state.noteWatched(playbackElapsed)
      let buffered = bufferedAhead.finiteSeconds
      let chunk = nextChunkDuration.finiteSeconds
      if buffered > 0, buffered + chunk > state.resolved.maximumBuffer.finiteSeconds {
        state.isLoading = false
        return false
      }
      let stop = state.stopLevelSeconds()
      if !isPlaying, buffered < state.neededToPlaySeconds() {
        state.isLoading = true
        return true
      }
      if state.isLoading {
        if buffered >= stop { state.isLoading = false }
      } else if buffered < state.resumeLevelSeconds(stop: stop) {
        state.isLoading = true
      }
      return state.isLoading
    }
  }

  public func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool {
    state.withLock { state in
      let needed =
        isAfterRebuffer ? state.resolved.bufferAfterRebuffer : state.resolved.startupBuffer
      let ready =
        bufferedAhead.finiteSeconds >= min(needed.finiteSeconds, state.stopLevelSeconds())
      if ready { state.hasStarted = true }
      return ready
    }
  }

  public func playbackDidProgress(elapsed: MediaTime) {
    state.withLock { $0.noteWatched(elapsed) }
  }

  public func reset() {
    state.withLock { state in
      state.watchedSeconds = 0
      state.isLoading = true
      state.hasStarted = false
    }
  }

  /// The scene, the settings and what the control remembers of the item's loading.
  private struct State: Sendable {
    var scene: PlayerScene
    var settings: BufferSettings
    var resolved: LoadControlParameters
    var watchedSeconds: Double = 0
    var isLoading = true
    var hasStarted = false

    /// Keeps the largest watch time reported (watch time never goes back within an item).
    mutating func noteWatched(_ elapsed: MediaTime) {
      watchedSeconds = max(watchedSeconds, elapsed.finiteSeconds)
    }

    /// The level at which loading stops now, in seconds.
    func stopLevelSeconds() -> Double {
      let high = resolved.highWaterMark.finiteSeconds
      guard let size = resolved.optimizer.sizeSeconds(afterWatching: watchedSeconds) else {
        return high
      }
      return min(high, size)
    }

    /// The level below which a paused loading resumes, in seconds: the low-water mark, or,
    /// while the optimiser's size holds the stop level below it, the same share of the
    /// stop level as the low-water mark is of the high-water mark. Loading thus pauses
    /// for a stretch at every refill instead of restarting as soon as a frame plays
    /// (and `isPlaybackBufferFull` does not flap).
    func resumeLevelSeconds(stop: Double) -> Double {
      let low = resolved.lowWaterMark.finiteSeconds
      let high = resolved.highWaterMark.finiteSeconds
      guard stop < low, high > 0 else { return min(low, stop) }
      return stop * min(1, low / high)
    }

    /// What playback needs buffered to start (or resume), capped at the stop level.
    func neededToPlaySeconds() -> Double {
      let needed = hasStarted ? resolved.bufferAfterRebuffer : resolved.startupBuffer
      return min(needed.finiteSeconds, stopLevelSeconds())
    }
  }
}
