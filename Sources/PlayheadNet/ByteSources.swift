import Foundation
import PlayheadCore

/// Opens the right byte source for a URL: local files, HTTP and HTTPS.
public enum ByteSources {
  /// Opens `url` as a byte source.
  ///
  /// `file:` URLs give a `FileByteSource`; `http:` and `https:` URLs give an
  /// `HTTPByteSource` whose response headers are fetched at once, so that a missing
  /// resource (`.httpStatus`), a timeout or a refused connection fails here. With a
  /// positive `http.retryCount` the HTTP source is wrapped in a `RetryingByteSource` that
  /// retries the open and each read after the configured delays, waited on `clock` (the
  /// player's). Any other scheme throws `.unsupportedScheme`, e.g. "unsupported URL scheme
  /// 'ftp' in ftp://host/a". Turn a command-line argument into a URL with
  /// `url(fromArgument:)` first.
  public static func open(
    _ url: URL, http: HTTPRequestConfiguration = .init(), clock: any Clock = HostClock.shared
  ) throws(PlayheadError) -> any ByteSource {
    switch url.scheme?.lowercased() {
    case "file":
      return try FileByteSource(url: url)
    case "http", "https":
      return try retrying(url, http: http, clock: clock) { () throws(PlayheadError) in
        let source = try HTTPByteSource(url: url, configuration: http)
        try source.prefetchHeaders()
        return source
      }
    case let scheme?:
      throw PlayheadError(
        .unsupportedScheme, "unsupported URL scheme '\(scheme)' in \(url.absoluteString)",
        url: url)
    case nil:
      throw PlayheadError(
        .unsupportedScheme, "URL has no scheme: \(url.absoluteString)", url: url)
    }
  }

  /// `open()` as it is, or wrapped in a `RetryingByteSource` when `http` asks for retries.
  static func retrying(
    _ url: URL, http: HTTPRequestConfiguration, clock: any Clock,
    _ open: @escaping @Sendable () throws(PlayheadError) -> any ByteSource
  ) throws(PlayheadError) -> any ByteSource {
    guard http.retryCount > 0 else { return try open() }
    return try RetryingByteSource(
      url: url, configuration: http.retrySettings, clock: clock, open: open)
  }

  /// Turns a command-line argument into a URL.
  ///
  /// An argument that starts with a scheme followed by `://` (`http://…`, `file:///…`,
  /// `ftp://…`) is parsed as a URL; anything else is a local path, absolute or relative to
  /// the current directory, with a leading `~` expanded. A URL that does not parse as
  /// written is parsed again with its unsafe characters percent-encoded.
  public static func url(fromArgument argument: String) -> URL {
    if hasScheme(argument) {
      if let url = URL(string: argument) { return url }
      let allowed = CharacterSet.urlFragmentAllowed.union(CharacterSet(charactersIn: "#"))
      if let encoded = argument.addingPercentEncoding(withAllowedCharacters: allowed),
        let url = URL(string: encoded)
      {
        return url
      }
    }
    let expanded = NSString(string: argument).expandingTildeInPath
    return URL(fileURLWithPath: expanded).standardizedFileURL
  }

  /// True when `text` starts with `scheme://`, the scheme being a letter followed by
  /// letters, digits, `+`, `-` or `.`.
  private static func hasScheme(_ text: String) -> Bool {
    guard let separator = text.range(of: "://") else { return false }
    let scheme = text[text.startIndex..<separator.lowerBound]
    let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    guard let first = scheme.first, letters.contains(first) else { return false }
    let allowed = letters + "0123456789+-."
    return scheme.allSatisfy { allowed.contains($0) }
  }
}
