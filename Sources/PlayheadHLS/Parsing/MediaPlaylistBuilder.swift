import Foundation
import PlayheadCore

/// Builds a `MediaPlaylist` line by line.
///
/// Tags before a URI line collect into the pending segment; the URI line turns them into a
/// `MediaSegment`. Tags that apply until replaced (`EXT-X-KEY`, `EXT-X-MAP`,
/// `EXT-X-BITRATE`) are kept as running state. Sequence numbers and extrapolated dates are
/// filled in at the end, because their base tags may come late.
struct MediaPlaylistBuilder: PlaylistBuilder {
  var context: ParserContext
  var playlist: MediaPlaylist

  // The segment being collected.
  var pendingDuration: MediaTime?
  var pendingTitle: String?
  var pendingInfoLine = 0
  var pendingRange: (length: Int64, offset: Int64?, line: Int)?
  var pendingDiscontinuity = false
  var pendingGap = false
  var pendingDate: (date: Date, text: ProgramDateText)?
  var pendingParts: [PartialSegment] = []

  // Running state.
  var keys: [EncryptionKey] = [] { didSet { sharedState = nil } }
  var map: InitializationSection? { didSet { sharedState = nil } }
  /// Whether `map` takes its IV from the next segment's media sequence number.
  var mapNeedsIVSequence = false
  /// The base URL, `keys` and `map` as the next segment shares them; nil after a change.
  var sharedState: SegmentSharedState?
  var bitrate: Int?
  /// The resource and end of the last segment or map byte range, for omitted offsets.
  var lastRange: (uri: String, end: Int64)?
  /// The resource and end of the last part byte range.
  var lastPartRange: (uri: String, end: Int64)?
  var partCount = 0
  /// The last segment URI line without variable references, and its checked URI: a
  /// resource split by byte ranges repeats the same line, which then needs no new string.
  var lastURILine: (span: ByteSpan, uri: SegmentURIText)?
  /// The copy of the playlist that segment URI lines are read from, made at first need.
  var sourceBytesCopy: PlaylistSourceBytes?

  /// Whether `EXT-X-TARGETDURATION` was read.
  var seenTargetDuration = false

  /// The rounded duration and `EXTINF` line of the segments before
  /// `EXT-X-TARGETDURATION`, checked against it at the end.
  var durationsBeforeTarget: [(seconds: Int, line: Int)] = []
  /// The longest segment duration, rounded to whole seconds.
  var longestRoundedDuration = 0
  /// How many segments have their own `EXT-X-PROGRAM-DATE-TIME`.
  var datedSegments = 0
  /// `EXT-X-DISCONTINUITY` tags applied to segments so far.
  var discontinuities = 0
  /// Whether a sequence base (`EXT-X-MEDIA-SEQUENCE`, `EXT-X-DISCONTINUITY-SEQUENCE`,
  /// `EXT-X-SKIP`) came after the first segment, so that segments must be renumbered.
  var needsRenumbering = false
  /// The byte offset reached in the playlist, for the capacity estimate.
  var bytesRead = 0

  init(context: ParserContext) {
    self.context = context
    self.playlist = MediaPlaylist(url: context.url, targetDuration: 0)
  }

  static var buildsMaster: Bool { false }

  var unknownTagPosition: Int { playlist.segments.count }

  mutating func parse(_ reader: inout LineReader) throws(PlaylistParseError) -> MediaPlaylist {
    try readLines(&reader)
    return try finish()
  }

  mutating func addURILine(_ span: ByteSpan, position: Int) throws(PlaylistParseError) {
    bytesRead = position
    try addSegment(uri: span)
  }

