import Foundation
import PlayheadCore

/// Reads the cues of DASH (or HLS) text segments in fragmented MP4: `wvtt` (WebVTT in MP4)
/// and `stpp` (TTML in MP4, as plain text), ISO/IEC 14496-30.
///
/// The initialization section gives the track (`MP4TextTrack`); each media segment's
/// `moof/traf` boxes (`tfhd` defaults, `tfdt`, `trun`) place its samples in `mdat`. A `wvtt`
/// sample's `vttc` boxes are its cues (`vtte`: none); a `stpp` sample is a TTML document read
/// with `XMLTreeReader` (no DTD, bounded), each `<p>` a cue.
///
/// TTML times are taken on the media timeline (ISO/IEC 14496-30, DASH-IF IOP); a document
/// none of whose paragraphs meets its sample's interval that way but some would when counted
/// from the sample's start is read as relative to the sample (packagers write both). Cues
/// are cut to their sample's interval; a paragraph without an end lasts to it.
///
/// Hostile input throws `MP4TextError` (never traps); work is linear in the bytes, and
/// sizes, samples, cues and documents are bounded by `MP4TextLimits`.
///
/// ```swift
/// let segment = try MP4TextParser.parse(initialization: initBytes, segment: bytes)
/// for cue in segment.cues { print(cue.start.seconds, cue.plainText) }
/// ```
public enum MP4TextParser {
  /// The cues of `segment`, whose track `initialization` describes.
  public static func parse(
    initialization: Data, segment: Data, limits: MP4TextLimits = .default
  ) throws(MP4TextError) -> MP4TextSegment {
    let track = try MP4TextTrack.parse(initialization, limits: limits)
    return try parse(segment: segment, track: track, limits: limits)
  }

  /// The cues of `segment`, a media segment of `track`.
  public static func parse(
    segment: Data, track: MP4TextTrack, limits: MP4TextLimits = .default
  ) throws(MP4TextError) -> MP4TextSegment {
    guard segment.count <= limits.maxBytes else {
      throw MP4TextError(
        .limitExceeded, path: "",
        "segment of \(segment.count) bytes, over the limit of \(limits.maxBytes)")
    }
    let reader = MP4BoxReader(bytes: [UInt8](segment))
    let (samples, start) = try MP4TextSamples.read(reader, track: track, limits: limits)
    let timescale = track.timescale
    let cues: [WebVTTCue]
    switch track.format {
    case .webVTT:
      cues = try MP4WebVTTSamples.cues(
        samples, reader: reader, timescale: timescale, limits: limits)
    case .ttml:
      cues = try MP4TTMLSamples.cues(samples, reader: reader, timescale: timescale, limits: limits)
    }
    let end = samples.map { $0.time + $0.duration }.max()
    return MP4TextSegment(
      format: track.format, startTime: start.map { MediaTime(value: $0, timescale: timescale) },
      endTime: end.map { MediaTime(value: $0, timescale: timescale) }, cues: cues)
  }
}
