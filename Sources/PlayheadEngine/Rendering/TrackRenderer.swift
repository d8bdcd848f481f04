import Foundation
import PlayheadCore

/// The kinds of track a player renders, one renderer each.
public enum TrackType: String, Sendable, CaseIterable {
  case video
  case audio
  case text
}

/// What the playback loop tells a renderer on every step.
struct RenderContext {
  /// Whether the position moves with the clock (false for the frame a paused player shows
  /// after a seek or at the start).
  var isPlaying: Bool
  /// Where forward playback ends before the media's end (the item's forward end or
  /// preview limit); nothing at or after it is rendered.
  var forwardEnd: MediaTime?
  /// Whether video frames that are late by more than the threshold are dropped (false
  /// until the item's first frame was presented).
  var dropsLateFrames = false
  /// A pause point the position stops at in this step: a frame at or after it waits, so
  /// that it is the first picture when playback goes on (after an ad break), not one shown
  /// for an instant before it.
  var pausePoint: MediaTime?
}

/// One selected track's output stage in the playback loop, the same shape for video, audio
/// and text (Media3's `Renderer`, docs/decisions/0030).
///
/// A renderer is enabled with its stream when the item becomes ready, fed by the loader
/// (decoded frames, audio buffers, cues), asked to render at the playback position on
/// every loop step, and reset when the position jumps (a seek) or its track changes. It
/// belongs to the playback loop's thread and is never shared.
protocol TrackRenderer: AnyObject {
  /// The track type it renders.
  var trackType: TrackType { get }
  /// Renders what is due at item time `position`: presents, writes or announces it.
  /// Returns the next item time at which something falls due (nil: nothing queued).
  /// A throw stops the item with `failedToPlayToEnd`.
  func render(at position: MediaTime, context: RenderContext) throws(PlayheadError) -> MediaTime?
  /// Whether it has what it needs to play on from `position` (or nothing more will come).
  func isReady(at position: MediaTime) -> Bool
  /// Whether its stream has ended and everything of it was rendered.
  var isEnded: Bool { get }
  /// Forgets what was queued or rendered: the position jumped to `position` (a seek) or
  /// the track changed.
  func reset(to position: MediaTime)
  /// Stops rendering; the item leaves the player or the player closes.
  func disable()
}
