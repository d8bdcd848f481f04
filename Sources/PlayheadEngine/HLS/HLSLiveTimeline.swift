import Foundation
import PlayheadCore
import PlayheadHLS

/// Where the segments of a live playlist lie on the item timeline.
///
/// Item time 0 is the start of the first segment of the playlist as first loaded. Each
/// reload keeps the times of the segments it shares with the previous playlist, so a
/// segment's start never moves: segments that drop out of a sliding window leave the
/// range at its start, new ones extend it at the end. An EVENT playlist only grows, so
/// its range keeps starting at 0.
struct HLSLiveTimeline: Sendable, Equatable {
  /// The media sequence number of the first segment of the latest playlist.
  private(set) var firstSequence: Int
  /// The start of each segment of the latest playlist, then the end of its last one.
  private(set) var boundaries: [MediaTime]

  /// A timeline on which segment `sequence` of `playlist` starts at `time`.
  init(_ playlist: MediaPlaylist, sequence: Int? = nil, startsAt time: MediaTime = .zero) {
    let first = playlist.segments.first?.mediaSequence ?? playlist.mediaSequence
    let before = playlist.segments.prefix { $0.mediaSequence < (sequence ?? first) }
      .reduce(MediaTime.zero) { $0 + $1.duration }
    firstSequence = first
    boundaries = Self.boundaries(of: playlist, from: time - before)
  }

  /// A timeline on which the last segment of `playlist` ends at `edge` (an alternate
  /// rendition placed on its main stream's timeline by their live edges).
  init(_ playlist: MediaPlaylist, endingAt edge: MediaTime) {
    let end = (playlist.segments.last?.mediaSequence ?? playlist.mediaSequence - 1) + 1
    self.init(playlist, sequence: end, startsAt: edge)
  }

  /// From the first segment still in the playlist to the end of its last one.
  var range: MediaTimeRange {
    MediaTimeRange(start: boundaries.first ?? .zero, end: boundaries.last ?? .zero)
  }

  /// The media sequence number after the last segment.
  var endSequence: Int { firstSequence + boundaries.count - 1 }

  /// The item time at which segment `sequence` starts (the end for `endSequence`); nil
  /// for a segment outside the latest playlist.
  func start(ofSequence sequence: Int) -> MediaTime? {
    let index = sequence - firstSequence
    return boundaries.indices.contains(index) ? boundaries[index] : nil
  }

  /// The segment that holds `time`: the first one for earlier times, the last one for
  /// times at or after the end; nil when the playlist has no segment.
  func sequence(containing time: MediaTime) -> Int? {
    guard boundaries.count > 1 else { return nil }
    var low = 0
    var high = boundaries.count - 2
    // The last segment whose start is at or before `time`.
    while low < high {
      let middle = (low + high + 1) / 2
      if boundaries[middle] <= time { low = middle } else { high = middle - 1 }
    }
    return firstSequence + low
  }

  /// Places a reloaded playlist on the timeline: segments it shares with the previous
  /// one keep their times. A window that moved past every known segment continues at
  /// the known end, one target duration per segment missed.
  mutating func update(with playlist: MediaPlaylist) {
    let first = playlist.segments.first?.mediaSequence ?? playlist.mediaSequence
    let origin: MediaTime
    if let known = start(ofSequence: first) {
      origin = known
    } else if first > endSequence {
      let target = MediaTime(value: Int64(max(1, playlist.targetDuration)), timescale: 1)
      origin = range.end + target.multiplied(byRatio: Int64(first - endSequence), denominator: 1)
    } else {
      // The new playlist starts before the known one: count back from a shared segment.
      let before = playlist.segments.prefix { $0.mediaSequence < firstSequence }
        .reduce(MediaTime.zero) { $0 + $1.duration }
      origin = range.start - before
    }
    firstSequence = first
    boundaries = Self.boundaries(of: playlist, from: origin)
  }

  private static func boundaries(of playlist: MediaPlaylist, from origin: MediaTime)
    -> [MediaTime]
  {
    var result = [origin]
    result.reserveCapacity(playlist.segments.count + 1)
    var time = origin
    for segment in playlist.segments {
      time = time + segment.duration
      result.append(time)
    }
    return result
  }
}
