import Foundation
import PlayheadCore

extension MPDRepresentation {
  /// The media segments of this Representation in `period` (one of `mpd`'s Periods)
  /// available at `now`, a wall-clock instant corrected by a `UTCTiming` offset: one path
  /// for static and dynamic MPDs.
  ///
  /// A segment of a dynamic MPD is available from `availabilityStartTime + Period.start +`
  /// its end `- availabilityTimeOffset` (ISO/IEC 23009-1 5.3.9.5.3) until its end plus its
  /// duration plus `timeShiftBufferDepth` (none: it never leaves), and none after
  /// `availabilityEndTime`. `SegmentTemplate@duration` numbers are worked out from `now`
  /// (`startNumber` + the index from the Period's start) without walking; a
  /// `SegmentTimeline`'s `r="-1"` repeats up to the next `t`, the Period's end, or `now`;
  /// a `SegmentList`'s segments are checked one by one. An infinite
  /// `availabilityTimeOffset` makes a Period with an end available whole; on an open Period
  /// it counts as none (nothing says how far ahead segments exist).
  ///
  /// A static MPD gives `segments(in:maxCount:)`. A `SegmentBase` with an index gives none:
  /// its segments come from the `sidx` (`MPDSegmentBase.indexFetchRange`,
  /// `MPDSegmentBase.segments(from:in:)`); one without an index and without an
  /// initialization is one segment, the whole file, over the Period. Work is linear in the
  /// timeline's entries plus the segments returned, never in the segments skipped.
  public func availableSegments(
    in period: MPDPeriod, of mpd: MPD, at now: Date, maxCount: Int = 100_000
  ) -> MPDAvailableSegments {
    let none = MPDAvailableSegments(segments: [], isTruncated: false, nextAvailabilityTime: nil)
    guard maxCount > 0 else { return none }
    if case .base(let base) = addressing, base.indexRange == nil, base.initialization == nil {
      let whole = MPDSegmentReference(
        url: base.media, range: nil, number: 1, start: period.start,
        duration: period.duration ?? .indefinite, time: 0)
      return MPDAvailableSegments(segments: [whole], isTruncated: false, nextAvailabilityTime: nil)
    }
    let window = mpd.availabilityWindow(at: now)
    guard window.isDynamic else {
      var listed = Array(segmentSequence(in: period).prefix(maxCount + 1))
      let truncated = listed.count > maxCount
      if truncated { listed.removeLast() }
      return MPDAvailableSegments(
        segments: listed, isTruncated: truncated, nextAvailabilityTime: nil)
    }
    if let end = mpd.availabilityEndTime, now >= end { return none }
    var position = window.now
    if let end = mpd.availabilityEndTime, let last = mpd.presentationTime(at: end) {
      position = min(position, last)
    }
    guard position.isNumeric else { return none }
    let context = LiveContext(
      mpd: mpd, period: period, position: position, depth: mpd.timeShiftBufferDepth,
      maxCount: maxCount)
    switch addressing {
    case .unusable, .base:
      return none
    case .template(let template):
      if template.timeline != nil {
        return context.timelineSegments(of: self, template)
      }
      return context.numberedSegments(of: self, template)
    case .list(let list):
      return context.listSegments(of: self, list)
    }
  }

  /// The reference of one segment of `template`, its URL expanded and resolved.
  func templateReference(
    _ template: MPDSegmentTemplate, in period: MPDPeriod, time: Int64, duration: Int64,
    number: Int64
  ) -> MPDSegmentReference? {
    guard let baseURL else { return nil }
    let text = template.media.expand(
      representationID: id, bandwidth: bandwidth, number: number, time: time)
    guard let url = Self.resolve(text, against: baseURL) else { return nil }
    let (offset, overflow) = time.subtractingReportingOverflow(template.presentationTimeOffset)
    guard !overflow else { return nil }
    let timescale = Int32(clamping: template.timescale)
    return MPDSegmentReference(
      url: url, range: nil, number: number,
      start: period.start + MediaTime(value: offset, timescale: timescale),
      duration: MediaTime(value: duration, timescale: timescale), time: time)
  }
}

