/// A `SegmentTimeline`: its `<S t d r n>` entries as written, expanded lazily.
///
/// `r` repeats an entry (`r="3"` is four segments); `r="-1"` repeats it up to the next
/// entry's `t`, or up to the end given to `segments(until:)`. A timeline of millions of
/// segments stays a handful of entries in memory: `segments(until:)` walks it without
/// building an array.
public struct MPDSegmentTimeline: Sendable, Hashable {
  /// One `<S>` element.
  public struct Entry: Sendable, Hashable {
    /// `@t`: the segment's start in the timescale; nil follows on from the previous one.
    public var time: Int64?
    /// `@d`: each segment's duration in the timescale (positive).
    public var duration: Int64
    /// `@r`: how many more segments follow this one (-1: up to the next entry or the end).
    public var repeatCount: Int64
    /// `@n`: the number of the first segment, when given.
    public var number: Int64?

    public init(time: Int64? = nil, duration: Int64, repeatCount: Int64 = 0, number: Int64? = nil) {
      self.time = time
      self.duration = duration
      self.repeatCount = repeatCount
      self.number = number
    }
  }

  /// One segment of the timeline, in the timescale.
  public struct Segment: Sendable, Hashable {
    /// Its start (`@t` and what follows from it).
    public var time: Int64
    /// Its duration.
    public var duration: Int64
    /// Its place, from the template's `startNumber` (or an entry's `@n`).
    public var number: Int64
  }

  /// The entries in document order.
  public var entries: [Entry]

  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// The segments in order, starting at number `startNumber`, stopping before `end` (in the
  /// timescale) when given; an open `r="-1"` needs the next entry's `t` or `end` (without
  /// either it gives its one segment). Lazy: memory does not grow with the count.
  public func segments(startNumber: Int64, until end: Int64? = nil) -> Segments {
    Segments(entries: entries, startNumber: startNumber, end: end)
  }

  /// How many segments `segments(startNumber:until:)` gives, worked out entry by entry (no
  /// walk: a `r` of a billion costs nothing); nil past `limit`.
  public func count(until end: Int64? = nil, limit: Int64) -> Int64? {
    var total: Int64 = 0
    var time: Int64 = 0
    for (index, entry) in entries.enumerated() {
      if let start = entry.time { time = start }
      guard entry.duration > 0 else { continue }
      if let end, time >= end { break }
      var count: Int64
      if entry.repeatCount >= 0 {
        count = entry.repeatCount + 1
      } else {
        let stop = (index + 1 < entries.count ? entries[index + 1].time : nil) ?? end
        count = stop.map { $0 <= time ? 1 : ($0 - time + entry.duration - 1) / entry.duration } ?? 1
      }
      if let end {
        let fitting = (end - time + entry.duration - 1) / entry.duration
        count = min(count, max(0, fitting))
      }
      total += count
      if total > limit { return nil }
      let (advance, overflow) = count.multipliedReportingOverflow(by: entry.duration)
      guard !overflow else { return nil }
      time += advance
    }
    return total
  }

  /// The lazy sequence of `segments(startNumber:until:)`.
  public struct Segments: Sequence, Sendable {
    let entries: [Entry]
    let startNumber: Int64
    let end: Int64?

    public func makeIterator() -> Iterator {
      Iterator(entries: entries, number: startNumber, end: end)
    }

    /// Walks the entries one segment at a time.
    public struct Iterator: IteratorProtocol, Sendable {
      let entries: [Entry]
      var number: Int64
      let end: Int64?
      var entryIndex = 0
      /// Segments left of the current entry (after the one about to be returned); nil
      /// before the entry started.
      var left: Int64?
      var time: Int64 = 0

      init(entries: [Entry], number: Int64, end: Int64?) {
        self.entries = entries
        self.number = number
        self.end = end
      }

      public mutating func next() -> Segment? {
        while entryIndex < entries.count {
          let entry = entries[entryIndex]
          if left == nil {
            // Starting the entry: its own time and number, and how many it repeats.
            if let start = entry.time { time = start }
            if let first = entry.number { number = first }
            guard entry.duration > 0 else {
              entryIndex += 1
              continue
            }
            if entry.repeatCount >= 0 {
              left = entry.repeatCount
            } else {
              let limit = entryIndex + 1 < entries.count ? entries[entryIndex + 1].time : nil
              let stop = limit ?? end
              if let stop {
                let span = stop - time
                left = span <= 0 ? 0 : (span + entry.duration - 1) / entry.duration - 1
              } else {
                left = 0
              }
            }
          }
          if let end, time >= end { return nil }
          let segment = Segment(time: time, duration: entry.duration, number: number)
          time += entry.duration
          number += 1
          if let remaining = left, remaining > 0 {
            left = remaining - 1
          } else {
            left = nil
            entryIndex += 1
          }
          return segment
        }
        return nil
      }
    }
  }
}
