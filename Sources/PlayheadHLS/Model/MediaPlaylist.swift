import Foundation
import PlayheadCore

/// `EXT-X-PLAYLIST-TYPE`.
public enum PlaylistType: String, Sendable, CaseIterable {
  /// The playlist never changes.
  case vod = "VOD"
  /// Segments are only ever appended (a live event with DVR).
  case event = "EVENT"
}

/// A media playlist: the segments of one rendition, with live and low-latency metadata.
public struct MediaPlaylist: Sendable, Equatable {
  /// The URL the playlist was loaded from; relative URIs resolve against it.
  public var url: URL
  /// `EXT-X-VERSION`, when present.
  public var version: Int?
  /// `EXT-X-TARGETDURATION`, in whole seconds. When the tag is missing (a warning), the
  /// largest segment duration rounded to the nearest second.
  public var targetDuration: Int
  /// `EXT-X-MEDIA-SEQUENCE`: the media sequence number of the first segment (0 if absent).
  public var mediaSequence: Int
  /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 if absent).
  public var discontinuitySequence: Int
  /// `EXT-X-PLAYLIST-TYPE`.
  public var playlistType: PlaylistType?
  /// `EXT-X-ENDLIST`: no segment will be added.
  public var endList: Bool
  /// `EXT-X-I-FRAMES-ONLY`: every segment is one key frame.
  public var iFramesOnly: Bool
  /// `EXT-X-INDEPENDENT-SEGMENTS`.
  public var independentSegments: Bool
  /// `EXT-X-START`.
  public var start: StartPoint?
  /// The media segments, in order.
  public var segments: [MediaSegment]
  /// The `EXT-X-PART` tags after the last complete segment: the parts of the segment being
  /// produced (low-latency HLS).
  public var trailingParts: [PartialSegment]
  /// `EXT-X-PART-INF` `PART-TARGET`.
  public var partTargetDuration: MediaTime?
  /// `EXT-X-SERVER-CONTROL`.
  public var serverControl: ServerControl?
  /// `EXT-X-PRELOAD-HINT` tags.
  public var preloadHints: [PreloadHint]
  /// `EXT-X-RENDITION-REPORT` tags.
  public var renditionReports: [RenditionReport]
  /// `EXT-X-SKIP`: segments left out of a delta update.
  public var skip: SkipInfo?
  /// `EXT-X-DATERANGE` tags, in order.
  public var dateRanges: [DateRange]
  /// Server-side ad marker tags (`EXT-X-CUE-OUT`, `EXT-X-CUE-OUT-CONT`, `EXT-X-CUE-IN`,
  /// `EXT-OATCLS-SCTE35`, `EXT-X-SCTE35`), in order, each with the segment it precedes.
  public var adMarkers: [AdMarker]
  /// Variables defined by `EXT-X-DEFINE` (name to value), imported ones included.
  public var definitions: [String: String]
  /// Tags kept verbatim, in order.
  public var unknownTags: [UnknownTag]
  /// Recoverable oddities found while parsing.
  public var warnings: [ParseWarning]
  /// The source text of substituted values, for the writer (not compared).
  var substitutionSources = SubstitutionSources()

  public init(
    url: URL, version: Int? = nil, targetDuration: Int, mediaSequence: Int = 0,
    discontinuitySequence: Int = 0, playlistType: PlaylistType? = nil, endList: Bool = false,
    iFramesOnly: Bool = false, independentSegments: Bool = false, start: StartPoint? = nil,
    segments: [MediaSegment] = [], trailingParts: [PartialSegment] = [],
    partTargetDuration: MediaTime? = nil, serverControl: ServerControl? = nil,
    preloadHints: [PreloadHint] = [], renditionReports: [RenditionReport] = [],
    skip: SkipInfo? = nil, dateRanges: [DateRange] = [], adMarkers: [AdMarker] = [],
    definitions: [String: String] = [:],
    unknownTags: [UnknownTag] = [], warnings: [ParseWarning] = []
  ) {
    self.url = url
    self.version = version
    self.targetDuration = targetDuration
    self.mediaSequence = mediaSequence
    self.discontinuitySequence = discontinuitySequence
    self.playlistType = playlistType
    self.endList = endList
    self.iFramesOnly = iFramesOnly
    self.independentSegments = independentSegments
    self.start = start
    self.segments = segments
    self.trailingParts = trailingParts
    self.partTargetDuration = partTargetDuration
    self.serverControl = serverControl
    self.preloadHints = preloadHints
    self.renditionReports = renditionReports
    self.skip = skip
    self.dateRanges = dateRanges
    self.adMarkers = adMarkers
    self.definitions = definitions
    self.unknownTags = unknownTags
    self.warnings = warnings
  }

  /// The sum of the segment durations (exact).
  public var totalDuration: MediaTime {
    var total = MediaTime.zero
    for segment in segments { total = total + segment.duration }
    return total
  }
}

