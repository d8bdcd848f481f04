import Foundation
import PlayheadCore

/// One media segment of a media playlist, with every tag that applies to it resolved.
///
/// A playlist may hold hundreds of thousands of segments, so the storage is compact: the
/// base URL, keys and map, which change only where their tags stand, sit in one immutable
/// object shared by the segments they apply to, a URI line is read into a string only when
/// `uriString` is read, and a program date-time written in the writer's own form is kept as
/// its date. Setting any property changes only this segment.
public struct MediaSegment: Sendable, Equatable {
  /// The URI as written, after variable substitution.
  public var uriString: String {
    get { uriText.string }
    set { uriText = .string(newValue) }
  }
  /// The URL `uriString` is relative to (the playlist's URL).
  public var baseURL: URL {
    get { shared.baseURL }
    set { shared = SegmentSharedState(baseURL: newValue, keys: shared.keys, map: shared.map) }
  }
  /// `EXTINF` duration, exact from its decimal text (`2.002` is 2002/1000 s).
  public var duration: MediaTime
  /// The `EXTINF` title (text after the comma), nil when empty.
  public var title: String?
  /// `EXT-X-BYTERANGE`, with an omitted offset filled in from the previous range.
  public var byteRange: ByteRange?
  /// `EXT-X-DISCONTINUITY` precedes the segment.
  public var discontinuity: Bool
  /// `EXT-X-GAP`: the segment is missing and must not be loaded.
  public var gap: Bool
  /// The key to decrypt the segment with: the `KEYFORMAT="identity"` key when there is
  /// one, else the first of `keys`; nil when the segment is not encrypted.
  public var key: EncryptionKey? { keys.first { $0.keyFormat == "identity" } ?? keys.first }
  /// Every `EXT-X-KEY` in effect, one per `KEYFORMAT`, in the order they were declared.
  public var keys: [EncryptionKey] {
    get { shared.keys }
    set { shared = SegmentSharedState(baseURL: shared.baseURL, keys: newValue, map: shared.map) }
  }
  /// The `EXT-X-MAP` in effect.
  public var map: InitializationSection? {
    get { shared.map }
    set { shared = SegmentSharedState(baseURL: shared.baseURL, keys: shared.keys, map: newValue) }
  }
  /// The date of the segment's first sample: from its own `EXT-X-PROGRAM-DATE-TIME`, or
  /// extrapolated by segment durations from the nearest dated segment with no
  /// discontinuity in between; nil when there is none.
  public var programDateTime: Date?
  /// The segment's own `EXT-X-PROGRAM-DATE-TIME` value as written; nil when the date is
  /// extrapolated or absent. The writer writes the tag only where this is set.
  public var programDateTimeText: String? {
    get { dateText.text }
    set { dateText = newValue.map { .written($0) } ?? .none }
  }
  /// The media sequence number (playlist's `mediaSequence` + skipped segments + index).
  public var mediaSequence: Int
  /// The discontinuity sequence number: the playlist's `discontinuitySequence` plus the
  /// `EXT-X-DISCONTINUITY` tags up to and including this segment's.
  public var discontinuitySequence: Int
  /// `EXT-X-BITRATE` in effect, in kilobits per second.
  public var bitrate: Int?
  /// The `EXT-X-PART` tags that make up this segment (low-latency HLS).
  public var parts: [PartialSegment]

  /// How `uriString` is kept.
  var uriText: SegmentURIText
  /// The base URL, keys and map, shared with the neighbouring segments.
  var shared: SegmentSharedState
  /// How `programDateTimeText` is kept.
  var dateText: ProgramDateText

  /// The segment's absolute URL. Setting it stores the URL's absolute string.
  public var uri: URL {
    get { URIResolution.resolve(uriString, against: baseURL) ?? baseURL }
    set { (uriString, baseURL) = URIResolution.parts(of: newValue) }
  }

  /// The AES-128 initialization vector: the key's explicit `IV`, else the media sequence
  /// number as a 128-bit big-endian number when the key is AES-128, else nil.
  public var iv: [UInt8]? {
    guard let key else { return nil }
    if let explicit = key.iv { return explicit }
    guard key.method == .aes128 else { return nil }
    return EncryptionKey.sequenceIV(mediaSequence)
  }

  /// Sets the program date time and the text the writer writes for it (ISO 8601 with
  /// milliseconds, UTC); nil removes both.
  public mutating func setProgramDateTime(_ date: Date?) {
    programDateTime = date
    dateText = date.map { .formatted($0) } ?? .none
  }

  /// Whether every property of the two segments is equal.
  public static func == (lhs: MediaSegment, rhs: MediaSegment) -> Bool {
    lhs.uriText == rhs.uriText && lhs.duration == rhs.duration && lhs.title == rhs.title
      && lhs.byteRange == rhs.byteRange && lhs.discontinuity == rhs.discontinuity
      && lhs.gap == rhs.gap && lhs.programDateTime == rhs.programDateTime
      && lhs.mediaSequence == rhs.mediaSequence
      && lhs.discontinuitySequence == rhs.discontinuitySequence && lhs.bitrate == rhs.bitrate
      && lhs.parts == rhs.parts && lhs.dateText == rhs.dateText
      && lhs.shared.hasSameValues(as: rhs.shared)
  }
}

// In an extension, so that the parser keeps the memberwise initializer.
extension MediaSegment {
  /// A segment of `uri` lasting `duration`, without a program date-time; `uri` is stored
  /// as its absolute string relative to itself.
  public init(
    uri: URL, duration: MediaTime, title: String? = nil, byteRange: ByteRange? = nil,
    discontinuity: Bool = false, gap: Bool = false, keys: [EncryptionKey] = [],
    map: InitializationSection? = nil, mediaSequence: Int = 0, discontinuitySequence: Int = 0,
    bitrate: Int? = nil, parts: [PartialSegment] = []
  ) {
    let (text, base) = URIResolution.parts(of: uri)
    self.uriText = .string(text)
    self.shared = SegmentSharedState(baseURL: base, keys: keys, map: map)
    self.duration = duration
    self.title = title
    self.byteRange = byteRange
    self.discontinuity = discontinuity
    self.gap = gap
    self.dateText = .none
    self.mediaSequence = mediaSequence
    self.discontinuitySequence = discontinuitySequence
    self.bitrate = bitrate
    self.parts = parts
  }
}
