import Foundation
import PlayheadCore

extension PlayerItem {
  /// Whether `step(byCount:)` can move forward: the item is ready and has video.
  public var canStepForward: Bool {
    status == .readyToPlay && tracks.contains { $0.kind == .video }
  }

  /// Whether `step(byCount:)` can move backward; the same as forward, as steps are seeks.
  public var canStepBackward: Bool { canStepForward }

  /// Moves `count` video frames forward (or back, when negative) from the current time, as
  /// AVPlayerItem's `step(byCount:)` and mpv's frame step do; meant for a paused player.
  ///
  /// A step is an exact seek by `count` frame durations (from the video track's frame rate,
  /// 25 fps when unknown), so the frame shown is the one at that time; the time stays
  /// within the item (0 … duration). Does nothing when the item cannot step or `count`
  /// is 0. `completionHandler` reports as a seek's does.
  public func step(byCount count: Int, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
    guard count != 0, canStepForward else {
      completionHandler?(false)
      return
    }
    let frameRate = tracks.first { $0.kind == .video }?.nominalFrameRate ?? 0
    let frameDuration =
      frameRate.isFinite && frameRate > 0
      ? MediaTime(seconds: 1 / frameRate, preferredTimescale: 90_000)
      : MediaTime(value: 1, timescale: 25)
    var target = currentTime() + frameDuration.multiplied(byRatio: Int64(count), denominator: 1)
    if target < .zero { target = .zero }
    let end = duration
    if end.isNumeric, target > end { target = end }
    seek(
      to: target, toleranceBefore: .zero, toleranceAfter: .zero,
      completionHandler: completionHandler)
  }
}
