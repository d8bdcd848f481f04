import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadHLS

extension DASHTranslation {
  /// Gives the segments of a `SegmentBase` Representation in a Period (read from its
  /// `sidx`); nil plays the whole file as one segment.
  typealias IndexedSegments = (MPDRepresentation, MPDPeriod) throws(PlayheadError) ->
    [MPDSegmentReference]?

  /// The media playlist `key` names (nil for a key the translation does not have): the
  /// segments of each Period's Representation in turn, each Period's first after a
  /// discontinuity, under that Representation's initialization section.
  ///
  /// Throws `.invalidPlaylist` when a Representation has no usable segment addressing or
  /// a segment would have no duration.
  ///
  /// A dynamic MPD's playlist lists what is available at `now` (`livePlaylist`).
  func mediaPlaylist(_ key: String, indexed: IndexedSegments, now: Date) throws(PlayheadError)
    -> MediaPlaylist?
  {
    guard let parts = tracks[key] else { return nil }
    if mpd.type == .dynamic { return livePlaylist(key, parts: parts, now: now) }
    var segments: [MediaSegment] = []
    var longest = MediaTime.zero
    for (order, part) in parts.enumerated() {
      let period = mpd.periods[part.period]
      let representation = part.representation
      let references = try self.references(of: representation, in: period, indexed: indexed)
      let map = representation.initialization.map {
        InitializationSection(uri: $0.url, byteRange: $0.range)
      }
      let base = Self.sequenceBase(of: period)
      let periodNumber = Int(clamping: Int64(period.start.seconds.rounded(.down)))
      // Program date-times place the Period's events (`adDateRanges`) on the timeline.
      var start = period.start
      for (position, reference) in references.enumerated() {
        longest = max(longest, reference.duration)
        var segment = MediaSegment(
          uri: reference.url, duration: reference.duration, byteRange: reference.range,
          discontinuity: order > 0 && position == 0, map: map,
          mediaSequence: base + Int(clamping: reference.number),
          discontinuitySequence: periodNumber, bitrate: representation.bandwidth / 1000)
        segment.setProgramDateTime(presentationEpoch.addingTimeInterval(start.seconds))
        start = start + reference.duration
        segments.append(segment)
      }
    }
    let target = Int((longest.seconds).rounded(.up))
    return MediaPlaylist(
      url: Self.playlistURL(key, manifest: manifestURL), version: 7,
      targetDuration: max(1, target), mediaSequence: segments.first?.mediaSequence ?? 0,
      discontinuitySequence: segments.first?.discontinuitySequence ?? 0, playlistType: .vod,
      endList: true, independentSegments: true, segments: segments,
      dateRanges: adDateRanges(in: Set(parts.map(\.period))))
  }

  /// The segments of `representation` in `period`.
  private func references(
    of representation: MPDRepresentation, in period: MPDPeriod, indexed: IndexedSegments
  ) throws(PlayheadError) -> [DASHSegment] {
    switch representation.addressing {
    case .unusable(let reason):
      throw PlayheadError(
        .invalidPlaylist,
        "the Representation \(representation.id) of \(manifestURL.absoluteString) cannot be "
          + "played: \(reason)", url: manifestURL)
    case .base(let base):
      if let listed = try indexed(representation, period) { return listed.map(DASHSegment.init) }
      guard let duration = period.duration ?? mpd.mediaPresentationDuration, duration > .zero
      else {
        throw PlayheadError(
          .invalidPlaylist,
          "the Representation \(representation.id) of \(manifestURL.absoluteString) is one "
            + "file and its Period has no duration", url: manifestURL)
      }
      return [DASHSegment(url: base.media, range: nil, duration: duration, number: 1)]
    case .list, .template:
      let references = representation.segments(in: period)
      if let empty = references.first(where: { $0.duration <= .zero }) {
        throw PlayheadError(
          .invalidPlaylist,
          "the segment \(empty.number) of Representation \(representation.id) has no duration",
          url: manifestURL)
      }
      return references.map(DASHSegment.init)
    }
  }
}

/// One media segment as a playlist lists it.
struct DASHSegment: Sendable {
  let url: URL
  let range: ByteRange?
  let duration: MediaTime
  /// Its `$Number$` (or its place in a list or index, from 1).
  let number: Int64

  init(url: URL, range: ByteRange?, duration: MediaTime, number: Int64) {
    self.url = url
    self.range = range
    self.duration = duration
    self.number = number
  }

  init(_ reference: MPDSegmentReference) {
    self.init(
      url: reference.url, range: reference.range, duration: reference.duration,
      number: reference.number)
  }
}
