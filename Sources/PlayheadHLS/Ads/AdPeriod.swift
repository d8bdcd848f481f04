import Foundation
import PlayheadCore

/// A server-side ad break on a media playlist's timeline, found from its markers.
///
/// Times are playlist times: 0 is the start of the first segment in the playlist. A break
/// that began before a live window starts at a negative time (`startsBeforeWindow`). Find
/// the breaks with `MediaPlaylist.adPeriods()`.
public struct AdPeriod: Sendable, Hashable {
  /// The markers a break was found from.
  public enum Source: String, Sendable, Hashable, CaseIterable {
    /// `EXT-X-CUE-OUT` (with any `EXT-OATCLS-SCTE35` or `EXT-X-SCTE35` beside it).
    case cueOut
    /// `EXT-X-CUE-OUT-CONT` with no `EXT-X-CUE-OUT` in the playlist: the break began
    /// before the window.
    case cueOutCont
    /// `EXT-OATCLS-SCTE35` alone, whose section signals a break start.
    case oatclsSCTE35
    /// `EXT-X-SCTE35` alone, whose `CUE` signals a break start.
    case scte35Tag
    /// `EXT-X-DATERANGE` with `SCTE35-OUT` (or a `SCTE35-CMD` that signals a break start).
    case dateRange
  }

  /// Where `duration` came from, in the order of precedence the finder applies (see
  /// `MediaPlaylist.adPeriods()`).
  public enum DurationSource: String, Sendable, Hashable, CaseIterable {
    /// The segments between the break's start and its end marker (`EXT-X-CUE-IN`, an
    /// SCTE-35 end signal, or the `EXT-X-DATERANGE` that carries `SCTE35-IN`).
    case endMarker
    /// `EXT-X-CUE-OUT`'s duration, or `EXT-X-CUE-OUT-CONT`'s / `EXT-X-SCTE35`'s.
    case markerDuration
    /// The SCTE-35 `splice_insert` `break_duration`.
    case scte35BreakDuration
    /// The SCTE-35 `segmentation_duration`.
    case scte35SegmentationDuration
    /// `EXT-X-DATERANGE` `DURATION`.
    case dateRangeDuration
    /// `EXT-X-DATERANGE` `END-DATE` minus `START-DATE`.
    case dateRangeEndDate
    /// `EXT-X-DATERANGE` `PLANNED-DURATION`.
    case dateRangePlannedDuration
    /// Nothing gives one and the playlist has `EXT-X-ENDLIST`: the break runs to its end.
    case playlistEnd
  }

  /// The break's id: the `EXT-X-DATERANGE` `ID`, else the SCTE-35 event id in decimal,
  /// else `cue-` and the media sequence number of the first segment of the break in the
  /// playlist (stable across reloads of a live playlist while that segment is in it).
  public var id: String
  /// The markers the break was found from.
  public var source: Source
  /// The playlist time where the break begins: the start of its first segment, less the
  /// time already elapsed in the break for one that began before the window.
  public var start: MediaTime
  /// How long the break lasts; nil when nothing says (a bare `EXT-X-CUE-OUT` still open).
  public var duration: MediaTime?
  /// Where `duration` came from; nil with it.
  public var durationSource: DurationSource?
  /// The indexes of the playlist's segments inside the break.
  public var segments: Range<Int>
  /// Whether the break's end is in the playlist (an end marker, a segment after its
  /// duration, or `EXT-X-ENDLIST`); false for a break still open at the live edge.
  public var isComplete: Bool
  /// Whether the break began before the playlist's first segment.
  public var startsBeforeWindow: Bool
  /// The SCTE-35 section that starts the break, decoded, when there is one.
  public var scte35: SpliceInfoSection?

  public init(
    id: String, source: Source, start: MediaTime, duration: MediaTime?,
    durationSource: DurationSource?, segments: Range<Int>, isComplete: Bool,
    startsBeforeWindow: Bool = false, scte35: SpliceInfoSection? = nil
  ) {
    self.id = id
    self.source = source
    self.start = start
    self.duration = duration
    self.durationSource = durationSource
    self.segments = segments
    self.isComplete = isComplete
    self.startsBeforeWindow = startsBeforeWindow
    self.scte35 = scte35
  }

  /// `start + duration`, or nil when the duration is unknown.
  public var end: MediaTime? { duration.map { start + $0 } }
}

/// The ad breaks of a playlist, with notes on markers that were ignored.
public struct AdPeriodList: Sendable, Hashable {
  /// The breaks, in order of start.
  public var periods: [AdPeriod]
  /// One line per marker the finder ignored or could not read, such as a second
  /// `EXT-X-CUE-OUT` inside an open break.
  public var notes: [String]

  public init(periods: [AdPeriod], notes: [String] = []) {
    self.periods = periods
    self.notes = notes
  }
}
