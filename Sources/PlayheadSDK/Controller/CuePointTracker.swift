import Foundation
import PlayheadCore

/// Decides which cue points a session passes, each at most once.
///
/// The rules (docs/sdk.md "Cue points"):
/// - "before" cue points fire on the first play, "after" cue points when the content ends;
/// - in normal playback a timed cue point fires when the position reaches its time (a cue
///   point at the start position fires on the first progress);
/// - a seek forward passes the cue points between the old and the new position: of each
///   type only the latest one fires (one ad break, not every break jumped over); the others
///   stay unfired and fire if playback later crosses them;
/// - a seek backward fires nothing; `seekWithoutAds` fires nothing for the range it jumps;
/// - a cue point that fired never fires again in the same session.
struct CuePointTracker {
  private let timed: [(index: Int, cuePoint: CuePoint, time: MediaTime)]
  private let before: [CuePoint]
  private let after: [CuePoint]
  private var fired = Set<Int>()
  private var beforeDone = false
  private var afterDone = false
  /// The position up to which normal playback has been checked; nil before the first progress.
  private(set) var position: MediaTime?

  init(cuePoints: CuePointCollection) {
    var timed: [(index: Int, cuePoint: CuePoint, time: MediaTime)] = []
    for (index, cuePoint) in cuePoints.enumerated() {
      if let time = cuePoint.position.time { timed.append((index, cuePoint, time)) }
    }
    self.timed = timed.sorted { $0.time < $1.time || ($0.time == $1.time && $0.index < $1.index) }
    before = cuePoints.beforeCuePoints
    after = cuePoints.afterCuePoints
  }

  /// The times of the timed cue points, sorted (for boundary observers).
  var times: [MediaTime] { timed.map(\.time) }

  /// The "before" cue points, the first time only.
  mutating func takeBefore() -> [CuePoint] {
    guard !beforeDone else { return [] }
    beforeDone = true
    return before
  }

  /// The "after" cue points, the first time only.
  mutating func takeAfter() -> [CuePoint] {
    guard !afterDone else { return [] }
    afterDone = true
    return after
  }

  /// Normal playback reached `time`: the unfired cue points in (position, time], or
  /// [time, time] on the first call. A time before the position only moves the position.
  mutating func advance(to time: MediaTime) -> [CuePoint] {
    guard time.isNumeric else { return [] }
    let start = position
    position = time
    var passed: [CuePoint] = []
    for entry in timed where !fired.contains(entry.index) {
      let isAfterStart = start.map { entry.time > $0 } ?? (entry.time <= time)
      if isAfterStart && entry.time <= time {
        fired.insert(entry.index)
        passed.append(entry.cuePoint)
      }
    }
    return passed
  }

  /// A seek moved playback to `time`; returns the cue points it passes (see the type's rules).
  mutating func seek(to time: MediaTime, firesPassedCuePoints: Bool) -> [CuePoint] {
    guard time.isNumeric else { return [] }
    let start = position ?? .zero
    position = time
    guard firesPassedCuePoints, time > start else { return [] }
    var latestByType: [String: (index: Int, cuePoint: CuePoint, time: MediaTime)] = [:]
    for entry in timed
    where !fired.contains(entry.index) && entry.time > start && entry.time <= time {
      latestByType[entry.cuePoint.type] = entry
    }
    let chosen = latestByType.values.sorted { $0.time < $1.time || $0.index < $1.index }
    for entry in chosen { fired.insert(entry.index) }
    return chosen.map(\.cuePoint)
  }
}
