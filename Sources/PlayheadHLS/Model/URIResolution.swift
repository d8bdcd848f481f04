import Foundation

/// Resolves the URIs written in a playlist against the playlist's URL.
///
/// Models store the URI as written (`uriString`) and the URL it is relative to
/// (`baseURL`); the resolved `uri` is computed on demand, because building a Foundation
/// URL for every segment would dominate the parsing time of large playlists.
enum URIResolution {
  /// The absolute URL `text` names when read relative to `base`, or nil when `text` is not
  /// a URI reference.
  ///
  /// Characters that are not allowed in URLs (spaces, non-ASCII) are percent-encoded.
  static func resolve(_ text: String, against base: URL) -> URL? {
    guard !text.isEmpty else { return nil }
    return URL(string: text, relativeTo: base)?.absoluteURL
  }

  /// `url` as the pair the models store: its absolute string, relative to itself.
  static func parts(of url: URL) -> (text: String, base: URL) {
    (url.absoluteString, url.absoluteURL)
  }
}
