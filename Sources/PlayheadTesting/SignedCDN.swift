import Foundation

/// Makes an `HTTPTestServer` behave like a CDN with URL signing (type A): every request
/// must carry a valid `auth_key` whose expiry is not older than `graceSeconds` on the
/// test's wall time, or it is refused with `rejectionStatus` (403 by default); and, with
/// `signsPlaylists`, the URIs in the HLS playlists it serves are signed as the origin
/// writes them (valid for `playlistValiditySeconds` from the time of the request).
///
/// Signing and verifying are passed in (the test target has `CDNTypeASigner`), so that
/// this helper depends on nothing under test. The wall time comes from `nowSeconds`,
/// which tests drive from a `ManualClock`.
public final class SignedCDN: @unchecked Sendable {
  // Unchecked Sendable: `refusals` is guarded by `lock`; the rest is immutable.

  /// One refused request.
  public struct Refusal: Sendable, Equatable {
    public var path: String
    public var query: String?
    public var status: Int
    /// The wall time of the refusal.
    public var nowSeconds: Int64
  }

  public let rejectionStatus: Int
  public let graceSeconds: Int64
  private let verifies: @Sendable (URL) -> Bool
  private let sign: @Sendable (URL, Int64) -> URL
  private let nowSeconds: @Sendable () -> Int64
  private let playlistValiditySeconds: Int64
  private let openPaths: Set<String>
  private let lock = NSLock()
  private var refused: [Refusal] = []

  /// Installs the gate (and, with `signsPlaylists`, the playlist rewriter) on `server`.
  ///
  /// Requests for `openPaths` need no signature (a catalog API beside the media).
  public init(
    server: HTTPTestServer, verifies: @escaping @Sendable (URL) -> Bool,
    sign: @escaping @Sendable (URL, Int64) -> URL, nowSeconds: @escaping @Sendable () -> Int64,
    graceSeconds: Int64 = 0, rejectionStatus: Int = 403, signsPlaylists: Bool = false,
    playlistValiditySeconds: Int64 = 10, openPaths: Set<String> = []
  ) {
    self.verifies = verifies
    self.sign = sign
    self.nowSeconds = nowSeconds
    self.graceSeconds = graceSeconds
    self.rejectionStatus = rejectionStatus
    self.playlistValiditySeconds = playlistValiditySeconds
    self.openPaths = openPaths
    let base = server.baseURL
    server.setRequestGate { [self] request in self.check(request, base: base) }
    if signsPlaylists {
      server.setBodyRewriter { [self] request, body in
        guard request.path.hasSuffix(".m3u8") else { return body }
        return self.signURIs(in: body, playlistPath: request.path, base: base)
      }
    }
  }

  /// The requests refused so far, in order.
  public var refusals: [Refusal] {
    lock.lock()
    defer { lock.unlock() }
    return refused
  }

  /// The expiry an `auth_key` value states (its first dash-separated field).
  public static func expiry(ofAuthKey value: String) -> Int64? {
    value.split(separator: "-", maxSplits: 1).first.flatMap { Int64($0) }
  }

  private func check(_ request: HTTPTestServer.LoggedRequest, base: URL) -> Int? {
    if openPaths.contains(request.path) { return nil }
    let now = nowSeconds()
    let target = request.query.map { "\(request.path)?\($0)" } ?? request.path
    guard let url = URL(string: target, relativeTo: base)?.absoluteURL,
      let authKey = request.queryItems["auth_key"], let expiry = Self.expiry(ofAuthKey: authKey),
      verifies(url), now <= expiry + graceSeconds
    else {
      lock.lock()
      refused.append(
        Refusal(path: request.path, query: request.query, status: rejectionStatus, nowSeconds: now))
      lock.unlock()
      return rejectionStatus
    }
    return nil
  }

  /// The playlist with every URI line and `URI="…"` attribute resolved and signed.
  private func signURIs(in body: Data, playlistPath: String, base: URL) -> Data {
    guard let playlistURL = URL(string: playlistPath, relativeTo: base) else { return body }
    let sign = self.sign
    return Self.signingURIs(
      in: body, playlistURL: playlistURL, expiry: nowSeconds() + playlistValiditySeconds
    ) { sign($0, $1) }
  }

  /// `body` (a playlist read as UTF-8) with every URI line and `URI="…"` attribute
  /// resolved against `playlistURL` and replaced by `sign(url, expiry)`; a URI that does
  /// not resolve or sign (nil) stays as it is, and a body that is not UTF-8 is returned
  /// unchanged.
  public static func signingURIs(
    in body: Data, playlistURL: URL, expiry: Int64, sign: (URL, Int64) -> URL?
  ) -> Data {
    guard let text = String(data: body, encoding: .utf8) else { return body }
    func signed(_ uri: String) -> String {
      guard let resolved = URL(string: uri, relativeTo: playlistURL)?.absoluteURL,
        let signed = sign(resolved, expiry)
      else { return uri }
      return signed.absoluteString
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { return String(line) }
      if !trimmed.hasPrefix("#") { return signed(trimmed) }
      guard let start = trimmed.range(of: "URI=\""),
        let end = trimmed[start.upperBound...].firstIndex(of: "\"")
      else { return String(line) }
      let uri = String(trimmed[start.upperBound..<end])
      return trimmed.replacingCharacters(in: start.upperBound..<end, with: signed(uri))
    }
    return Data(lines.joined(separator: "\n").utf8)
  }
}
