import Foundation
import PlayheadCore
import PlayheadText

/// Reads fMP4 text segments (`wvtt`, `stpp`) for a `TextCueSource` and places their cues on
/// the item timeline; each initialization section is fetched and read once.
///
/// A segment's cues are placed relative to its first sample: a cue at media time `m` in a
/// segment whose first sample decodes at `s` (its `tfdt`) and which the playlist places at
/// item time `t` (`SubtitleSegment.timeRange.start`) is at item time `t + (m - s)`. The
/// engine places a run of video segments the same way (the first one at its playlist
/// time, the rest by their own timestamps), so text and video line up whatever the
/// Period's `presentationTimeOffset`, the track's timescale or the Period boundary, as long
/// as the packager starts each text segment's first sample at the segment's start, as
/// `tfdt` = the segment's MPD time says it does.
final class MP4TextPlacement: Sendable {
  private let tracks = Locked<[SubtitleInitialization: MP4TextTrack]>([:])

  /// The cues of `segment` on the item timeline, fetched through `fetcher`.
  func cues(of segment: SubtitleSegment, fetcher: TextFetcher) throws(PlayheadError)
    -> [WebVTTCue]
  {
    guard let initialization = segment.initialization else {
      throw PlayheadError(
        .unsupportedFormat,
        "fMP4 subtitle segment \(segment.url.absoluteString) has no initialization section",
        url: segment.url)
    }
    let track: MP4TextTrack
    if let known = tracks.withLock({ $0[initialization] }) {
      track = known
    } else {
      track = try fetcher.mp4TextTrack(initialization)
      tracks.withLock { $0[initialization] = track }
    }
    let parsed = try fetcher.mp4Text(segment, track: track)
    return Self.place(parsed, at: segment.timeRange.start)
  }

  /// `parsed`'s cues moved so that its first sample time falls at item time `start`.
  static func place(_ parsed: MP4TextSegment, at start: MediaTime) -> [WebVTTCue] {
    guard let first = parsed.startTime else { return [] }
    let shift = start - first
    return parsed.cues.map { cue in
      WebVTTCue(
        identifier: cue.identifier, start: cue.start + shift, end: cue.end + shift,
        settings: cue.settings, text: cue.text)
    }
  }
}
