import Foundation
import Playhead

/// `--header`, `--referer`, `--user-agent`, `--timeout` and `--retries`: how `play` and
/// `probe` make their HTTP requests, for HLS playlists, segments and keys as for
/// progressive media.
struct RequestOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = [
    "--header", "--referer", "--user-agent", "--timeout", "--retries",
  ]

  /// Extra header fields in the order given; a later one with the same name (compared
  /// without case) replaces an earlier one.
  var headers: [(name: String, value: String)] = []
  var referer: String?
  var userAgent: String?
  /// `--timeout MS`.
  var timeoutMs: Int?
  /// `--retries N` (0 = never retry).
  var retryCount: Int?

  static func == (lhs: RequestOptions, rhs: RequestOptions) -> Bool {
    lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
      && lhs.referer == rhs.referer && lhs.userAgent == rhs.userAgent
      && lhs.timeoutMs == rhs.timeoutMs && lhs.retryCount == rhs.retryCount
  }

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--header":
      let header = try ArgumentValue.header(text, option: name)
      headers.removeAll { $0.name.lowercased() == header.0.lowercased() }
      headers.append(header)
    case "--referer":
      referer = try ArgumentValue.singleLine(text, option: name)
    case "--user-agent":
      userAgent = try ArgumentValue.singleLine(text, option: name)
    case "--timeout":
      timeoutMs = try ArgumentValue.integer(text, option: name, in: 1...3_600_000)
    default:
      retryCount = try ArgumentValue.integer(text, option: name, in: 0...100)
    }
  }

  /// The headers as a dictionary.
  var headerFields: [String: String] {
    Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, later in later })
  }

  /// Applies the options to a player's (or a download's) request settings.
  func apply(to request: inout RequestConfiguration) {
    request.headers.merge(headerFields) { _, given in given }
    if let referer { request.referer = referer }
    if let userAgent { request.userAgent = userAgent }
    if let timeoutMs { request.timeoutMs = timeoutMs }
    if let retryCount { request.retryCount = retryCount }
  }

  /// The request settings these options give.
  var request: RequestConfiguration {
    var request = RequestConfiguration()
    apply(to: &request)
    return request
  }
}
