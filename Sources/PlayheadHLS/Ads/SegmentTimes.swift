import Foundation
import PlayheadCore

/// The playlist time of every segment boundary and the mapping of dates onto it, built
/// once per playlist in linear time.
struct SegmentTimes {
  /// `starts[i]` is where segment `i` starts; `starts[segments.count]` is the playlist's end.
  let starts: [MediaTime]
  let durations: [MediaTime]
  /// The segments with a program date-time, in playlist order.
  private let dated: [(index: Int, date: Date)]

  init(_ playlist: MediaPlaylist) {
    var starts: [MediaTime] = []
    starts.reserveCapacity(playlist.segments.count + 1)
    var durations: [MediaTime] = []
    durations.reserveCapacity(playlist.segments.count)
    var dated: [(Int, Date)] = []
    var time = MediaTime.zero
    for (index, segment) in playlist.segments.enumerated() {
      starts.append(time)
      durations.append(segment.duration)
      time = time + segment.duration
      if let date = segment.programDateTime { dated.append((index, date)) }
    }
    starts.append(time)
    self.starts = starts
    self.durations = durations
    self.dated = dated
  }

  var count: Int { durations.count }
  var end: MediaTime { starts[count] }

  /// Whether the middle of segment `index` lies before `time` (exactly: twice the start
  /// plus the duration against twice the time).
  func middle(of index: Int, isBefore time: MediaTime) -> Bool {
    starts[index] + starts[index] + durations[index] < time + time
  }

  /// The end of the run of segments from `first` whose middle lies before `end`, and
  /// whether a segment after the run is in the playlist.
  ///
  /// Segments' middles increase along the playlist, so a binary search finds it.
  func coverage(from first: Int, until end: MediaTime) -> (end: Int, reachedEnd: Bool) {
    var low = first
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self.middle(of: middle, isBefore: end) { low = middle + 1 } else { high = middle }
    }
    return (low, low < count)
  }

  /// The playlist time of `date`: from the last dated segment at or before it (or the
  /// first dated segment, for a date before the window); nil without any dated segment.
  ///
  /// Dates are taken to increase along the playlist, as program date-times do.
  func time(of date: Date) -> MediaTime? {
    guard let first = dated.first else { return nil }
    var low = 0
    var high = dated.count
    while low < high {
      let middle = (low + high) / 2
      if dated[middle].date <= date { low = middle + 1 } else { high = middle }
    }
    let anchor = low == 0 ? first : dated[low - 1]
    let offset = MediaTime(
      seconds: date.timeIntervalSince(anchor.date), preferredTimescale: 1_000)
    return starts[anchor.index] + offset
  }
}
