import Foundation
import PlayheadCore
import PlayheadText

/// One cue of an item's selected text track, placed on the item timeline.
///
/// A cue is active from `start` (included) to `end` (excluded). Sidecar cue times are item
/// times as written; cues of HLS WebVTT segments are moved by their `X-TIMESTAMP-MAP` and
/// the item timeline's origin (docs/tracks.md). Two cues with the same times, text,
/// identifier and settings are one cue; cues that end before they start are dropped.
public struct TimedTextCue: Sendable, Equatable, Identifiable {
  /// The cue's number in its track, in the order the cues arrived (unique per selection).
  public let id: Int
  /// The text track the cue belongs to: a subtitle rendition or a sidecar track.
  public let track: RenditionInfo
  /// The cue, its `start` and `end` on the item timeline.
  public let cue: WebVTTCue

  public init(id: Int, track: RenditionInfo, cue: WebVTTCue) {
    self.id = id
    self.track = track
    self.cue = cue
  }

  /// When the cue becomes active (item time).
  public var start: MediaTime { cue.start }
  /// When the cue stops being active (item time).
  public var end: MediaTime { cue.end }
}
