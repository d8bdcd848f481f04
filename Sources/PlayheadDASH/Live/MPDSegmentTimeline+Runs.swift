extension MPDSegmentTimeline {
  /// One entry of a timeline with its repeat resolved: `count` segments of `duration`
  /// from `time`, numbered from `number`. Int128, so no hostile `t`, `d` or `r` overflows.
  struct Run: Sendable, Hashable {
    var time: Int128
    var duration: Int128
    var count: Int128
    var number: Int128

    /// The start of the `index`th segment of the run.
    func start(_ index: Int128) -> Int128 { time + index * duration }
  }

  /// The entries as runs, in order, stopping before `end` (segments that start at or after
  /// it are left out). An open repeat (`r="-1"`) runs up to the next entry's `t`, else up to
  /// `end`, else without end (a live timeline: its segments up to now are the available
  /// ones, which the caller works out). One run per entry: linear in the entries, whatever
  /// the repeats.
  func runs(startNumber: Int64, until end: Int64?) -> [Run] {
    let end = end.map { Int128($0) }
    var result: [Run] = []
    result.reserveCapacity(entries.count)
    var time: Int128 = 0
    var number = Int128(startNumber)
    for (index, entry) in entries.enumerated() {
      if let start = entry.time { time = Int128(start) }
      if let first = entry.number { number = Int128(first) }
      let duration = Int128(entry.duration)
      guard duration > 0 else { continue }
      if let end, time >= end { break }
      var count: Int128
      if entry.repeatCount >= 0 {
        count = Int128(entry.repeatCount) + 1
      } else {
        let next = index + 1 < entries.count ? entries[index + 1].time.map { Int128($0) } : nil
        if let stop = next ?? end {
          count = stop <= time ? 1 : (stop - time + duration - 1) / duration
        } else {
          // Unbounded: as many as Int64 times can hold.
          count = max(1, (Int128(Int64.max) - time) / duration)
        }
      }
      if let end {
        count = min(count, (end - time + duration - 1) / duration)
      }
      result.append(Run(time: time, duration: duration, count: count, number: number))
      time += count * duration
      number += count
    }
    return result
  }
}
