import Foundation
import PlayheadCore

/// How a Representation's segments are found, with inheritance resolved.
public enum MPDSegmentAddressing: Sendable {
  /// `SegmentBase`: one file; its segments come from the `sidx` at `indexRange`.
  case base(MPDSegmentBase)
  /// `SegmentList`: the segment URLs listed.
  case list(MPDSegmentList)
  /// `SegmentTemplate`: URLs made from a template by number or time.
  case template(MPDSegmentTemplate)
  /// Segment information that cannot locate any segment (a template without `@media`, a
  /// list without `SegmentURL`, a `SegmentBase` of media without `@indexRange`): the MPD
  /// is read, the Representation cannot be played; the reason says why (with its path).
  case unusable(reason: String)
}

/// A URL with an optional byte range (`Initialization`, `SegmentURL`, `RepresentationIndex`).
public struct MPDURLRange: Sendable, Hashable {
  public var url: URL
  public var range: ByteRange?
}

/// `SegmentBase`.
public struct MPDSegmentBase: Sendable, Hashable {
  public var timescale: Int64
  public var presentationTimeOffset: Int64
  /// `@indexRange`: where the `sidx` is.
  public var indexRange: ByteRange?
  public var initialization: MPDURLRange?
  /// The media file (the Representation's BaseURL).
  public var media: URL
  /// `@availabilityTimeOffset`: how much earlier than its end a segment is available
  /// (live, 5.3.9.5.3); `.positiveInfinity` for `INF`; nil when not given.
  public var availabilityTimeOffset: MediaTime?
}

/// `SegmentList`.
public struct MPDSegmentList: Sendable, Hashable {
  public var timescale: Int64
  public var presentationTimeOffset: Int64
  /// `@duration` in the timescale, when the segments have one.
  public var duration: Int64?
  public var startNumber: Int64
  public var initialization: MPDURLRange?
  public var segments: [MPDURLRange]
  public var timeline: MPDSegmentTimeline?
  /// `@availabilityTimeOffset` (see `MPDSegmentBase.availabilityTimeOffset`).
  public var availabilityTimeOffset: MediaTime?
}

/// `SegmentTemplate`.
public struct MPDSegmentTemplate: Sendable, Hashable {
  public var timescale: Int64
  public var presentationTimeOffset: Int64
  /// `@duration` in the timescale (without a timeline).
  public var duration: Int64?
  public var startNumber: Int64
  public var media: MPDURLTemplate
  public var initialization: MPDURLTemplate?
  public var timeline: MPDSegmentTimeline?
  /// `@availabilityTimeOffset` (see `MPDSegmentBase.availabilityTimeOffset`).
  public var availabilityTimeOffset: MediaTime?
}

/// One media segment of a Representation in a Period.
public struct MPDSegmentReference: Sendable, Hashable {
  public var url: URL
  public var range: ByteRange?
  /// Its number (`$Number$`), from `startNumber`.
  public var number: Int64
  /// Its start on the presentation timeline.
  public var start: MediaTime
  public var duration: MediaTime
  /// Its start in the timescale (`$Time$`, `@t`).
  public var time: Int64
}