/// `EXT-X-MAP`: the media initialization section the following segments need.
public struct InitializationSection: Sendable, Equatable {
  /// The URI as written, after variable substitution.
  public var uriString: String
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `BYTERANGE`, with an omitted offset filled in from the previous range.
  public var byteRange: ByteRange?
  /// Every `EXT-X-KEY` in effect where the tag stands.
  public var keys: [EncryptionKey]
  /// The media sequence number the section's IV comes from when its AES-128 key has no
  /// `IV`: that of the first segment after the tag (the parser warns, since RFC 8216
  /// 4.3.2.5 requires an IV there); nil otherwise.
  public var impliedIVSequence: Int?

  public init(
    uri: URL, byteRange: ByteRange? = nil, keys: [EncryptionKey] = [],
    impliedIVSequence: Int? = nil
  ) {
    (self.uriString, self.baseURL) = URIResolution.parts(of: uri)
    self.byteRange = byteRange
    self.keys = keys
    self.impliedIVSequence = impliedIVSequence
  }

  init(uriString: String, baseURL: URL, byteRange: ByteRange?, keys: [EncryptionKey]) {
    self.uriString = uriString
    self.baseURL = baseURL
    self.byteRange = byteRange
    self.keys = keys
  }

  /// The key that decrypts the section (identity format first), nil when it is clear.
  public var key: EncryptionKey? { keys.first { $0.keyFormat == "identity" } ?? keys.first }

  /// The AES-128 initialization vector of the section: the key's `IV`, else (a key without
  /// one, accepted with a warning) the `impliedIVSequence` as a 128-bit big-endian number,
  /// as for segments; nil when the section is not AES-128 encrypted.
  public var iv: [UInt8]? {
    guard let key else { return nil }
    if let explicit = key.iv { return explicit }
    guard key.method == .aes128 else { return nil }
    return EncryptionKey.sequenceIV(impliedIVSequence ?? 0)
  }

  /// The section's absolute URL.
  public var uri: URL {
    get { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
    set { (uriString, baseURL) = URIResolution.parts(of: newValue) }
  }
}

/// `EXT-X-PART`: a partial segment (low-latency HLS).
public struct PartialSegment: Sendable, Equatable {
  /// The URI as written, after variable substitution.
  public var uriString: String
  /// The URL `uriString` is relative to.
  public var baseURL: URL
  /// `DURATION`, exact.
  public var duration: MediaTime
  /// `INDEPENDENT=YES`: the part starts with a key frame.
  public var independent: Bool
  /// `BYTERANGE`, with an omitted offset filled in from the previous part's range.
  public var byteRange: ByteRange?
  /// `GAP=YES`.
  public var gap: Bool

  public init(
    uri: URL, duration: MediaTime, independent: Bool = false, byteRange: ByteRange? = nil,
    gap: Bool = false
  ) {
    (self.uriString, self.baseURL) = URIResolution.parts(of: uri)
    self.duration = duration
    self.independent = independent
    self.byteRange = byteRange
    self.gap = gap
  }

  init(
    uriString: String, baseURL: URL, duration: MediaTime, independent: Bool,
    byteRange: ByteRange?, gap: Bool
  ) {
    self.uriString = uriString
    self.baseURL = baseURL
    self.duration = duration
    self.independent = independent
    self.byteRange = byteRange
    self.gap = gap
  }

  /// The part's absolute URL.
  public var uri: URL {
    get { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
    set { (uriString, baseURL) = URIResolution.parts(of: newValue) }
  }
}
