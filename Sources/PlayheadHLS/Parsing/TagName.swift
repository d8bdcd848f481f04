import PlayheadCore

/// The tags the parser models, recognised from their name bytes.
enum TagName: CaseIterable {
  case extm3u, version, independentSegments, start, define
  case extinf, targetDuration, mediaSequence, discontinuitySequence, endList, playlistType
  case iFramesOnly, byteRange, discontinuity, key, map, programDateTime, dateRange, gap, bitrate
  case partInf, serverControl, part, preloadHint, renditionReport, skip
  case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering
  case cueOut, cueOutCont, cueIn, oatclsSCTE35, scte35

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
    case .cueOut: return "#EXT-X-CUE-OUT"
    case .cueOutCont: return "#EXT-X-CUE-OUT-CONT"
    case .cueIn: return "#EXT-X-CUE-IN"
    case .oatclsSCTE35: return "#EXT-OATCLS-SCTE35"
    case .scte35: return "#EXT-X-SCTE35"
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

  /// The tag whose name `span` holds, or nil for an unknown tag.
  ///
  /// The length and one byte (byte 7, after `#EXT-X-`, or byte 4 for the names of 7
  /// bytes) tell every known tag apart; the whole name is then compared once.
  static func lookup(_ span: ByteSpan, in text: ByteText) -> TagName? {
    guard span.count >= 7 else { return nil }
    let key = text.bytes[span.start + (span.count > 7 ? 7 : 4)]
    let candidate: TagName?
    switch span.count {
    case 7: candidate = key == ascii("I") ? .extinf : key == ascii("M") ? .extm3u : nil
    case 10:
      candidate =
        key == ascii("K") ? .key : key == ascii("M") ? .map : key == ascii("G") ? .gap : nil
    case 11: candidate = key == ascii("P") ? .part : key == ascii("S") ? .skip : nil
    case 12: candidate = key == ascii("S") ? .start : key == ascii("M") ? .media : nil
    case 13:
      candidate =
        key == ascii("D")
        ? .define : key == ascii("C") ? .cueIn : key == ascii("S") ? .scte35 : nil
    case 14:
      switch key {
      case ascii("V"): candidate = .version
      case ascii("E"): candidate = .endList
      case ascii("B"): candidate = .bitrate
      case ascii("C"): candidate = .cueOut
      default: candidate = nil
      }
    case 15: candidate = .partInf
    case 16: candidate = key == ascii("B") ? .byteRange : key == ascii("D") ? .dateRange : nil
    case 17: candidate = .streamInf
    case 18: candidate = key == ascii("S") ? .sessionKey : key == ascii("T") ? .oatclsSCTE35 : nil
    case 19:
      switch key {
      case ascii("P"): candidate = .preloadHint
      case ascii("S"): candidate = .sessionData
      case ascii("C"): candidate = .cueOutCont
      default: candidate = nil
      }
    case 20:
      candidate =
        key == ascii("P")
        ? .playlistType
        : key == ascii("I") ? .iFramesOnly : key == ascii("D") ? .discontinuity : nil
    case 21:
      candidate =
        key == ascii("T")
        ? .targetDuration
        : key == ascii("M") ? .mediaSequence : key == ascii("S") ? .serverControl : nil
    case 23:
      candidate = key == ascii("R") ? .renditionReport : key == ascii("C") ? .contentSteering : nil
    case 24: candidate = .programDateTime
    case 25: candidate = .iFrameStreamInf
    case 27: candidate = .independentSegments
    case 29: candidate = .discontinuitySequence
    default: candidate = nil
    }
    guard let candidate, text.equals(span, candidate.text) else { return nil }
    return candidate
  }

  private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
}
