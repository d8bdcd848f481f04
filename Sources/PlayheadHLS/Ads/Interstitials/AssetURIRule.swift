import Foundation

/// Resolves the URIs interstitials and asset lists name, with the playlist's origin rule:
/// http, https or the scheme of the document that names them, so that content from the
/// network never reaches a local file.
enum AssetURIRule {
  /// The absolute URL `text` names against `base`, or why it may not be used.
  static func resolve(_ text: String, against base: URL) -> Result<URL, AssetURIProblem> {
    guard !text.isEmpty else { return .failure(.init(message: "the URI is empty")) }
    guard let url = URIResolution.resolve(text, against: base), let scheme = url.scheme
    else {
      return .failure(.init(message: "'\(ParserContext.excerpt(text))' is not a valid URI"))
    }
    let allowed: Set<String> = ["http", "https", base.scheme?.lowercased() ?? "https"]
    guard allowed.contains(scheme.lowercased()) else {
      return .failure(
        .init(
          message: "'\(ParserContext.excerpt(text))' uses scheme '\(scheme.lowercased())', "
            + "which a document from '\(base.scheme ?? "")' may not reference"))
    }
    return .success(url)
  }
}

/// Why a URI was refused.
struct AssetURIProblem: Error {
  var message: String
}
