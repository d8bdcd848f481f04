import Foundation

/// CDN URL signing "type A" (seed 003): appends
/// `auth_key = exp-rand-uid-md5hex("path-exp-rand-uid-key")` to the query, with `?` or `&`.
///
/// `path` is the URL's path as written (percent-encoded, `/` when empty); `exp` is the
/// expiry in whole seconds since 1970; `rand` and `uid` default to "0" as in the seed. An
/// existing `auth_key` parameter is removed before signing, so a URL can be re-signed when
/// it expires. Only http and https URLs are signed.
public struct CDNTypeASigner: URLSigner {
  /// The secret shared with the CDN.
  public let key: String
  /// The random part (the seed uses "0").
  public let rand: String
  /// The user part (the seed uses "0").
  public let uid: String

  /// A signer with the CDN's `key`; an empty key is allowed by the type but refused by
  /// `sign` (the seed's "key fail").
  public init(key: String, rand: String = "0", uid: String = "0") {
    self.key = key
    self.rand = rand
    self.uid = uid
  }

  public func sign(_ url: URL, expiry: Int64) throws(URLSigningError) -> URL {
    guard !key.isEmpty else {
      throw URLSigningError("cannot sign \(url): the signing key is empty")
    }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else {
      throw URLSigningError("cannot sign \(url): only http and https URLs are signed")
    }
    let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    let hash = MD5.hex("\(path)-\(expiry)-\(rand)-\(uid)-\(key)")
    let authKey = "\(expiry)-\(rand)-\(uid)-\(hash)"
    let kept = Self.queryWithoutAuthKey(components.percentEncodedQuery)
    components.percentEncodedPath = path
    components.percentEncodedQuery =
      kept.map { $0 + "&auth_key=" + authKey } ?? "auth_key=" + authKey
    guard let signed = components.url else {
      throw URLSigningError("cannot sign \(url): the signed URL does not parse")
    }
    return signed
  }

  public func expiry(of url: URL) -> Int64? {
    guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    else { return nil }
    for item in query.split(separator: "&") where item.hasPrefix("auth_key=") {
      let value = item.dropFirst("auth_key=".count)
      return value.split(separator: "-", maxSplits: 1).first.flatMap { Int64($0) }
    }
    return nil
  }

  /// Whether `url` carries a valid type-A signature for this key (expiry not checked).
  public func verifies(_ url: URL) -> Bool {
    guard let expiry = expiry(of: url),
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let resigned = try? sign(url, expiry: expiry)
    else { return false }
    return components.percentEncodedQuery
      == URLComponents(url: resigned, resolvingAgainstBaseURL: false)?.percentEncodedQuery
  }

  /// The query without `auth_key` parameters; nil when nothing is left.
  private static func queryWithoutAuthKey(_ query: String?) -> String? {
    guard let query, !query.isEmpty else { return nil }
    let kept = query.split(separator: "&", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("auth_key=") }
    return kept.isEmpty ? nil : kept.joined(separator: "&")
  }
}
