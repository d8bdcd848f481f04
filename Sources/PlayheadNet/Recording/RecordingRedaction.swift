import Foundation
import PlayheadCore

/// What a session recording leaves out unless secrets are recorded on purpose: credentials
/// in header fields and signatures in URLs.
///
/// Header fields `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` keep
/// their names with the value `[redacted]`. In URLs, the values of query parameters that
/// sign or authorise a request (see `secretQueryNames`, matched without regard to case,
/// and every `X-Amz-…` parameter) become `redacted`. A replay redacts the URLs it is asked
/// for the same way before it looks them up, so a recording without secrets still
/// replays. The session's events are kept with every http(s) URL in their strings redacted
/// (an item's URL, an error message naming one). Response bodies are kept as they are (a
/// playlist's own URLs are part of the media).
public enum RecordingRedaction {
  /// Header fields whose values are never recorded (lowercased).
  public static let secretHeaderNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie",
  ]

  /// Query parameters whose values are never recorded (lowercased).
  public static let secretQueryNames: Set<String> = [
    "auth", "auth_key", "authorization", "token", "access_token", "id_token", "sig",
    "signature", "signed", "policy", "key-pair-id", "hdnts", "hdntl", "hmac", "apikey",
    "api_key", "session", "sessionid", "password", "pass", "secret", "credential",
  ]

  /// `headers` with secret values replaced.
  public static func headers(_ headers: [String: String]) -> [String: String] {
    var redacted = headers
    for key in headers.keys where secretHeaderNames.contains(key.lowercased()) {
      redacted[key] = "[redacted]"
    }
    return redacted
  }

  /// `url` with the values of secret query parameters replaced.
  public static func url(_ url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let items = components.percentEncodedQueryItems, !items.isEmpty
    else { return url }
    var changed = false
    components.percentEncodedQueryItems = items.map { item in
      let name = item.name.lowercased()
      guard secretQueryNames.contains(name) || name.hasPrefix("x-amz-"), item.value != nil else {
        return item
      }
      changed = true
      return URLQueryItem(name: item.name, value: "redacted")
    }
    guard changed, let redacted = components.url else { return url }
    return redacted
  }

  /// `text` with every http(s) URL in it redacted as `url(_:)` does. A URL ends at white
  /// space, a quote, an angle bracket or a parenthesis; punctuation that ends a sentence
  /// after it (`.`, `,`, `:`, `;`) is not part of it.
  public static func text(_ text: String) -> String {
    guard text.contains("http") else { return text }
    var output = ""
    var rest = text[...]
    while let found = rest.range(of: #"https?://[^\s"'<>()]+"#, options: .regularExpression) {
      var end = found.upperBound
      while end > found.lowerBound, ".,:;".contains(rest[rest.index(before: end)]) {
        end = rest.index(before: end)
      }
      output += rest[..<found.lowerBound]
      let written = String(rest[found.lowerBound..<end])
      output += URL(string: written).map { url($0).absoluteString } ?? written
      rest = rest[end...]
    }
    return output + rest
  }

  /// `value` with `text(_:)` applied to every string in it (keys stay as they are).
  public static func json(_ value: OrderedJSON) -> OrderedJSON {
    switch value {
    case .string(let string): return .string(text(string))
    case .array(let values): return .array(values.map(json))
    case .object(let fields): return .object(fields.map { .init($0.key, json($0.value)) })
    case .null, .bool, .integer, .number: return value
    }
  }
}
