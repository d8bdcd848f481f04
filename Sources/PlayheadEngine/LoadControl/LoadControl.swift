import PlayheadCore

/// Decides when the loader fetches more media and when playback may start.
///
/// Every item a `Player` plays has one (`PlayerConfiguration.makeLoadControl`; a
/// `DefaultLoadControl` by default). The engine asks `shouldContinueLoading` before each
/// HLS segment request and `shouldStartPlayback` while it waits to start (at the first
/// play and after a seek) or to resume after a stall, with the media loaded ahead of the
/// play position (decision 0025). It reports watch time (clock time spent playing)
/// through `playbackDidProgress(elapsed:)` and the `playbackElapsed` argument, which is
/// what the buffer optimiser grows with. The player calls an item's control from its
/// threads one call at a time. Implementations are pure logic: no I/O, no clocks of
/// their own.
public protocol LoadControl: AnyObject {
  /// The forward buffer the loader aims for now.
  var targetBuffer: MediaTime { get }
  /// Whether to request more media with `bufferedAhead` buffered.
  ///
  /// `playbackElapsed` is how long this item has been playing (watch time, not the play
  /// position); `isPlaying` is false while paused, starting or stalled.
  func shouldContinueLoading(
    bufferedAhead: MediaTime, playbackElapsed: MediaTime, isPlaying: Bool
  ) -> Bool
  /// The same question when the next request brings `nextChunkDuration` of media; a load
  /// control may refuse a chunk that would overshoot its maximum buffer.
  func shouldContinueLoading(
    bufferedAhead: MediaTime, nextChunkDuration: MediaTime, playbackElapsed: MediaTime,
    isPlaying: Bool
  ) -> Bool
  /// Whether playback may start (or resume after a stall) with `bufferedAhead` buffered.
  ///
  /// The engine starts regardless when the rest of the item is buffered, or when loading
  /// holds back at its target (more cannot come until playback moves), and once the
  /// item's `preferredForwardBufferDuration` is buffered.
  func shouldStartPlayback(bufferedAhead: MediaTime, isAfterRebuffer: Bool) -> Bool
  /// Reports the watch time so far.
  func playbackDidProgress(elapsed: MediaTime)
  /// Forgets the watch time and loading state (a new item starts).
  func reset()
}

extension LoadControl {
  /// Ignores the chunk size and asks `shouldContinueLoading(bufferedAhead:playbackElapsed:isPlaying:)`.
  public func shouldContinueLoading(
    bufferedAhead: MediaTime, nextChunkDuration: MediaTime, playbackElapsed: MediaTime,
    isPlaying: Bool
  ) -> Bool {
    shouldContinueLoading(
      bufferedAhead: bufferedAhead, playbackElapsed: playbackElapsed, isPlaying: isPlaying)
  }
}
