import Foundation
import PlayheadCore

/// The end of a media playlist: leftovers, sequence numbers, dates and checks that need
/// the whole playlist.
extension MediaPlaylistBuilder {
  mutating func finish() throws(PlaylistParseError) -> MediaPlaylist {
    let lastLine = context.line
    if pendingDuration != nil {
      context.warn("the last EXTINF has no URI line; ignored", line: pendingInfoLine)
    } else if let range = pendingRange {
      context.warn("the last EXT-X-BYTERANGE has no URI line; ignored", line: range.line)
    }
    playlist.trailingParts = pendingParts
    if !seenTargetDuration {
      playlist.targetDuration = longestRoundedDuration
      context.warn(
        "no EXT-X-TARGETDURATION; using the longest segment, \(playlist.targetDuration) s",
        line: lastLine)
    } else {
      for (index, early) in durationsBeforeTarget.enumerated()
      where early.seconds > playlist.targetDuration {
        warnLongSegment(playlist.segments[index].duration, line: early.line)
      }
    }
    if needsRenumbering { numberSegments() }
    // Dates are extrapolated only when some segments have one and some do not.
    if datedSegments > 0 && datedSegments < playlist.segments.count { extrapolateDates() }
    if !playlist.dateRanges.isEmpty && datedSegments == 0 {
      context.warn("EXT-X-DATERANGE without any EXT-X-PROGRAM-DATE-TIME", line: lastLine)
    }
    return collected()
  }

  /// Media and discontinuity sequence numbers of every segment, again, for a base tag
  /// that came after the first segment.
  private mutating func numberSegments() {
    var sequence = playlist.mediaSequence.saturatingAdd(playlist.skip?.skippedSegments ?? 0)
    var discontinuity = playlist.discontinuitySequence
    // Maps whose IV comes from a media sequence number move with the numbers; segments
    // that shared one state object share the renumbered one.
    var renumbered: [ObjectIdentifier: (old: SegmentSharedState, new: SegmentSharedState)] = [:]
    for index in playlist.segments.indices {
      if playlist.segments[index].discontinuity { discontinuity = discontinuity.saturatingAdd(1) }
      let old = playlist.segments[index].shared
      if var map = old.map, let implied = map.impliedIVSequence {
        if let shared = renumbered[ObjectIdentifier(old)]?.new {
          playlist.segments[index].shared = shared
        } else {
          map.impliedIVSequence = implied.saturatingAdd(
            sequence.saturatingAdd(-playlist.segments[index].mediaSequence))
          let shared = SegmentSharedState(baseURL: old.baseURL, keys: old.keys, map: map)
          renumbered[ObjectIdentifier(old)] = (old, shared)
          playlist.segments[index].shared = shared
        }
      }
      playlist.segments[index].mediaSequence = sequence
      playlist.segments[index].discontinuitySequence = discontinuity
      sequence = sequence.saturatingAdd(1)
    }
  }

  /// Fills in `programDateTime` for undated segments from the nearest dated segment of the
  /// same discontinuity run: forward by adding durations, then backward by subtracting.
  private mutating func extrapolateDates() {
    var previous: (date: Date, duration: MediaTime)?
    for index in playlist.segments.indices {
      if playlist.segments[index].discontinuity { previous = nil }
      if playlist.segments[index].programDateTime == nil, let previous {
        playlist.segments[index].programDateTime = previous.date.addingTimeInterval(
          previous.duration.seconds)
      }
      previous = playlist.segments[index].programDateTime.map {
        ($0, playlist.segments[index].duration)
      }
    }
    var following: Date?
    for index in playlist.segments.indices.reversed() {
      if playlist.segments[index].programDateTime == nil, let following {
        let duration = playlist.segments[index].duration.seconds
        playlist.segments[index].programDateTime = following.addingTimeInterval(-duration)
      }
      following =
        playlist.segments[index].discontinuity ? nil : playlist.segments[index].programDateTime
    }
  }

  /// `time` rounded to the nearest whole second (halves up), saturating.
  static func roundedSeconds(_ time: MediaTime) -> Int {
    guard time.isNumeric else { return 0 }
    // Segment durations fit 64 bits easily; the 128-bit division is the general case.
    if time.value >= 0 && time.value < Int64(1) << 60 {
      let scale = Int64(time.timescale)
      return Int((2 * time.value + scale) / (2 * scale))
    }
    let value = Int128(time.value)
    let scale = Int128(time.timescale)
    let rounded = (2 * value + scale) / (2 * scale)
    return Int(clamping: rounded)
  }
}

extension Int {
  /// `self + other`, clamped to `Int.min ... Int.max`.
  func saturatingAdd(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    guard overflow else { return sum }
    return other > 0 ? Int.max : Int.min
  }
}
