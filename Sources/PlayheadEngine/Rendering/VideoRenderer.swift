import Foundation
import PlayheadCore
import PlayheadMedia

/// The video renderer: presents the loader's decoded frames on the video sink when the
/// position reaches them, dropping the ones it is late for.
final class VideoRenderer: TrackRenderer {
  let trackType = TrackType.video
  private let loader: ItemLoader
  private let sink: (any VideoSink)?
  private let lateFrameDropThreshold: MediaTime
  /// Called with every frame the sink presented.
  private let presented: (VideoFrame) -> Void
  /// The end of the last frame taken from the queue (shown or dropped).
  private(set) var lastEnd: MediaTime = .zero
  private(set) var framesRendered = 0
  private(set) var framesDropped = 0

  init(
    loader: ItemLoader, sink: (any VideoSink)?, lateFrameDropThreshold: MediaTime,
    presented: @escaping (VideoFrame) -> Void
  ) {
    self.loader = loader
    self.sink = sink
    self.lateFrameDropThreshold = lateFrameDropThreshold
    self.presented = presented
  }

  /// Presents the latest due frame; earlier due frames are dropped as late while playing.
  ///
  /// Forward playback covers [start, end): a frame at or after the forward end is never
  /// shown, so the last frame does not depend on whether it was decoded before the end was
  /// reached; likewise a frame at or after a pause point being stopped at waits for the
  /// next step after it. While playing, a frame whose time on screen ended more than the late-frame
  /// threshold ago is dropped too (the previous picture stays), unless `context`
  /// says the first frame is still to come.
  func render(at position: MediaTime, context: RenderContext) throws(PlayheadError) -> MediaTime? {
    var due: TimedVideoFrame?
    var skipped = 0
    let horizon = position + PlaybackLoop.dueTolerance
    let end = [context.forwardEnd, context.pausePoint].compactMap { $0 }.min()
    while let next = loader.peekVideo(), next.time <= horizon, end.map({ next.time < $0 }) ?? true {
      if due != nil { skipped += 1 }
      due = loader.popVideo()
    }
    if let frame = due {
      if context.isPlaying { framesDropped += skipped }
      lastEnd = max(lastEnd, frame.time + frame.duration)
      let threshold = lateFrameDropThreshold
      if context.isPlaying, context.dropsLateFrames, threshold.isNumeric,
        position - (frame.time + frame.duration) > threshold
      {
        framesDropped += 1
      } else {
        try sink?.present(frame.frame, itemTime: frame.time)
        framesRendered += 1
        presented(frame.frame)
      }
    }
    return loader.peekVideo()?.time
  }

  /// Drops the queued frames whose time on screen ended by `position`, counting them: while
  /// a device that leads the clock waits for video that fell behind it, the decoder catches
  /// up only if what it decoded too late leaves its queue.
  func dropFrames(endingBy position: MediaTime) {
    while let next = loader.peekVideo(), next.time + next.duration <= position {
      _ = loader.popVideo()
      lastEnd = max(lastEnd, next.time + next.duration)
      framesDropped += 1
    }
  }

  func isReady(at position: MediaTime) -> Bool {
    loader.peekVideo() != nil || loader.queuedEnds().videoEnded
  }

  var isEnded: Bool {
    let queued = loader.queuedEnds()
    return queued.videoEnded && queued.video == nil
  }

  func reset(to position: MediaTime) {
    lastEnd = position
  }

  func disable() {}
}
