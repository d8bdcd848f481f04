import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The rules every Playhead HTTP request follows for redirects.
///
/// A redirect to `http` or `https` is followed, up to `limit` in a row (FFmpeg's HTTP
/// client stops at 8, browsers at 20; 10 leaves room for CDN hops and catches a loop
/// quickly, before URLSession's own limit of 20). A redirect to any other scheme —
/// `file:` above all — is refused: a resource fetched from the network may never lead the
/// player to a local file (the origin rule, docs/streaming.md). The scheme is read from
/// the `Location` header as the server sent it, because URLSession on Linux turns
/// `Location: file:///etc/passwd` into a request for `/etc/passwd` on the same server.
enum HTTPRedirects {
  /// The most redirects one request follows.
  static let limit = 10

  /// The error that refuses the redirect `response` answered `original` with (the
  /// `count`th of the request, leading to `target`), or nil to follow it.
  static func refusal(
    from original: URL, response: HTTPURLResponse, to target: URL?, count: Int
  ) -> PlayheadError? {
    let status = response.statusCode
    let location = HTTPResponseParsing.header("Location", in: response)?
      .trimmingCharacters(in: .whitespaces)
    let written = location.flatMap { URL(string: $0) }
    let scheme = (written?.scheme ?? target?.scheme ?? "").lowercased()
    guard let target, scheme.isEmpty || scheme == "http" || scheme == "https" else {
      let shown = location ?? target?.absoluteString ?? "nowhere"
      let what = scheme == "file" ? "a local file" : "a '\(scheme)' URL"
      let rule = scheme == "file" ? "local files" : "anything but http(s)"
      return PlayheadError(
        .redirectRefused,
        "refused the HTTP \(status) redirect from \(original.absoluteString) to \(what) "
          + "(\(shown)): a network resource may not lead to \(rule)",
        url: original)
    }
    let targetScheme = target.scheme?.lowercased() ?? ""
    guard targetScheme == "http" || targetScheme == "https" else {
      return PlayheadError(
        .redirectRefused,
        "refused the HTTP \(status) redirect from \(original.absoluteString) to "
          + "\(target.absoluteString): a network resource may not lead to anything but http(s)",
        url: original)
    }
    guard count <= limit else { return tooMany(original) }
    return nil
  }

  /// The error for a request that was redirected more than `limit` times.
  static func tooMany(_ original: URL) -> PlayheadError {
    PlayheadError(
      .tooManyRedirects,
      "too many redirects (more than \(limit)) for \(original.absoluteString): a redirect loop?",
      url: original)
  }
}
