import PlayheadCore

/// The cues of one fMP4 text segment, on its track's media timeline.
///
/// Cue times are media times (the track's `tfdt` and sample durations, or the TTML
/// document's times), not item times: a player places them by `startTime`, the decode time
/// of the segment's first sample, which corresponds to the segment's start on its timeline.
public struct MP4TextSegment: Sendable, Equatable {
  /// The track's format.
  public let format: MP4TextFormat
  /// The decode time of the segment's first sample (its first `tfdt`), in the track's
  /// timescale; nil when the segment has no fragment of the track.
  public let startTime: MediaTime?
  /// The end of the segment's last sample; nil like `startTime`.
  public let endTime: MediaTime?
  /// The cues in start order. `wvtt` cues keep their identifier, settings and payload (a
  /// cue written in consecutive samples is one cue); `stpp` cues are a paragraph's plain
  /// text (`&`, `<` and `>` escaped, so `plainText` gives it back), no settings.
  public let cues: [WebVTTCue]

  public init(format: MP4TextFormat, startTime: MediaTime?, endTime: MediaTime?, cues: [WebVTTCue])
  {
    self.format = format
    self.startTime = startTime
    self.endTime = endTime
    self.cues = cues
  }
}
