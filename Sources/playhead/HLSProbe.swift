import Foundation
import Playhead

/// What `probe` shows about an HLS stream besides its tracks: the stream kind, the
/// variants, the renditions and the I-frame variants of the master playlist.
struct HLSProbe: Sendable {
  /// One variant, with the index `play --rendition` takes.
  struct VariantEntry: Sendable {
    /// Index among the stream's renditions, lowest bandwidth first; redundant copies of a
    /// variant (same bandwidth, resolution and codecs) share one index, as in the engine.
    var index: Int
    var variant: Variant
  }

  /// VOD, live or live DVR, from the first variant's media playlist (or the playlist given).
  var streamKind: StreamKind
  /// The variants in rendition order (empty for a media playlist).
  var variants: [VariantEntry]
  var renditions: [Rendition]
  var iFrameVariants: [IFrameVariant]
  /// The parser's warnings, `URL line N: message`: the playlist's, then (for a master
  /// playlist) its first variant's media playlist's.
  var warnings: [String] = []

  /// Loads the playlist at `url` and, for a master playlist, its first variant's media
  /// playlist, with `request` (timeout, retries, headers).
  static func load(url: URL, request: RequestConfiguration) throws(PlayheadError) -> HLSProbe {
    let source = DataSourceStack(request: request).loader()
    switch try fetch(url, from: source, importing: nil) {
    case .media(let media):
      return HLSProbe(
        streamKind: kind(of: media), variants: [], renditions: [], iFrameVariants: [],
        warnings: warningLines(media.warnings, url: url))
    case .master(let master):
      let variants = entries(master.variants)
      guard let first = variants.first else {
        throw PlayheadError(
          .noPlayableStreams, "the master playlist has no variants", url: url)
      }
      let media = try fetch(first.variant.uri, from: source, importing: master.definitions)
      guard let mediaPlaylist = media.mediaPlaylist else {
        throw PlayheadError(
          .unsupportedFormat,
          "bad playlist \(first.variant.uri.absoluteString): a variant is a master playlist",
          url: first.variant.uri)
      }
      return HLSProbe(
        streamKind: kind(of: mediaPlaylist), variants: variants, renditions: master.renditions,
        iFrameVariants: master.iFrameVariants,
        warnings: warningLines(master.warnings, url: url)
          + warningLines(mediaPlaylist.warnings, url: first.variant.uri))
    }
  }

  /// Fetches and parses one playlist.
  private static func fetch(
    _ url: URL, from source: DataLoader, importing definitions: [String: String]?
  ) throws(PlayheadError) -> PlayheadHLS.Playlist {
    let data = try source.load(DataRequest(url: url, purpose: .playlist)).data
    do {
      if let definitions {
        return try PlaylistParser.parse(data, url: url, importing: definitions)
      }
      return try PlaylistParser.parse(data, url: url)
    } catch {
      throw PlayheadError(
        .invalidPlaylist, "bad playlist \(url.absoluteString): \(error)", url: url)
    }
  }

  /// `warnings` as `URL line N: message` lines.
  static func warningLines(_ warnings: [ParseWarning], url: URL) -> [String] {
    warnings.map { "\(url.absoluteString) \($0)" }
  }

  /// The stream kind a media playlist gives.
  static func kind(of media: MediaPlaylist) -> StreamKind {
    if media.endList { return .vod }
    return media.playlistType == .event ? .liveDVR : .live
  }

  /// Numbers `variants` as the engine does: redundant copies grouped, then lowest bandwidth
  /// first (ties keep the playlist's order).
  static func entries(_ variants: [Variant]) -> [VariantEntry] {
    var groups: [[Variant]] = []
    for variant in variants {
      if let index = groups.firstIndex(where: { group in
        let first = group[0]
        return first.bandwidth == variant.bandwidth && first.resolution == variant.resolution
          && first.codecs == variant.codecs && !group.contains { $0.uri == variant.uri }
      }) {
        groups[index].append(variant)
      } else {
        groups.append([variant])
      }
    }
    let ordered = groups.enumerated().sorted { lhs, rhs in
      (lhs.element[0].bandwidth, lhs.offset) < (rhs.element[0].bandwidth, rhs.offset)
    }
    return ordered.enumerated().flatMap { index, group in
      group.element.map { VariantEntry(index: index, variant: $0) }
    }
  }

