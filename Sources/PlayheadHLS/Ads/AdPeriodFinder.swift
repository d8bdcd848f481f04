import Foundation
import PlayheadCore

extension MediaPlaylist {
  /// The server-side ad breaks its markers describe, in order of start.
  ///
  /// Markers: `EXT-X-CUE-OUT` … `EXT-X-CUE-OUT-CONT` … `EXT-X-CUE-IN`;
  /// `EXT-OATCLS-SCTE35` and `EXT-X-SCTE35` beside a `EXT-X-CUE-OUT` (their section gives
  /// the id and durations) or alone (their section's `signal` starts or ends the break);
  /// `EXT-X-DATERANGE` with `SCTE35-OUT`, closed by a later one with the same `ID` and
  /// `SCTE35-IN` or by `END-DATE` / `DURATION`.
  ///
  /// A break's duration, by precedence: for cue markers, the segments up to the end marker,
  /// then the marker's own duration, the SCTE-35 `break_duration`, the SCTE-35
  /// `segmentation_duration`; for date ranges, `DURATION`, `END-DATE`, the segments up to
  /// the range that carries `SCTE35-IN`, `PLANNED-DURATION`, then the SCTE-35 durations.
  /// Without any, a break runs to the end of the playlist. Segments whose middle lies
  /// before the break's end belong to it.
  ///
  /// Edge cases: an `EXT-X-CUE-OUT-CONT` before any `EXT-X-CUE-OUT` opens a break that
  /// began `ElapsedTime` before it (at a negative time when that is before the window); a
  /// second break start inside an open break is ignored with a note, unless the open
  /// break's duration ended before it; an end marker with no open break is ignored with a
  /// note; a cue-marker break that overlaps a date-range break is dropped in its favour
  /// (packagers often write both). Work is linear in the segments and log-linear in the
  /// markers and date ranges.
  public func adPeriods() -> AdPeriodList {
    var finder = AdPeriodFinder(self)
    return finder.run()
  }
}

/// Finds the ad breaks of one playlist (see `MediaPlaylist.adPeriods()`).
struct AdPeriodFinder {
  let playlist: MediaPlaylist
  let times: SegmentTimes
  var notes: [String] = []
  var cuePeriods: [AdPeriod] = []
  var open: OpenBreak?

  /// A break whose end has not been found yet.
  struct OpenBreak {
    var source: AdPeriod.Source
    var firstSegment: Int
    var start: MediaTime
    var declared: (duration: MediaTime, source: AdPeriod.DurationSource)?
    var scte35: SpliceInfoSection?
  }

  init(_ playlist: MediaPlaylist) {
    self.playlist = playlist
    self.times = SegmentTimes(playlist)
  }

  mutating func run() -> AdPeriodList {
    let markers = playlist.adMarkers.enumerated().sorted {
      ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
    }.map(\.element)
    var index = 0
    while index < markers.count {
      var end = index
      while end < markers.count && markers[end].position == markers[index].position { end += 1 }
      let position = min(max(0, markers[index].position), times.count)
      handle(markers[index..<end], at: position)
      index = end
    }
    if let open { finishByDuration(open) }
    let dateRangePeriods = findDateRangeBreaks()
    var periods = dateRangePeriods + removingOverlaps(cuePeriods, with: dateRangePeriods)
    periods.sort { $0.start < $1.start }
    return AdPeriodList(periods: periods, notes: notes)
  }

  // MARK: Cue markers

