import Foundation

/// Writes one master playlist.
///
/// Order: header, renditions, session data and keys, content steering, I-frame variants,
/// then the variants. Unknown tags at position `i` are written between variant `i`'s
/// `EXT-X-STREAM-INF` and its URI line, so that they read back at the same position and
/// never precede the first variant tag.
struct MasterPlaylistWriter {
  let playlist: MasterPlaylist
  private var output = ""
  /// The source text of substituted values.
  private let sources: SubstitutionSources

  init(playlist: MasterPlaylist) {
    self.playlist = playlist
    self.sources = playlist.substitutionSources
  }

  private mutating func line(_ text: String) {
    output += text
    output += "\n"
  }

  mutating func write() -> String {
    line("#EXTM3U")
    if let version = playlist.version { line("#EXT-X-VERSION:\(version)") }
    if playlist.independentSegments { line("#EXT-X-INDEPENDENT-SEGMENTS") }
    if let start = playlist.start { line(CommonTagText.start(start)) }
    for definition in CommonTagText.definitions(playlist.definitions) { line(definition) }
    for rendition in playlist.renditions { line(Self.rendition(rendition)) }
    for data in playlist.sessionData { line(Self.sessionData(data)) }
    for key in playlist.sessionKeys { line(CommonTagText.key(key, tag: "#EXT-X-SESSION-KEY")) }
    if let steering = playlist.contentSteering {
      var attributes = AttributeWriter()
      attributes.quoted("SERVER-URI", steering.serverURIString)
      attributes.quoted("PATHWAY-ID", steering.pathwayID)
      line("#EXT-X-CONTENT-STEERING:" + attributes.text)
    }
    for variant in playlist.iFrameVariants { line(Self.iFrameVariant(variant)) }
    let unknown = playlist.unknownTags.enumerated()
      .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
      .map(\.element)
    var unknownIndex = 0
    for (index, variant) in playlist.variants.enumerated() {
      line(Self.streamInf(variant))
      while unknownIndex < unknown.count && unknown[unknownIndex].position <= index {
        line(unknown[unknownIndex].text)
        unknownIndex += 1
      }
      line(sources.isEmpty ? variant.uriString : sources.text(for: variant.uriString))
    }
    for tag in unknown[unknownIndex...] { line(tag.text) }
    return output
  }

  static func streamInf(_ variant: Variant) -> String {
    let raw = variant.attributes
    var attributes = AttributeWriter()
    Self.writeShared(variant, into: &attributes)
    attributes.modelled(
      "FRAME-RATE", raw: raw, canonical: variant.frameRate.map(WriterFormat.decimal), quote: false,
      same: { WriterFormat.double($0) == variant.frameRate })
    attributes.modelled(
      "HDCP-LEVEL", raw: raw, canonical: variant.hdcpLevel, quote: false,
      same: { $0 == variant.hdcpLevel })
    for (name, value) in [
      ("AUDIO", variant.audioGroup), ("VIDEO", variant.videoGroup),
      ("SUBTITLES", variant.subtitlesGroup), ("PATHWAY-ID", variant.pathwayID),
      ("STABLE-VARIANT-ID", variant.stableVariantID),
    ] {
      attributes.modelled(name, raw: raw, canonical: value, quote: true, same: { $0 == value })
    }
    let captions = variant.closedCaptions
    attributes.modelled(
      "CLOSED-CAPTIONS", raw: raw, canonical: captions, quote: captions != "NONE",
      same: { $0 == captions })
    attributes.remaining(raw, written: streamInfModelled, quotedNames: quotedNames)
    return "#EXT-X-STREAM-INF:" + attributes.text
  }

  static func iFrameVariant(_ variant: IFrameVariant) -> String {
    let raw = variant.attributes
    var attributes = AttributeWriter()
    attributes.quoted("URI", variant.uriString)
    Self.writeShared(variant, into: &attributes)
    attributes.modelled(
      "VIDEO", raw: raw, canonical: variant.videoGroup, quote: true,
      same: { $0 == variant.videoGroup })
    attributes.remaining(raw, written: iFrameModelled, quotedNames: quotedNames)
    return "#EXT-X-I-FRAME-STREAM-INF:" + attributes.text
  }

