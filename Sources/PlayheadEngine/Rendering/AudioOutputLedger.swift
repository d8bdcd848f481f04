import Foundation
import PlayheadCore

/// The item time behind every frame written to a clocked audio device since its last
/// flush, so that the device's played count maps back to an item time.
///
/// One span per buffer written: the item time it covers and the frames it became (more or
/// fewer than its own when the rate stage stretched it). The heard position never moves
/// back: after the device ran dry its count, less the latency, points into audio already
/// heard, and the position waits at the end of it until the new audio is heard.
struct AudioOutputLedger {
  private struct Span {
    var itemStart: MediaTime
    var itemEnd: MediaTime
    /// The device frame the span starts at.
    var firstFrame: Int
    var frameCount: Int
  }

  private var spans: [Span] = []
  /// Spans before this index were heard in full (a cursor: the search stays linear).
  private var heardSpan = 0
  private var lastHeard: MediaTime?
  /// Frames written since the last flush.
  private(set) var frameCount = 0

  var isEmpty: Bool { spans.isEmpty }

  mutating func append(itemStart: MediaTime, itemEnd: MediaTime, frameCount frames: Int) {
    spans.append(
      Span(itemStart: itemStart, itemEnd: itemEnd, firstFrame: frameCount, frameCount: frames))
    frameCount += frames
  }

  /// The item time of the frame being heard: `progress`'s played count less its latency.
  /// Before the first frame is heard, the start of the first span.
  mutating func heardPosition(_ progress: AudioOutputProgress, sampleRate: Int) -> MediaTime? {
    guard let first = spans.first else { return nil }
    let latencyFrames = Int(
      progress.latency.convertScale(Int32(sampleRate), rounding: .roundHalfAwayFromZero).value)
    let heard = min(progress.playedFrameCount, frameCount) - max(0, latencyFrames)
    var position = first.itemStart
    if heard > 0 {
      while heardSpan < spans.count - 1,
        spans[heardSpan].firstFrame + spans[heardSpan].frameCount <= heard
      {
        heardSpan += 1
      }
      let span = spans[heardSpan]
      let into = min(heard - span.firstFrame, span.frameCount)
      position =
        span.itemStart
        + (span.itemEnd - span.itemStart).multiplied(
          byRatio: Int64(into), denominator: Int64(max(1, span.frameCount)))
      // Drop spans heard long ago (keep the cursor's span).
      if heardSpan > 64 {
        spans.removeFirst(heardSpan)
        heardSpan = 0
      }
    }
    if let lastHeard, position < lastHeard { position = lastHeard }
    lastHeard = position
    return position
  }
}
