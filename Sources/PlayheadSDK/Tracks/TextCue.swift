import Foundation
import PlayheadCore
import PlayheadText

/// One cue of the selected text track, with its times on the item's timeline.
///
/// A cue is active from `start` (included) to `end` (excluded). Sidecar cue times are item
/// times as written; cues of HLS WebVTT segments are moved by their `X-TIMESTAMP-MAP`
/// (docs/tracks.md).
public struct TextCue: Sendable, Equatable, Identifiable {
  /// The cue's place in the track, in start order as the cues arrived (unique per
  /// selection; two cues with the same times, text, identifier and settings are one cue).
  public let id: Int
  /// The `TextTrackOption.id` of the track.
  public let trackID: String
  /// The track's language, if stated.
  public let language: String?
  /// The cue, its `start` and `end` on the item timeline.
  public let cue: WebVTTCue

  public init(id: Int, trackID: String, language: String? = nil, cue: WebVTTCue) {
    self.id = id
    self.trackID = trackID
    self.language = language
    self.cue = cue
  }

  /// When the cue becomes active (item time).
  public var start: MediaTime { cue.start }
  /// When the cue stops being active (item time).
  public var end: MediaTime { cue.end }
  /// The payload with its markup (`<i>`, `<v Speaker>`).
  public var text: String { cue.text }
  /// The payload without markup, character references decoded.
  public var plainText: String { cue.plainText }
}

/// What happened to a session's text track; delivered to `TextTrackController`
/// observers, in order.
public enum TextTrackEvent: Sendable {
  /// The selection was made or changed. `isAutomatic` is true for the choice the
  /// preferences make when the item becomes ready (sent once, even when it chooses none),
  /// false for `select(_:)`.
  case selectionChanged(TextTrackOption?, isAutomatic: Bool)
  /// The selected track's cues are in: the whole sidecar file, or for an HLS rendition
  /// every segment up to the look-ahead limit (sent once per selection, after the enters
  /// of the cues active at the play position).
  case loaded(TextTrackOption, cueCount: Int)
  /// The selected track (or one of its segments) could not be fetched or parsed. The
  /// track stays selected; for a rendition, the other segments are still fetched.
  case failed(TextTrackOption, PlayheadError)
  /// A cue became active at `time` (item time).
  case cueEntered(TextCue, time: MediaTime)
  /// A cue stopped being active at `time`.
  case cueExited(TextCue, time: MediaTime)
  /// The engine switched the audio rendition (nil: the variant's own audio).
  case audioChanged(AudioTrackOption?)
}
