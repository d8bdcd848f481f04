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
      playlist.targetDuration =
        playlist.segments.map { Self.roundedSeconds($0.duration) }.max() ?? 0
      context.warn(
        "no EXT-X-TARGETDURATION; using the longest segment, \(playlist.targetDuration) s",
        line: lastLine)
    }
    numberSegments()
    extrapolateDates()
    let target = playlist.targetDuration
    for (index, segment) in playlist.segments.enumerated() {
      let rounded = Self.roundedSeconds(segment.duration)
      if rounded > target {
        context.warn(
          "EXTINF \(segment.duration.seconds) s is longer than EXT-X-TARGETDURATION \(target) s",
          line: infoLines[index])
      }
    }
    if !playlist.dateRanges.isEmpty
      && !playlist.segments.contains(where: { $0.programDateTimeText != nil })
    {
      context.warn("EXT-X-DATERANGE without any EXT-X-PROGRAM-DATE-TIME", line: lastLine)
    }
    playlist.definitions = context.definitions
    playlist.warnings = context.finalWarnings
    return playlist
  }

  /// Media and discontinuity sequence numbers of every segment.
  private mutating func numberSegments() {
    let (first, overflow) = playlist.mediaSequence.addingReportingOverflow(
      playlist.skip?.skippedSegments ?? 0)
    var sequence = overflow ? Int.max : first
    var discontinuity = playlist.discontinuitySequence
    for index in playlist.segments.indices {
      if playlist.segments[index].discontinuity && discontinuity < Int.max { discontinuity += 1 }
      playlist.segments[index].mediaSequence = sequence
      playlist.segments[index].discontinuitySequence = discontinuity
      if sequence < Int.max { sequence += 1 }
    }
  }

  /// Fills in `programDateTime` for undated segments from the nearest dated segment of the
  /// same discontinuity run: forward by adding durations, then backward by subtracting.
  private mutating func extrapolateDates() {
    guard playlist.segments.contains(where: { $0.programDateTime != nil }) else { return }
    var next: Date?
    for index in playlist.segments.indices {
      let segment = playlist.segments[index]
      if segment.discontinuity { next = nil }
      if segment.programDateTime == nil, let next {
        playlist.segments[index].programDateTime = next
      }
      next = playlist.segments[index].programDateTime.map {
        $0.addingTimeInterval(segment.duration.seconds)
      }
    }
    var following: Date?
    for index in playlist.segments.indices.reversed() {
      let segment = playlist.segments[index]
      if segment.programDateTime == nil, let following {
        playlist.segments[index].programDateTime = following.addingTimeInterval(
          -segment.duration.seconds)
      }
      following = segment.discontinuity ? nil : playlist.segments[index].programDateTime
    }
  }

  /// `time` rounded to the nearest whole second (halves up), saturating.
  static func roundedSeconds(_ time: MediaTime) -> Int {
    guard time.isNumeric else { return 0 }
    let value = Int128(time.value)
    let scale = Int128(time.timescale)
    let rounded = (2 * value + scale) / (2 * scale)
    return Int(clamping: rounded)
  }
}
