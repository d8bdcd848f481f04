import Foundation
import PlayheadCore

/// Breaks from `EXT-X-DATERANGE` tags, and the overlap rule between the two kinds.
extension AdPeriodFinder {
  /// The tags of one `ID`, merged: the first tag's values, filled in by later ones.
  private struct DateRangeGroup {
    var first: DateRange
    var duration: MediaTime?
    var endDate: Date?
    var plannedDuration: MediaTime?
    var scte35Out: String?
    var scte35Command: String?
    /// Where the first tag with `SCTE35-IN` stands.
    var inPosition: Int?
  }

  mutating func findDateRangeBreaks() -> [AdPeriod] {
    var groups: [DateRangeGroup] = []
    var indexByID: [String: Int] = [:]
    for range in playlist.dateRanges where range.classValue != Interstitial.classValue {
      if let index = indexByID[range.id] {
        groups[index].duration = groups[index].duration ?? range.duration
        groups[index].endDate = groups[index].endDate ?? range.endDate
        groups[index].plannedDuration = groups[index].plannedDuration ?? range.plannedDuration
        groups[index].scte35Out = groups[index].scte35Out ?? range.scte35Out
        groups[index].scte35Command = groups[index].scte35Command ?? range.scte35Command
        if range.scte35In != nil && groups[index].inPosition == nil {
          groups[index].inPosition = range.position
        }
      } else {
        indexByID[range.id] = groups.count
        groups.append(
          DateRangeGroup(
            first: range, duration: range.duration, endDate: range.endDate,
            plannedDuration: range.plannedDuration, scte35Out: range.scte35Out,
            scte35Command: range.scte35Command,
            inPosition: range.scte35In != nil ? range.position : nil))
      }
    }
    var periods: [AdPeriod] = []
    for group in groups {
      if let period = period(of: group) { periods.append(period) }
    }
    return periods
  }

  private mutating func period(of group: DateRangeGroup) -> AdPeriod? {
    let id = group.first.id
    var section: SpliceInfoSection?
    if let text = group.scte35Out ?? group.scte35Command {
      do throws(SCTE35Error) {
        section = try SpliceInfoSection(text: text)
      } catch {
        notes.append("EXT-X-DATERANGE '\(id)' SCTE-35: \(error)")
      }
    }
    // A break: SCTE35-OUT, a splice that starts one, or a CLASS naming an SCTE-35 scheme
    // (a DASH EventStream's `urn:scte:scte35:…` events, translated).
    let isSCTE35Class = group.first.classValue?.lowercased().hasPrefix("urn:scte:scte35:") ?? false
    guard group.scte35Out != nil || section?.signal == .breakStart || isSCTE35Class else {
      return nil
    }
    let position = min(max(0, group.first.position), times.count)
    var start = times.starts[position]
    if let date = group.first.startDate {
      if let time = times.time(of: date) {
        start = time
      } else {
        notes.append(
          "EXT-X-DATERANGE '\(id)' has a START-DATE but no segment has a program date-time; "
            + "the break starts where the tag stands")
      }
    }
    let first = firstSegment(from: start)
    var declared: (MediaTime, AdPeriod.DurationSource)?
    if let duration = group.duration {
      declared = (duration, .dateRangeDuration)
    } else if let end = group.endDate, let begin = group.first.startDate {
      let seconds = end.timeIntervalSince(begin)
      if seconds >= 0 {
        declared = (MediaTime(seconds: seconds, preferredTimescale: 1_000), .dateRangeEndDate)
      } else {
        notes.append("EXT-X-DATERANGE '\(id)' ends before it starts; END-DATE ignored")
      }
    }
    let inPosition = group.inPosition.map { min(max(first, $0), times.count) }
    if declared == nil, let inPosition {
      return AdPeriod(
        id: id, source: .dateRange, start: start,
        duration: times.starts[inPosition] - start, durationSource: .endMarker,
        segments: first..<inPosition, isComplete: true, startsBeforeWindow: start < .zero,
        scte35: section)
    }
    if declared == nil, let planned = group.plannedDuration {
      declared = (planned, .dateRangePlannedDuration)
    }
    if declared == nil, let section {
      if case .spliceInsert(let insert) = section.command, let duration = insert.breakDuration {
        declared = (duration.duration, .scte35BreakDuration)
      } else if let duration = section.breakDuration {
        declared = (duration, .scte35SegmentationDuration)
      }
    }
    guard let (duration, source) = declared else {
      let complete = playlist.endList
      return AdPeriod(
        id: id, source: .dateRange, start: start,
        duration: complete ? times.end - start : nil, durationSource: complete ? .playlistEnd : nil,
        segments: first..<times.count, isComplete: complete, startsBeforeWindow: start < .zero,
        scte35: section)
    }
    let coverage = times.coverage(from: first, until: start + duration)
    return AdPeriod(
      id: id, source: .dateRange, start: start, duration: duration, durationSource: source,
      segments: first..<coverage.end,
      isComplete: coverage.reachedEnd || inPosition != nil || playlist.endList,
      startsBeforeWindow: start < .zero, scte35: section)
  }

  /// The first segment whose middle is at or after `time` (segments' middles increase
  /// along the playlist, so a binary search finds it).
  private func firstSegment(from time: MediaTime) -> Int {
    var low = 0
    var high = times.count
    while low < high {
      let middle = (low + high) / 2
      if times.middle(of: middle, isBefore: time) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// `cue` without the breaks that overlap one of `dateRanges`, with a note for each.
  mutating func removingOverlaps(_ cue: [AdPeriod], with dateRanges: [AdPeriod]) -> [AdPeriod] {
    guard !dateRanges.isEmpty else { return cue }
    let sorted = dateRanges.sorted { $0.start < $1.start }
    // latestEnd[k]: the latest end among the first k + 1 date-range breaks (+inf if open).
    var latestEnd: [MediaTime] = []
    latestEnd.reserveCapacity(sorted.count)
    for period in sorted {
      let end = period.end ?? .positiveInfinity
      latestEnd.append(latestEnd.last.map { MediaTime.maximum($0, end) } ?? end)
    }
    var kept: [AdPeriod] = []
    for period in cue {
      let end = period.end ?? .positiveInfinity
      // How many date-range breaks start before this one ends.
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle].start < end { low = middle + 1 } else { high = middle }
      }
      if low > 0 && latestEnd[low - 1] > period.start {
        notes.append(
          "the \(period.source.rawValue) break '\(period.id)' overlaps an EXT-X-DATERANGE break; "
            + "the date range is kept")
      } else {
        kept.append(period)
      }
    }
    return kept
  }
}