  mutating func handle(_ tag: TagName, value: ByteSpan, line: ByteSpan)
    throws(PlaylistParseError)
  {
    switch tag {
    case .extm3u, .version, .independentSegments, .start, .define:
      try readCommonTag(tag, value: value, line: line)
    case .extinf: try readInfo(value)
    case .targetDuration: try readTargetDuration(value)
    case .mediaSequence: try readMediaSequence(value)
    case .discontinuitySequence: try readDiscontinuitySequence(value)
    case .endList:
      if try context.firstOccurrence(of: .endList, value: "") { playlist.endList = true }
    case .playlistType:
      if try !readPlaylistType(value) { try keepUnknown(line) }
    case .iFramesOnly:
      if try context.firstOccurrence(of: .iFramesOnly, value: "") { playlist.iFramesOnly = true }
    case .byteRange:
      guard let range = text.byteRange(text.trimmed(value)) else {
        throw context.error(.invalidValue, "EXT-X-BYTERANGE '\(text.string(value))' is not n[@o]")
      }
      if pendingRange != nil {
        context.warn("EXT-X-BYTERANGE appears twice for one segment; the last one is used")
      }
      pendingRange = (range.length, range.offset, context.line)
    case .discontinuity: pendingDiscontinuity = true
    case .key: try readKey(value)
    case .map: try readMap(value)
    case .programDateTime:
      if !readProgramDateTime(value) { try keepUnknown(line) }
    case .dateRange:
      if try !readDateRange(value) { try keepUnknown(line) }
    case .gap: pendingGap = true
    case .bitrate:
      if let value = text.integer(text.trimmed(value)) {
        bitrate = value
      } else {
        context.warn(
          "EXT-X-BITRATE '\(text.string(value))' is not a decimal integer; kept as an unknown tag")
        try keepUnknown(line)
      }
    case .partInf:
      if try !readPartInf(value) { try keepUnknown(line) }
    case .serverControl: try readServerControl(value)
    case .part:
      if try !readPart(value) { try keepUnknown(line) }
    case .preloadHint:
      if try !readPreloadHint(value) { try keepUnknown(line) }
    case .renditionReport:
      if try !readRenditionReport(value) { try keepUnknown(line) }
    case .skip:
      if try !readSkip(value) { try keepUnknown(line) }
    case .streamInf, .iFrameStreamInf:
      throw context.error(
        .mixedPlaylist, "\(tag.name) in a media playlist (the playlist mixes master and media tags)"
      )
    case .cueOut, .cueOutCont, .cueIn, .oatclsSCTE35, .scte35:
      try readAdMarker(tag, value: value, line: line)
    case .media, .sessionData, .sessionKey, .contentSteering:
      context.warn("\(tag.name) belongs in a master playlist; kept as an unknown tag")
      try keepUnknown(line)
    }
  }

  // MARK: Header tags

  private mutating func readTargetDuration(_ value: ByteSpan) throws(PlaylistParseError) {
    let span = text.trimmed(value)
    var target = text.integer(span)
    if target == nil, let time = text.decimalTime(span) {
      target = Int(time.seconds.rounded(.up))
      context.warn("EXT-X-TARGETDURATION '\(text.string(span))' is not an integer; rounded up")
    }
    guard let target else {
      throw context.error(
        .invalidValue, "EXT-X-TARGETDURATION '\(text.string(span))' is not a decimal integer")
    }
    guard try context.firstOccurrence(of: .targetDuration, value: String(target)) else { return }
    seenTargetDuration = true
    playlist.targetDuration = target
  }

  private mutating func readMediaSequence(_ value: ByteSpan) throws(PlaylistParseError) {
    let span = text.trimmed(value)
    guard let sequence = text.integer(span) else {
      throw context.error(
        .invalidValue, "EXT-X-MEDIA-SEQUENCE '\(text.string(span))' is not a decimal integer")
    }
    guard try context.firstOccurrence(of: .mediaSequence, value: String(sequence)) else { return }
    if !playlist.segments.isEmpty {
      context.warn("EXT-X-MEDIA-SEQUENCE comes after the first segment; it still applies to it")
      needsRenumbering = true
    }
    playlist.mediaSequence = sequence
  }