/// The bounds of a live Period at one instant, in a Representation's timescale.
private struct LiveContext {
  let mpd: MPD
  let period: MPDPeriod
  /// The presentation time of now (not past `availabilityEndTime`).
  let position: MediaTime
  let depth: MediaTime?
  let maxCount: Int

  /// The bounds in `timescale` units (with the presentation time offset added): a segment
  /// `[t, t + d)` is available when `t + d <= availableUpTo` and, with a depth,
  /// `t + 2d >= keptFrom`; `periodEnd` is where the Period's segments stop starting.
  struct Bounds {
    var availableUpTo: Int128
    var keptFrom: Int128?
    var periodEnd: Int128?
    /// The offset subtracted from availability times (zero when infinite).
    var offset: MediaTime
  }

  func bounds(timescale: Int64, presentationTimeOffset: Int64, offset: MediaTime?) -> Bounds? {
    let pto = Int128(presentationTimeOffset)
    let relative = position - period.start
    let periodEnd = period.duration.flatMap { Self.units($0, timescale, rounding: .nearest) }
      .map { $0 + pto }
    var offset = offset ?? .zero
    if offset.isPositiveInfinity, let periodEnd {
      return Bounds(
        availableUpTo: Int128.max / 4, keptFrom: nil, periodEnd: periodEnd, offset: .zero)
    }
    if !offset.isNumeric { offset = .zero }
    guard let upTo = Self.units(relative + offset, timescale, rounding: .down) else { return nil }
    let kept = depth.flatMap { Self.units(relative - $0, timescale, rounding: .up) }
    return Bounds(
      availableUpTo: upTo + pto, keptFrom: kept.map { $0 + pto }, periodEnd: periodEnd,
      offset: offset)
  }

  /// When a segment ending at `end` (timescale units, offset included) becomes available.
  func availabilityTime(ofEnd end: Int128, _ timescale: Int64, _ pto: Int64, _ bounds: Bounds)
    -> Date?
  {
    guard let value = Int64(exactly: end - Int128(pto)) else { return nil }
    let time = period.start + MediaTime(value: value, timescale: Int32(clamping: timescale))
    return mpd.wallClockTime(of: time - bounds.offset)
  }

  // MARK: SegmentTemplate@duration

  func numberedSegments(of representation: MPDRepresentation, _ template: MPDSegmentTemplate)
    -> MPDAvailableSegments
  {
    let none = MPDAvailableSegments(segments: [], isTruncated: false, nextAvailabilityTime: nil)
    guard let duration = template.duration, duration > 0,
      let bounds = bounds(
        timescale: template.timescale, presentationTimeOffset: template.presentationTimeOffset,
        offset: template.availabilityTimeOffset)
    else { return none }
    let d = Int128(duration)
    let pto = Int128(template.presentationTimeOffset)
    // Segment k is [pto + k d, pto + (k + 1) d).
    var last = Self.floorDiv(bounds.availableUpTo - pto, d) - 1
    var count: Int128?
    if let end = bounds.periodEnd {
      count = Self.ceilDiv(end - pto, d)
      last = min(last, count! - 1)
    }
    var first: Int128 = 0
    if let kept = bounds.keptFrom { first = max(0, Self.ceilDiv(kept - pto, d) - 2) }
    let next = max(0, last + 1)
    var nextTime: Date?
    if count.map({ next < $0 }) ?? true {
      nextTime = availabilityTime(
        ofEnd: pto + (next + 1) * d, template.timescale, template.presentationTimeOffset, bounds)
    }
    guard last >= first else {
      return MPDAvailableSegments(segments: [], isTruncated: false, nextAvailabilityTime: nextTime)
    }
    let truncated = last - first + 1 > Int128(maxCount)
    if truncated { first = last - Int128(maxCount) + 1 }
    var segments: [MPDSegmentReference] = []
    segments.reserveCapacity(Int(last - first + 1))
    for k in first...last {
      guard let time = Int64(exactly: pto + k * d),
        let number = Int64(exactly: Int128(template.startNumber) + k),
        let reference = representation.templateReference(
          template, in: period, time: time, duration: duration, number: number)
      else { continue }
      segments.append(reference)
    }
    return MPDAvailableSegments(
      segments: segments, isTruncated: truncated, nextAvailabilityTime: nextTime)
  }

  // MARK: SegmentTimeline