  static func rendition(_ rendition: Rendition) -> String {
    let raw = rendition.attributes
    var attributes = AttributeWriter()
    attributes.plain("TYPE", rendition.type.rawValue)
    attributes.quoted("GROUP-ID", rendition.groupID)
    attributes.quoted("NAME", rendition.name)
    for (name, value) in [
      ("LANGUAGE", rendition.language), ("ASSOC-LANGUAGE", rendition.assocLanguage),
      ("INSTREAM-ID", rendition.instreamID), ("CHARACTERISTICS", rendition.characteristics),
      ("CHANNELS", rendition.channels),
    ] {
      attributes.modelled(name, raw: raw, canonical: value, quote: true, same: { $0 == value })
    }
    for (name, flag) in [
      ("DEFAULT", rendition.isDefault), ("AUTOSELECT", rendition.autoselect),
      ("FORCED", rendition.forced),
    ] {
      let yes = flag ? "YES" : nil
      attributes.modelled(
        name, raw: raw, canonical: yes, quote: false, same: { ($0 == "YES") == flag })
    }
    attributes.quoted("URI", rendition.uriString)
    attributes.remaining(raw, written: renditionModelled, quotedNames: quotedNames)
    return "#EXT-X-MEDIA:" + attributes.text
  }

  static func sessionData(_ data: SessionData) -> String {
    var attributes = AttributeWriter()
    attributes.quoted("DATA-ID", data.dataID)
    attributes.quoted("VALUE", data.value)
    attributes.quoted("URI", data.uriString)
    attributes.token("FORMAT", data.format)
    attributes.quoted("LANGUAGE", data.language)
    return "#EXT-X-SESSION-DATA:" + attributes.text
  }

  /// Writes `BANDWIDTH`, `AVERAGE-BANDWIDTH`, `CODECS` and `RESOLUTION`, which both variant
  /// tags carry.
  static func writeShared(_ variant: some VariantStream, into attributes: inout AttributeWriter) {
    let raw = variant.attributes
    attributes.modelled(
      "BANDWIDTH", raw: raw, canonical: Self.bandwidthText(variant.bandwidth, raw: raw),
      quote: false, same: { MasterPlaylistBuilder.lenientBandwidth($0) == variant.bandwidth })
    attributes.modelled(
      "AVERAGE-BANDWIDTH", raw: raw, canonical: variant.averageBandwidth.map { String($0) },
      quote: false, same: { WriterFormat.integer($0) == variant.averageBandwidth })
    attributes.modelled(
      "CODECS", raw: raw, canonical: variant.codecs, quote: true, same: { $0 == variant.codecs })
    attributes.modelled(
      "RESOLUTION", raw: raw, canonical: variant.resolution?.description, quote: false,
      same: { WriterFormat.resolution($0) == variant.resolution })
  }

  /// The canonical `BANDWIDTH` text, or nil (the attribute is left out) for a bandwidth of 0
  /// that the source did not write, so that the written playlist reads back the same.
  static func bandwidthText(_ bandwidth: Int, raw: [String: String]) -> String? {
    bandwidth == 0 && raw["BANDWIDTH"] == nil ? nil : String(bandwidth)
  }

  /// Attributes the typed fields cover, per tag.
  static let streamInfModelled: Set<String> = [
    "BANDWIDTH", "AVERAGE-BANDWIDTH", "CODECS", "RESOLUTION", "FRAME-RATE", "HDCP-LEVEL", "AUDIO",
    "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS", "PATHWAY-ID", "STABLE-VARIANT-ID",
  ]
  static let iFrameModelled: Set<String> = [
    "URI", "BANDWIDTH", "AVERAGE-BANDWIDTH", "CODECS", "RESOLUTION", "VIDEO",
  ]
  static let renditionModelled: Set<String> = [
    "TYPE", "GROUP-ID", "NAME", "LANGUAGE", "ASSOC-LANGUAGE", "INSTREAM-ID", "CHARACTERISTICS",
    "CHANNELS", "DEFAULT", "AUTOSELECT", "FORCED", "URI",
  ]
  /// Attributes RFC 8216bis defines as quoted strings that no typed field covers.
  static let quotedNames: Set<String> = [
    "SUPPLEMENTAL-CODECS", "ALLOWED-CPC", "REQ-VIDEO-LAYOUT", "STABLE-RENDITION-ID",
  ]
}