  private mutating func readDiscontinuitySequence(_ value: ByteSpan) throws(PlaylistParseError) {
    let span = text.trimmed(value)
    guard let sequence = text.integer(span) else {
      throw context.error(
        .invalidValue,
        "EXT-X-DISCONTINUITY-SEQUENCE '\(text.string(span))' is not a decimal integer")
    }
    guard try context.firstOccurrence(of: .discontinuitySequence, value: String(sequence)) else {
      return
    }
    if !playlist.segments.isEmpty {
      context.warn(
        "EXT-X-DISCONTINUITY-SEQUENCE comes after the first segment; it still applies to it")
      needsRenumbering = true
    }
    playlist.discontinuitySequence = sequence
  }

  private mutating func readPlaylistType(_ value: ByteSpan) throws(PlaylistParseError) -> Bool {
    let span = text.trimmed(value)
    guard let type = PlaylistType(rawValue: text.string(span)) else {
      context.warn(
        "EXT-X-PLAYLIST-TYPE '\(text.string(span))' is not VOD or EVENT; kept as an unknown tag")
      return false
    }
    if try context.firstOccurrence(of: .playlistType, value: type.rawValue) {
      playlist.playlistType = type
    }
    return true
  }

  // MARK: Segments

  private mutating func readInfo(_ value: ByteSpan) throws(PlaylistParseError) {
    let comma = text.firstIndex(of: UInt8(ascii: ","), in: value)
    let durationSpan = text.trimmed(ByteSpan(value.start, comma ?? value.end))
    guard let duration = text.decimalTime(durationSpan) else {
      throw context.error(
        .invalidValue,
        "EXTINF duration '\(text.string(durationSpan))' is not a non-negative decimal number")
    }
    if pendingDuration != nil {
      context.warn("EXTINF is not followed by a URI line; the later EXTINF is used")
    }
    pendingDuration = duration
    pendingInfoLine = context.line
    pendingTitle = nil
    if let comma {
      let title = text.trimmed(ByteSpan(comma + 1, value.end))
      if !title.isEmpty { pendingTitle = text.string(title) }
    }
  }

