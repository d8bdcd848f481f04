import Foundation

/// Builds Playback API URLs: `{base}/accounts/{account}/{videos|playlists}/{id}?{query}`.
///
/// Path segments and query values are percent-encoded except for the characters RFC 3986
/// leaves unreserved (`A–Z a–z 0–9 - . _ ~`); query names are sorted so that the same
/// request always gives the same URL.
enum PlaybackServiceURL {
  /// The two kinds of asset the API serves.
  enum Collection: String {
    case videos, playlists
  }

  private static let unreserved: CharacterSet = {
    var set = CharacterSet()
    set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return set
  }()

  /// `text` with every byte outside the unreserved set percent-encoded.
  static func encode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  /// The URL, or nil when the parts do not make one.
  static func make(
    base: URL, account: String, collection: Collection, identifier: String,
    query: [String: String]
  ) -> URL? {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    text += "/accounts/\(encode(account))/\(collection.rawValue)/\(identifier)"
    if !query.isEmpty {
      let pairs = query.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }
      text += "?" + pairs.joined(separator: "&")
    }
    return URL(string: text)
  }
}