  /// `VOD`, `live` or `DVR`.
  static func kindName(_ kind: StreamKind) -> String {
    switch kind {
    case .vod: return "VOD"
    case .live: return "live"
    case .liveDVR: return "DVR"
    }
  }

  // MARK: JSON

  /// The fields `probe --json` adds for an HLS stream.
  var jsonFields: [JSONField] {
    [
      JSONField("streamKind", .string(Self.kindName(streamKind))),
      JSONField("variants", .array(variants.map(Self.json))),
      JSONField("renditions", .array(renditions.map(Self.json))),
      JSONField("iFrameVariants", .array(iFrameVariants.map(Self.json))),
      JSONField("warnings", .array(warnings.map { .string($0) })),
    ]
  }

  private static func json(_ entry: VariantEntry) -> JSONValue {
    let variant = entry.variant
    return .object([
      JSONField("index", .int(entry.index)),
      JSONField("bandwidth", .int(variant.bandwidth)),
      JSONField("averageBandwidth", .int(variant.averageBandwidth)),
      JSONField("resolution", .text(variant.resolution?.description)),
      JSONField("width", .int(variant.resolution?.width)),
      JSONField("height", .int(variant.resolution?.height)),
      JSONField("codecs", .text(variant.codecs)),
      JSONField("frameRate", .decimal(variant.frameRate)),
      JSONField("audio", .text(variant.audioGroup)),
      JSONField("subtitles", .text(variant.subtitlesGroup)),
      JSONField("uri", .string(variant.uriString)),
    ])
  }

  private static func json(_ rendition: Rendition) -> JSONValue {
    .object([
      JSONField("type", .string(rendition.type.rawValue)),
      JSONField("groupId", .string(rendition.groupID)),
      JSONField("name", .string(rendition.name)),
      JSONField("language", .text(rendition.language)),
      JSONField("default", .bool(rendition.isDefault)),
      JSONField("autoselect", .bool(rendition.autoselect)),
      JSONField("forced", .bool(rendition.forced)),
      JSONField("channels", .text(rendition.channels)),
      JSONField("uri", .text(rendition.uriString)),
    ])
  }

  private static func json(_ variant: IFrameVariant) -> JSONValue {
    .object([
      JSONField("bandwidth", .int(variant.bandwidth)),
      JSONField("averageBandwidth", .int(variant.averageBandwidth)),
      JSONField("resolution", .text(variant.resolution?.description)),
      JSONField("codecs", .text(variant.codecs)),
      JSONField("uri", .string(variant.uriString)),
    ])
  }

  // MARK: Text

  /// The text lines `probe` adds for an HLS stream.
  var textLines: [String] {
    var lines = ["stream     \(Self.kindName(streamKind))"]
    for entry in variants {
      let variant = entry.variant
      var parts = ["variant \(entry.index)", VariantText.bitRate(Double(variant.bandwidth))]
      if let resolution = variant.resolution { parts.append(resolution.description) }
      if let codecs = variant.codecs { parts.append(codecs) }
      parts.append(variant.uriString)
      lines.append(parts.joined(separator: "  "))
    }
    for rendition in renditions {
      var parts = [
        "rendition", rendition.type.rawValue.lowercased(), "group \(rendition.groupID)",
        "\"\(rendition.name)\"",
      ]
      if let language = rendition.language, !language.isEmpty { parts.append("[\(language)]") }
      if rendition.isDefault { parts.append("default") }
      parts.append(rendition.uriString ?? "(in the variant streams)")
      lines.append(parts.joined(separator: "  "))
    }
    for variant in iFrameVariants {
      var parts = ["i-frames", VariantText.bitRate(Double(variant.bandwidth))]
      if let resolution = variant.resolution { parts.append(resolution.description) }
      if let codecs = variant.codecs { parts.append(codecs) }
      parts.append(variant.uriString)
      lines.append(parts.joined(separator: "  "))
    }
    lines += warnings.map { "warning    \($0)" }
    return lines
  }
}