  private mutating func addSegment(uri span: ByteSpan) throws(PlaylistParseError) {
    guard let duration = pendingDuration else {
      throw context.error(
        .segmentWithoutDuration,
        "segment URI '\(ParserContext.excerpt(text.string(span)))' has no EXTINF before it")
    }
    guard playlist.segments.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) segments")
    }
    let uri: SegmentURIText
    if text.containsVariableReference(span) {
      uri = .string(try context.substitutedURILine(span, in: "segment"))
      lastURILine = nil
    } else if let last = lastURILine, text.bytesEqual(last.span, span) {
      uri = last.uri
    } else {
      try context.checkURILine(span, in: "segment")
      // A byte range compares its resource with the previous one's, as strings.
      uri =
        pendingRange != nil
        ? .string(text.string(span)) : .line(sourceBytes(), start: span.start, end: span.end)
      lastURILine = (span, uri)
    }
    var byteRange: ByteRange?
    if let pending = pendingRange {
      byteRange = try resolve(pending, uri: uri.string, tag: "EXT-X-BYTERANGE")
    } else {
      lastRange = nil
    }
    if playlist.segments.count == 64 { reserveCapacity() }
    if pendingDiscontinuity { discontinuities = discontinuities.saturatingAdd(1) }
    if pendingDate != nil { datedSegments += 1 }
    let rounded = Self.roundedSeconds(duration)
    longestRoundedDuration = max(longestRoundedDuration, rounded)
    if !seenTargetDuration {
      durationsBeforeTarget.append((rounded, pendingInfoLine))
    } else if rounded > playlist.targetDuration {
      warnLongSegment(duration, line: pendingInfoLine)
    }
    appendSegment(uri: uri, duration: duration, byteRange: byteRange)
    pendingDuration = nil
    pendingRange = nil
    pendingDiscontinuity = false
    pendingGap = false
  }

  /// The copy of the playlist's bytes for segment URIs (see `SegmentURIText`).
  private mutating func sourceBytes() -> PlaylistSourceBytes {
    if let sourceBytesCopy { return sourceBytesCopy }
    let copy = PlaylistSourceBytes(text.bytes)
    sourceBytesCopy = copy
    return copy
  }

  /// Appends the segment the pending tags describe, moving the pending title, date and
  /// parts into it.
  private mutating func appendSegment(
    uri: SegmentURIText, duration: MediaTime, byteRange: ByteRange?
  ) {
    let mediaSequence = playlist.mediaSequence.saturatingAdd(
      playlist.skip?.skippedSegments ?? 0
    ).saturatingAdd(playlist.segments.count)
    if mapNeedsIVSequence {
      map?.impliedIVSequence = mediaSequence
      mapNeedsIVSequence = false
    }
    let shared: SegmentSharedState
    if let sharedState {
      shared = sharedState
    } else {
      shared = SegmentSharedState(baseURL: context.url, keys: keys, map: map)
      sharedState = shared
    }
    let discontinuitySequence = playlist.discontinuitySequence.saturatingAdd(discontinuities)
    let date = pendingDate
    pendingDate = nil
    let title = pendingTitle
    pendingTitle = nil
    let parts = pendingParts
    pendingParts = []
    // The memberwise initializer lets the compiler build the segment straight into the
    // array; with a hand-written one, Swift 6.3 copies and destroys it once more.
    playlist.segments.append(
      MediaSegment(
        duration: duration, title: title, byteRange: byteRange,
        discontinuity: pendingDiscontinuity, gap: pendingGap, programDateTime: date?.date,
        mediaSequence: mediaSequence, discontinuitySequence: discontinuitySequence,
        bitrate: bitrate, parts: parts, uriText: uri, shared: shared, dateText: date?.text ?? .none)
    )
  }

  /// Called at the 64th segment: reserves room for the segments the rest of the playlist
  /// likely holds (by the bytes per segment so far, at most `maxSegments`), so that a long
  /// playlist is not copied at every doubling of the array.
  private mutating func reserveCapacity() {
    guard bytesRead > 0 else { return }
    let estimate = text.bytes.count / max(1, bytesRead / 64) * 5 / 4
    playlist.segments.reserveCapacity(min(context.limits.maxSegments, estimate))
  }

  /// Warns that a segment is longer than the target duration.
  mutating func warnLongSegment(_ duration: MediaTime, line: Int) {
    context.warn(
      "EXTINF \(duration.seconds) s is longer than EXT-X-TARGETDURATION \(playlist.targetDuration) s",
      line: line)
  }

  /// The byte range `pending` gives for resource `uri`, taking an omitted offset from the
  /// end of the previous range of the same resource; updates `lastRange`.
  mutating func resolve(
    _ pending: (length: Int64, offset: Int64?, line: Int), uri: String, tag: String
  ) throws(PlaylistParseError) -> ByteRange {
    let offset: Int64
    if let explicit = pending.offset {
      offset = explicit
    } else if let last = lastRange, last.uri == uri {
      offset = last.end
    } else {
      // RFC 8216 4.3.2.2 requires a previous range of the same resource; packagers omit
      // the offset of a resource's first range, so it starts at 0, as peers read it.
      context.warn(
        "\(tag) has no offset and the range before it is not of the same resource "
          + "'\(ParserContext.excerpt(uri))'; offset 0 is used", line: pending.line)
      offset = 0
    }
    let (end, overflow) = offset.addingReportingOverflow(pending.length)
    if overflow { throw context.error(.invalidValue, "\(tag) ends beyond 2^63 bytes") }
    lastRange = (uri, end)
    return ByteRange(offset: offset, length: pending.length)
  }
}
