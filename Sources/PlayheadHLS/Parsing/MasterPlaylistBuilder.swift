import Foundation
import PlayheadCore

/// Builds a `MasterPlaylist` line by line.
///
/// `EXT-X-STREAM-INF` waits for the URI line that follows it; the other master tags stand
/// alone. Media playlist tags are kept as unknown tags with a warning.
struct MasterPlaylistBuilder: PlaylistBuilder {
  var context: ParserContext
  var playlist: MasterPlaylist
  /// The variant whose URI line is awaited (its `uriString` is filled in then).
  var pendingVariant: Variant?
  var pendingVariantLine = 0

  init(context: ParserContext) {
    self.context = context
    self.playlist = MasterPlaylist(url: context.url)
  }

  static var buildsMaster: Bool { true }

  var unknownTagPosition: Int { playlist.variants.count }

  mutating func parse(_ reader: inout LineReader) throws(PlaylistParseError) -> MasterPlaylist {
    try readLines(&reader)
    if pendingVariant != nil {
      throw PlaylistParseError(
        .missingURI, line: pendingVariantLine, "EXT-X-STREAM-INF is not followed by a URI line")
    }
    return collected()
  }

  mutating func handle(_ tag: TagName, value: ByteSpan, line: ByteSpan)
    throws(PlaylistParseError)
  {
    switch tag {
    case .extm3u, .version, .independentSegments, .start, .define:
      try readCommonTag(tag, value: value, line: line)
    case .extinf:
      throw context.error(
        .mixedPlaylist, "EXTINF in a master playlist (the playlist mixes master and media tags)")
    case .streamInf: try readStreamInf(value)
    case .iFrameStreamInf: try readIFrameStreamInf(value)
    case .media: try readMedia(value)
    case .sessionData:
      if try !readSessionData(value) { try keepUnknown(line) }
    case .sessionKey:
      if try !readSessionKey(value) { try keepUnknown(line) }
    case .contentSteering:
      if try !readContentSteering(value) { try keepUnknown(line) }
    default:
      context.warn("\(tag.name) belongs in a media playlist; kept as an unknown tag")
      try keepUnknown(line)
    }
  }

  /// Gives the pending `EXT-X-STREAM-INF` variant its URI line.
  mutating func addURILine(_ span: ByteSpan, position _: Int) throws(PlaylistParseError) {
    guard var variant = pendingVariant else {
      context.warn(
        "URI line '\(ParserContext.excerpt(text.string(span)))' has no EXT-X-STREAM-INF before it; ignored"
      )
      return
    }
    guard playlist.variants.count < context.limits.maxSegments else {
      throw context.error(.limitExceeded, "more than \(context.limits.maxSegments) variants")
    }
    variant.uriString = try context.uriLine(span, in: "variant")
    playlist.variants.append(variant)
    pendingVariant = nil
  }

  /// `BANDWIDTH`, required by RFC 8216 but read leniently, as peers do: a missing one is
  /// 0 and a decimal one is rounded to the nearest integer, each with a warning. Fatal: a
  /// value that is not a number (`.invalidValue`).
  private mutating func bandwidth(_ list: AttributeList, of tag: TagName) throws(PlaylistParseError)
    -> Int
  {
    guard let entry = list.entry("BANDWIDTH", in: text) else {
      context.warn("\(tag.name) has no BANDWIDTH; 0 is used")
      return 0
    }
    if let value = text.integer(entry.value) { return value }
    guard let value = Self.lenientBandwidth(text.string(entry.value)) else {
      throw context.error(
        .invalidValue,
        "\(tag.name) BANDWIDTH '\(text.string(entry.value))' is not a decimal integer")
    }
    context.warn(
      "\(tag.name) BANDWIDTH '\(text.string(entry.value))' is not an integer; \(value) is used")
    return value
  }

  /// A `BANDWIDTH` text read as the parser reads it: a decimal integer, or a non-negative
  /// decimal number rounded to the nearest integer; nil for anything else.
  static func lenientBandwidth(_ text: String) -> Int? {
    ParserContext.withBytes(of: text) { bytes -> Int? in
      let span = ByteSpan(0, bytes.bytes.count)
      if let value = bytes.integer(span) { return value }
      guard let value = bytes.double(span), value.isFinite, value >= 0, value < 9e18 else {
        return nil
      }
      return Int(value.rounded())
    }
  }