  private mutating func handle(_ group: ArraySlice<AdMarker>, at position: Int) {
    var section: SpliceInfoSection?
    var standalone: AdMarker?
    for marker in group {
      guard let text = marker.scte35Text else { continue }
      do throws(SCTE35Error) {
        let decoded = try SpliceInfoSection(text: text)
        if section == nil { section = decoded }
        if standalone == nil && (marker.kind == .oatclsSCTE35 || marker.kind == .scte35) {
          standalone = marker
        }
      } catch {
        notes.append("\(marker.kind.rawValue) before segment \(position): \(error); ignored")
      }
    }
    let hasCueOut = group.contains { $0.kind == .cueOut }
    if group.contains(where: { $0.kind == .cueIn })
      || (!hasCueOut && standalone != nil && section?.signal == .breakEnd)
    {
      close(at: position, kind: group.first { $0.kind == .cueIn }?.kind ?? standalone?.kind)
    }
    if let cueOut = group.first(where: { $0.kind == .cueOut }) {
      start(
        .cueOut, at: position, elapsed: .zero,
        declared: Self.declared(cueOut.duration, section), scte35: section)
    } else if let standalone, section?.signal == .breakStart {
      start(
        standalone.kind == .scte35 ? .scte35Tag : .oatclsSCTE35, at: position,
        elapsed: standalone.elapsedTime ?? .zero,
        declared: Self.declared(standalone.duration, section), scte35: section)
    }
    for cont in group where cont.kind == .cueOutCont {
      if var current = open {
        if current.declared == nil, let duration = cont.duration {
          current.declared = (duration, .markerDuration)
          open = current
        }
      } else {
        start(
          .cueOutCont, at: position, elapsed: cont.elapsedTime ?? .zero,
          declared: Self.declared(cont.duration, section), scte35: section)
      }
    }
  }

  /// A marker's own duration, else the section's `break_duration`, else its
  /// `segmentation_duration`.
  private static func declared(_ marker: MediaTime?, _ section: SpliceInfoSection?) -> (
    duration: MediaTime, source: AdPeriod.DurationSource
  )? {
    if let marker { return (marker, .markerDuration) }
    guard let section else { return nil }
    if case .spliceInsert(let insert) = section.command, let duration = insert.breakDuration {
      return (duration.duration, .scte35BreakDuration)
    }
    return section.breakDuration.map { ($0, .scte35SegmentationDuration) }
  }

  private mutating func start(
    _ source: AdPeriod.Source, at position: Int, elapsed: MediaTime,
    declared: (duration: MediaTime, source: AdPeriod.DurationSource)?,
    scte35: SpliceInfoSection?
  ) {
    if let current = open {
      guard let end = current.declared.map({ current.start + $0.duration }),
        times.coverage(from: current.firstSegment, until: end).end <= position
      else {
        notes.append(
          "a break start before segment \(position) is inside the break that starts before "
            + "segment \(current.firstSegment); ignored")
        return
      }
      finishByDuration(current)
    }
    open = OpenBreak(
      source: source, firstSegment: position, start: times.starts[position] - elapsed,
      declared: declared, scte35: scte35)
  }

  private mutating func close(at position: Int, kind: AdMarker.Kind?) {
    guard let current = open else {
      notes.append(
        "\(kind?.rawValue ?? "a break end") before segment \(position) ends no open break; ignored"
      )
      return
    }
    open = nil
    append(
      current, segments: current.firstSegment..<position,
      duration: times.starts[position] - current.start, durationSource: .endMarker,
      isComplete: true)
  }

  /// Ends `current` where its declared duration says, or at the end of the playlist.
  private mutating func finishByDuration(_ current: OpenBreak) {
    open = nil
    guard let declared = current.declared else {
      let complete = playlist.endList
      append(
        current, segments: current.firstSegment..<times.count,
        duration: complete ? times.end - current.start : nil,
        durationSource: complete ? .playlistEnd : nil,
        isComplete: complete)
      return
    }
    let coverage = times.coverage(
      from: current.firstSegment, until: current.start + declared.duration)
    append(
      current, segments: current.firstSegment..<coverage.end, duration: declared.duration,
      durationSource: declared.source, isComplete: coverage.reachedEnd || playlist.endList)
  }

  private mutating func append(
    _ current: OpenBreak, segments: Range<Int>, duration: MediaTime?,
    durationSource: AdPeriod.DurationSource?, isComplete: Bool
  ) {
    cuePeriods.append(
      AdPeriod(
        id: current.scte35?.eventID.map { String($0) }
          ?? "cue-\(mediaSequence(ofSegment: current.firstSegment))",
        source: current.source, start: current.start, duration: duration,
        durationSource: durationSource, segments: segments, isComplete: isComplete,
        startsBeforeWindow: current.start < .zero, scte35: current.scte35))
  }

  /// The media sequence number of segment `index` (or of the next segment, past the end).
  func mediaSequence(ofSegment index: Int) -> Int {
    if index < playlist.segments.count { return playlist.segments[index].mediaSequence }
    return playlist.mediaSequence.saturatingAdd(playlist.skip?.skippedSegments ?? 0)
      .saturatingAdd(playlist.segments.count)
  }
}
