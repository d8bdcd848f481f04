import Foundation
import PlayheadCore
import PlayheadHLS

/// The HLS Interstitials (RFC 8216bis, Appendix D) of an item's media playlist, placed on
/// the item timeline, with the segment boundaries `X-SNAP` moves their edges to.
///
/// A live stream's schedule is read again on every playlist reload (a new `revision`,
/// announced by `PlayerEvent.Kind.interstitialsChanged`); a VOD stream has one.
public struct InterstitialSchedule: Sendable {
  /// The interstitials in playlist order; each one's `start` is an item time (a live
  /// playlist's are placed by the segments' positions on the live timeline).
  public var interstitials: [Interstitial]
  /// What the playlist's interstitial date ranges had wrong (left out or ignored).
  public var issues: [InterstitialIssue]
  /// The item times where segments of the playlist start, then the end of its last one.
  public var segmentBoundaries: [MediaTime]
  /// Whether the playlist is a live one (its window moves, interstitials come and go).
  public var isLive: Bool
  /// Grows by one with every reading; equal revisions hold the same schedule.
  public var revision: Int

  /// Creates a schedule.
  public init(
    interstitials: [Interstitial], issues: [InterstitialIssue] = [],
    segmentBoundaries: [MediaTime] = [], isLive: Bool = false, revision: Int = 0
  ) {
    self.interstitials = interstitials
    self.issues = issues
    self.segmentBoundaries = segmentBoundaries
    self.isLive = isLive
    self.revision = revision
  }

  /// The segment boundary nearest `time` (the earlier one on a tie); `time` itself when
  /// the schedule knows no boundary.
  public func nearestSegmentBoundary(to time: MediaTime) -> MediaTime {
    guard !segmentBoundaries.isEmpty else { return time }
    var low = 0
    var high = segmentBoundaries.count
    // The first boundary at or after `time`.
    while low < high {
      let middle = (low + high) / 2
      if segmentBoundaries[middle] < time { low = middle + 1 } else { high = middle }
    }
    let after = low < segmentBoundaries.count ? segmentBoundaries[low] : nil
    let before = low > 0 ? segmentBoundaries[low - 1] : nil
    switch (before, after) {
    case (let before?, let after?): return after - time < time - before ? after : before
    case (let before?, nil): return before
    case (nil, let after?): return after
    case (nil, nil): return time
    }
  }
}
