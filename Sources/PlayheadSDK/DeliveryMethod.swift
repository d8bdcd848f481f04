import Foundation

/// How a source delivers its media: an HLS playlist, a progressive MP4, a DASH manifest or
/// something else.
public enum DeliveryMethod: Sendable, Equatable, Hashable {
  case hls
  case mp4
  case dash
  /// Any other delivery, named by its MIME type (or the URL's extension when there is no type).
  case other(String)

  /// The method a Playback API `type` names, or `nil` for a type this layer does not know.
  ///
  /// Matching ignores case and parameters (`video/mp4; codecs=...`).
  public init?(mimeType: String) {
    let base =
      mimeType.split(separator: ";").first.map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      } ?? ""
    switch base {
    case "application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl",
      "audio/x-mpegurl":
      self = .hls
    case "video/mp4", "audio/mp4", "video/x-m4v":
      self = .mp4
    case "application/dash+xml":
      self = .dash
    default:
      return nil
    }
  }

  /// The method a URL's path extension implies (`m3u8`, `mp4`/`m4v`/`m4a`, `mpd`).
  ///
  /// `nil` when the extension says nothing.
  public init?(pathExtensionOf url: URL) {
    switch url.pathExtension.lowercased() {
    case "m3u8": self = .hls
    case "mp4", "m4v", "m4a": self = .mp4
    case "mpd": self = .dash
    default: return nil
    }
  }

  /// The method for a source: from `type` when it names one, else from the URL's extension,
  /// else `.other` carrying the type (or the extension, or an empty string).
  public static func derived(type: String?, url: URL) -> DeliveryMethod {
    if let type, let method = DeliveryMethod(mimeType: type) { return method }
    if let method = DeliveryMethod(pathExtensionOf: url) { return method }
    return .other(type ?? url.pathExtension.lowercased())
  }

  /// The Playback API MIME type for this method; `nil` for `.other` without a type-like name.
  public var mimeType: String? {
    switch self {
    case .hls: return "application/x-mpegURL"
    case .mp4: return "video/mp4"
    case .dash: return "application/dash+xml"
    case .other(let name): return name.contains("/") ? name : nil
    }
  }
}
