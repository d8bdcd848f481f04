import Foundation
import PlayheadCore

/// The media segments of one Representation in one Period available at an instant, as
/// `MPDRepresentation.availableSegments(in:of:at:maxCount:)` works them out.
public struct MPDAvailableSegments: Sendable, Hashable {
  /// The available segments in order, each with its number (`$Number$`, or the index from
  /// `startNumber` that `$Time$` addressing would have: stable across MPD reloads) and its
  /// place on the presentation timeline. At most `maxCount`: past it, a dynamic MPD keeps
  /// the newest (nearest the live edge), a static one the first.
  public var segments: [MPDSegmentReference]
  /// Whether segments were left out to keep within `maxCount`.
  public var isTruncated: Bool
  /// When the next segment after the last one listed becomes available (wall clock); nil
  /// when no further segment is known: a static MPD, a Period or presentation that has
  /// ended, or a SegmentTimeline or SegmentList whose next segment only a reload can tell.
  public var nextAvailabilityTime: Date?

  /// The start of the first segment listed (the window's earliest point); nil when none.
  public var earliest: MediaTime? { segments.first?.start }
  /// The end of the last segment listed (the window's edge); nil when none.
  public var edge: MediaTime? { segments.last.map { $0.start + $0.duration } }

  public init(segments: [MPDSegmentReference], isTruncated: Bool, nextAvailabilityTime: Date?) {
    self.segments = segments
    self.isTruncated = isTruncated
    self.nextAvailabilityTime = nextAvailabilityTime
  }
}
