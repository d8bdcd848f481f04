/// The tags the parser models, recognised from their name bytes.
enum TagName: CaseIterable {
  case extm3u, version, independentSegments, start, define
  case extinf, targetDuration, mediaSequence, discontinuitySequence, endList, playlistType
  case iFramesOnly, byteRange, discontinuity, key, map, programDateTime, dateRange, gap, bitrate
  case partInf, serverControl, part, preloadHint, renditionReport, skip
  case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering

  /// The tag as written, with its `#`.
  var text: StaticString {
    switch self {
    case .extm3u: return "#EXTM3U"
    case .version: return "#EXT-X-VERSION"
    case .independentSegments: return "#EXT-X-INDEPENDENT-SEGMENTS"
    case .start: return "#EXT-X-START"
    case .define: return "#EXT-X-DEFINE"
    case .extinf: return "#EXTINF"
    case .targetDuration: return "#EXT-X-TARGETDURATION"
    case .mediaSequence: return "#EXT-X-MEDIA-SEQUENCE"
    case .discontinuitySequence: return "#EXT-X-DISCONTINUITY-SEQUENCE"
    case .endList: return "#EXT-X-ENDLIST"
    case .playlistType: return "#EXT-X-PLAYLIST-TYPE"
    case .iFramesOnly: return "#EXT-X-I-FRAMES-ONLY"
    case .byteRange: return "#EXT-X-BYTERANGE"
    case .discontinuity: return "#EXT-X-DISCONTINUITY"
    case .key: return "#EXT-X-KEY"
    case .map: return "#EXT-X-MAP"
    case .programDateTime: return "#EXT-X-PROGRAM-DATE-TIME"
    case .dateRange: return "#EXT-X-DATERANGE"
    case .gap: return "#EXT-X-GAP"
    case .bitrate: return "#EXT-X-BITRATE"
    case .partInf: return "#EXT-X-PART-INF"
    case .serverControl: return "#EXT-X-SERVER-CONTROL"
    case .part: return "#EXT-X-PART"
    case .preloadHint: return "#EXT-X-PRELOAD-HINT"
    case .renditionReport: return "#EXT-X-RENDITION-REPORT"
    case .skip: return "#EXT-X-SKIP"
    case .media: return "#EXT-X-MEDIA"
    case .streamInf: return "#EXT-X-STREAM-INF"
    case .iFrameStreamInf: return "#EXT-X-I-FRAME-STREAM-INF"
    case .sessionData: return "#EXT-X-SESSION-DATA"
    case .sessionKey: return "#EXT-X-SESSION-KEY"
    case .contentSteering: return "#EXT-X-CONTENT-STEERING"
    }
  }

  /// The tag name without its `#`, for messages.
  var name: String {
    String(describing: text).dropFirst().description
  }

  /// Which kind of playlist the tag belongs to.
  var scope: Scope {
    switch self {
    case .extm3u, .version, .independentSegments, .start, .define: return .both
    case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering:
      return .master
    default: return .media
    }
  }

  enum Scope { case both, master, media }

  /// The tags grouped by name length, for the lookup.
  private static let byLength: [[TagName]] = {
    var table = [[TagName]](repeating: [], count: 40)
    for tag in TagName.allCases { table[tag.text.utf8CodeUnitCount].append(tag) }
    return table
  }()

  /// The tag whose name `span` holds, or nil for an unknown tag.
  static func lookup(_ span: ByteSpan, in text: ByteText) -> TagName? {
    guard span.count < byLength.count else { return nil }
    for tag in byLength[span.count] where text.equals(span, tag.text) { return tag }
    return nil
  }
}
