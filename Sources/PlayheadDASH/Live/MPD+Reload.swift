import Foundation
import PlayheadCore

extension MPD {
  /// Where to load the MPD from next time: its first `Location` (5.3.1.2), else the URL it
  /// was loaded from.
  ///
  /// The parser has resolved each `Location` against the MPD's URL and refused an MPD from
  /// the network whose `Location` names a local file, so a remote MPD never moves to `file:`.
  public var reloadURL: URL { locations.first ?? url }

  /// Whether the MPD changes and must be reloaded: dynamic, with `minimumUpdatePeriod`.
  ///
  /// A dynamic MPD without `minimumUpdatePeriod` does not change (5.3.1.2): its segments
  /// still become available over time, worked out from the clock.
  public var needsReload: Bool { type == .dynamic && minimumUpdatePeriod != nil }

  /// When to reload the MPD that was fetched at `fetchTime` (wall clock): `fetchTime +
  /// minimumUpdatePeriod`, but not sooner than `minimumInterval` seconds after it; nil when
  /// it does not change (static, no `minimumUpdatePeriod`) or its `availabilityEndTime` has
  /// passed by then.
  ///
  /// A `minimumUpdatePeriod` of zero means the MPD changes only as in-band events say
  /// (DASH-IF IOP 4.5): it is then reloaded every `minimumInterval` seconds, a safe fallback
  /// for a player that does not read those events.
  public func nextReloadTime(fetchedAt fetchTime: Date, minimumInterval: TimeInterval = 1)
    -> Date?
  {
    guard needsReload, let period = minimumUpdatePeriod, period.isNumeric else { return nil }
    let next = fetchTime.addingTimeInterval(max(period.seconds, minimumInterval))
    if let end = availabilityEndTime, next > end { return nil }
    return next
  }

  /// Whether `other`, a reload of this MPD, should replace it: its `publishTime` is not
  /// earlier (an MPD from a lagging cache is older); true when either has no `publishTime`.
  public func isSuperseded(by other: MPD) -> Bool {
    guard let mine = publishTime, let theirs = other.publishTime else { return true }
    return theirs >= mine
  }
}
