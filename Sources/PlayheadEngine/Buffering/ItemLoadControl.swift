import Foundation
import PlayheadCore

/// One item's load control as the engine uses it: the player's `LoadControl` made for
/// this item, with the item's own limits on top, the playback state the playback loop
/// reports, and a lock so that the loading threads and the playback thread may share it.
///
/// The item's limits: a `preferredForwardBufferDuration` above zero is the forward target
/// (loading stops once that much is downloaded ahead, and playback may start or resume
/// once it is there, whatever the control's startup buffer says); nothing is loaded that
/// starts at or after the item's forward end (`forwardEndTime`). The watch time and the
/// playing state the HLS downloader passes are replaced by what the loop reported, so
/// the buffer optimiser grows with time watched, not with the play position.
final class ItemLoadControl: LoadControl, @unchecked Sendable {
  // Unchecked Sendable: `control` is guarded by `lock` and only ever called with it held;
  // the playback state has a lock of its own.
  private let lock = NSLock()
  private let control: any LoadControl
  private let make: @Sendable () -> any LoadControl
  private let playback: PlaybackState
  let item: PlayerItem

  /// A control for `item` from `make` (called once now, and once per `sibling()`).
  convenience init(item: PlayerItem, make: @escaping @Sendable () -> any LoadControl) {
    self.init(item: item, make: make, playback: PlaybackState())
  }

  private init(
    item: PlayerItem, make: @escaping @Sendable () -> any LoadControl, playback: PlaybackState
  ) {
    self.item = item
    self.make = make
    self.playback = playback
    control = make()
  }

  /// A control of its own for a second stream of the same item (an alternate audio
  /// rendition), with the same item limits and playback state: each downloader keeps its
  /// own hysteresis.
  func sibling() -> ItemLoadControl {
    ItemLoadControl(item: item, make: make, playback: playback)
  }

  /// Records whether playback runs now and how long the item has been watched (for this
  /// control and its siblings).
  func setPlaybackState(isPlaying: Bool, watched time: MediaTime) {
    let watched = playback.set(isPlaying: isPlaying, watched: time)
    lock.withLock { control.playbackDidProgress(elapsed: watched) }
  }

  /// Whether playback ran at the last report.
  var isPlaying: Bool { playback.read().isPlaying }

  /// The item's forward target, when it sets one (nil: automatic).
  var preferredForwardBuffer: MediaTime? {
    let preferred = item.preferredForwardBufferDuration
    return preferred.isNumeric && preferred > .zero ? preferred : nil
  }

  /// Where forward playback of the item ends before its media does, if anywhere.
  var forwardEnd: MediaTime? { item.forwardEndTime }

  // MARK: LoadControl

  var targetBuffer: MediaTime {
    let preferred = preferredForwardBuffer
    let target = lock.withLock { control.targetBuffer }
    return preferred.map { MediaTime.minimum($0, target) } ?? target
  }

  func shouldContinueLoading(
    bufferedAhead: MediaTime, playbackElapsed: MediaTime, isPlaying: Bool
  ) -> Bool {
    shouldContinueLoading(
      bufferedAhead: bufferedAhead, nextChunkDuration: .zero, playbackElapsed: playbackElapsed,
      isPlaying: isPlaying)
  }

  /// The item's target first (nothing more once it is downloaded ahead), then the control
  /// with the loop's watch time and playing state.
  func shouldContinueLoading(
    bufferedAhead: MediaTime, nextChunkDuration: MediaTime, playbackElapsed: MediaTime,
    isPlaying: Bool
  ) -> Bool {
    if let preferred = preferredForwardBuffer, bufferedAhead.isNumeric,
      bufferedAhead >= preferred
    {
      return false
    }
    let state = playback.read()
    return lock.withLock {
      control.shouldContinueLoading(
        bufferedAhead: bufferedAhead, nextChunkDuration: nextChunkDuration,
        playbackElapsed: state.watched, isPlaying: state.isPlaying)
    }
  }

  /// The control's answer, or yes once the item's forward target is buffered.
  func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool {
    let ready = lock.withLock {
      control.shouldStartPlayback(bufferedAhead: bufferedAhead, isAfterRebuffer: isAfterRebuffer)
    }
    guard !ready, let preferred = preferredForwardBuffer else { return ready }
    return bufferedAhead.isNumeric && bufferedAhead >= preferred
  }

  /// Ignored: the loop reports the watch time (`setPlaybackState`).
  func playbackDidProgress(elapsed: MediaTime) {}

  func reset() {
    playback.reset()
    lock.withLock { control.reset() }
  }
}

extension ItemLoadControl {
  /// The playback state the loop reports, shared by an item's controls.
  fileprivate final class PlaybackState: Sendable {
    private let state = Locked(Snapshot())

    private struct Snapshot: Sendable {
      var isPlaying = false
      var watched: MediaTime = .zero
    }

    /// Sets the state; the watch time never goes back. Returns the watch time.
    func set(isPlaying playing: Bool, watched time: MediaTime) -> MediaTime {
      state.withLock { state in
        state.isPlaying = playing
        if time.isNumeric, time > state.watched { state.watched = time }
        return state.watched
      }
    }

    func read() -> (isPlaying: Bool, watched: MediaTime) {
      let snapshot = state.value
      return (snapshot.isPlaying, snapshot.watched)
    }

    func reset() {
      state.withLock { $0 = Snapshot() }
    }
  }
}
