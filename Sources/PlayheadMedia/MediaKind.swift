import CFFmpeg

/// What a stream carries.
public enum MediaKind: String, Sendable {
  case video
  case audio
  case subtitle
  /// Anything else: data, attachments, unknown stream types.
  case data

  init(_ type: AVMediaType) {
    switch type {
    case AVMEDIA_TYPE_VIDEO: self = .video
    case AVMEDIA_TYPE_AUDIO: self = .audio
    case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
    default: self = .data
    }
  }

  var avMediaType: AVMediaType {
    switch self {
    case .video: return AVMEDIA_TYPE_VIDEO
    case .audio: return AVMEDIA_TYPE_AUDIO
    case .subtitle: return AVMEDIA_TYPE_SUBTITLE
    case .data: return AVMEDIA_TYPE_DATA
    }
  }
}