  func timelineSegments(of representation: MPDRepresentation, _ template: MPDSegmentTemplate)
    -> MPDAvailableSegments
  {
    let none = MPDAvailableSegments(segments: [], isTruncated: false, nextAvailabilityTime: nil)
    guard let timeline = template.timeline,
      let bounds = bounds(
        timescale: template.timescale, presentationTimeOffset: template.presentationTimeOffset,
        offset: template.availabilityTimeOffset)
    else { return none }
    let runs = timeline.runs(
      startNumber: template.startNumber, until: bounds.periodEnd.flatMap { Int64(exactly: $0) })
    // Per run, the indexes of its available segments.
    var ranges: [(run: MPDSegmentTimeline.Run, first: Int128, last: Int128)] = []
    var total: Int128 = 0
    var nextTime: Date?
    for run in runs {
      if run.time >= bounds.availableUpTo && nextTime != nil { break }
      let d = run.duration
      let last = min(run.count - 1, Self.floorDiv(bounds.availableUpTo - run.time, d) - 1)
      var first: Int128 = 0
      if let kept = bounds.keptFrom { first = max(0, Self.ceilDiv(kept - run.time, d) - 2) }
      if last >= first {
        ranges.append((run, first, last))
        total += last - first + 1
      }
      let next = max(0, last + 1)
      if nextTime == nil, next < run.count {
        nextTime = availabilityTime(
          ofEnd: run.start(next) + d, template.timescale, template.presentationTimeOffset, bounds)
      }
    }
    var skip = max(0, total - Int128(maxCount))
    var segments: [MPDSegmentReference] = []
    segments.reserveCapacity(Int(min(total, Int128(maxCount))))
    for range in ranges {
      var first = range.first
      let length = range.last - range.first + 1
      if skip >= length {
        skip -= length
        continue
      }
      first += skip
      skip = 0
      for index in first...range.last {
        guard let time = Int64(exactly: range.run.start(index)),
          let duration = Int64(exactly: range.run.duration),
          let number = Int64(exactly: range.run.number + index),
          let reference = representation.templateReference(
            template, in: period, time: time, duration: duration, number: number)
        else { continue }
        segments.append(reference)
      }
    }
    return MPDAvailableSegments(
      segments: segments, isTruncated: total > Int128(maxCount), nextAvailabilityTime: nextTime)
  }

  // MARK: SegmentList

  func listSegments(of representation: MPDRepresentation, _ list: MPDSegmentList)
    -> MPDAvailableSegments
  {
    var offset = list.availabilityTimeOffset ?? .zero
    let whole = offset.isPositiveInfinity && period.end != nil
    if !offset.isNumeric { offset = .zero }
    var segments: [MPDSegmentReference] = []
    var nextTime: Date?
    for reference in representation.segmentSequence(in: period) {
      let end = reference.start + reference.duration
      guard whole || end - offset <= position else {
        nextTime = mpd.wallClockTime(of: end - offset)
        break
      }
      if !whole, let depth, end + reference.duration + depth < position { continue }
      segments.append(reference)
    }
    let truncated = segments.count > maxCount
    if truncated { segments.removeFirst(segments.count - maxCount) }
    return MPDAvailableSegments(
      segments: segments, isTruncated: truncated, nextAvailabilityTime: nextTime)
  }

  // MARK: Arithmetic

  enum Rounding { case down, up, nearest }

  /// `time` in `timescale` units; nil when it is not a number.
  static func units(_ time: MediaTime, _ timescale: Int64, rounding: Rounding) -> Int128? {
    guard time.isNumeric else { return nil }
    let numerator = Int128(time.value) * Int128(timescale)
    let denominator = Int128(time.timescale)
    switch rounding {
    case .down: return floorDiv(numerator, denominator)
    case .up: return ceilDiv(numerator, denominator)
    case .nearest: return floorDiv(2 * numerator + denominator, 2 * denominator)
    }
  }

  static func floorDiv(_ a: Int128, _ b: Int128) -> Int128 {
    let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
    return remainder != 0 && (remainder < 0) != (b < 0) ? quotient - 1 : quotient
  }

  static func ceilDiv(_ a: Int128, _ b: Int128) -> Int128 {
    -floorDiv(-a, b)
  }
}