  /// Reads `AVERAGE-BANDWIDTH`, `CODECS` and `RESOLUTION`, which both variant tags carry
  /// after `BANDWIDTH`.
  private mutating func readShared(
    _ list: AttributeList, of tag: TagName, into variant: inout some VariantStream
  ) throws(PlaylistParseError) {
    variant.averageBandwidth = context.optionalInteger("AVERAGE-BANDWIDTH", in: list, of: tag)
    variant.codecs = try context.string("CODECS", in: list)
    variant.resolution = resolution(list, of: tag)
  }

  private mutating func resolution(_ list: AttributeList, of tag: TagName) -> Resolution? {
    guard let entry = list.entry("RESOLUTION", in: text) else { return nil }
    if let value = text.resolution(entry.value) { return value }
    context.warn("\(tag.name) RESOLUTION '\(text.string(entry.value))' is not WxH; ignored")
    return nil
  }

  private mutating func readStreamInf(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .streamInf)
    context.warnUnknownAttributes(list, known: Self.streamInfAttributes, of: .streamInf)
    var variant = Variant(uri: context.url, bandwidth: try bandwidth(list, of: .streamInf))
    variant.uriString = ""
    variant.baseURL = context.url
    try readShared(list, of: .streamInf, into: &variant)
    if let entry = list.entry("FRAME-RATE", in: text) {
      variant.frameRate = text.double(entry.value)
      if variant.frameRate == nil {
        context.warn(
          "EXT-X-STREAM-INF FRAME-RATE '\(text.string(entry.value))' is not a decimal number; ignored"
        )
      }
    }
    variant.hdcpLevel = try context.string("HDCP-LEVEL", in: list)
    variant.audioGroup = try context.string("AUDIO", in: list)
    variant.videoGroup = try context.string("VIDEO", in: list)
    variant.subtitlesGroup = try context.string("SUBTITLES", in: list)
    variant.closedCaptions = try context.string("CLOSED-CAPTIONS", in: list)
    variant.pathwayID = try context.string("PATHWAY-ID", in: list)
    variant.stableVariantID = try context.string("STABLE-VARIANT-ID", in: list)
    variant.attributes = try context.rawAttributes(list)
    if pendingVariant != nil {
      throw PlaylistParseError(
        .missingURI, line: pendingVariantLine, "EXT-X-STREAM-INF is not followed by a URI line")
    }
    pendingVariant = variant
    pendingVariantLine = context.line
  }

  private mutating func readIFrameStreamInf(_ value: ByteSpan) throws(PlaylistParseError) {
    let list = context.attributes(value, of: .iFrameStreamInf)
    context.warnUnknownAttributes(list, known: Self.iFrameAttributes, of: .iFrameStreamInf)
    let bandwidth = try bandwidth(list, of: .iFrameStreamInf)
    guard let uriEntry = list.entry("URI", in: text) else {
      throw context.error(.missingAttribute, "EXT-X-I-FRAME-STREAM-INF has no URI")
    }
    guard playlist.iFrameVariants.count < context.limits.maxSegments else {
      throw context.error(
        .limitExceeded, "more than \(context.limits.maxSegments) I-frame variants")
    }
    var variant = IFrameVariant(uri: context.url, bandwidth: bandwidth)
    variant.uriString = try context.uri(uriEntry.value, in: "EXT-X-I-FRAME-STREAM-INF")
    variant.baseURL = context.url
    try readShared(list, of: .iFrameStreamInf, into: &variant)
    variant.videoGroup = try context.string("VIDEO", in: list)
    variant.attributes = try context.rawAttributes(list)
    playlist.iFrameVariants.append(variant)
  }

  static let streamInfAttributes: [StaticString] = [
    "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION",
    "FRAME-RATE", "HDCP-LEVEL", "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT",
    "STABLE-VARIANT-ID", "AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS", "PATHWAY-ID",
    "PROGRAM-ID",
  ]

  static let iFrameAttributes: [StaticString] = [
    "URI", "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS",
    "RESOLUTION", "HDCP-LEVEL", "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT",
    "STABLE-VARIANT-ID", "VIDEO", "PATHWAY-ID", "PROGRAM-ID",
  ]
}
