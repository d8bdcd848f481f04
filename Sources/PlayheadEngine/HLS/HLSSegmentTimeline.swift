import PlayheadCore
import PlayheadHLS

/// Where each segment of a media playlist ends, counted from its first segment: computed
/// once per playlist load so that finding the next segment and the content's end take a
/// binary search, not a pass over the playlist (the loader asks at every decision and
/// every progress report).
struct HLSSegmentTimeline: Sendable {
  /// `ends[i]` is the sum of the durations of segments 0...i, added in order.
  let ends: [MediaTime]

  init(_ media: MediaPlaylist) {
    var ends: [MediaTime] = []
    ends.reserveCapacity(media.segments.count)
    var end = MediaTime.zero
    for segment in media.segments {
      end = end + segment.duration
      ends.append(end)
    }
    self.ends = ends
  }

  /// The sum of the durations (the playlist's `totalDuration`).
  var total: MediaTime { ends.last ?? .zero }

  /// The first segment that ends after `time`, with its start; nil when none does.
  func firstSegment(endingAfter time: MediaTime) -> (index: Int, start: MediaTime)? {
    var low = 0
    var high = ends.count
    while low < high {
      let middle = (low + high) / 2
      if ends[middle] > time { high = middle } else { low = middle + 1 }
    }
    guard low < ends.count else { return nil }
    return (low, low == 0 ? .zero : ends[low - 1])
  }
}
