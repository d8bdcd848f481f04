import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The parts of a `Content-Range` header: `bytes first-last/total` or `bytes */total`.
struct ContentRange: Equatable {
  /// The first byte's offset; nil for the unsatisfied form `bytes */total`.
  var first: Int64?
  /// The last byte's offset (inclusive); nil for the unsatisfied form.
  var last: Int64?
  /// The resource's total length; nil when the server wrote `*`.
  var total: Int64?

  /// Parses a `Content-Range` value; returns nil for anything malformed.
  init?(_ value: String) {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes") else { return nil }
    let spec = trimmed.dropFirst(5).trimmingCharacters(in: .whitespaces)
    let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
    guard halves.count == 2 else { return nil }
    let totalText = halves[1].trimmingCharacters(in: .whitespaces)
    if totalText == "*" {
      total = nil
    } else {
      guard let value = Int64(totalText), value >= 0 else { return nil }
      total = value
    }
    let rangeText = halves[0].trimmingCharacters(in: .whitespaces)
    if rangeText == "*" {
      guard total != nil else { return nil }
      first = nil
      last = nil
      return
    }
    let bounds = rangeText.split(separator: "-", omittingEmptySubsequences: false)
    guard bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]),
      low >= 0, high >= low
    else { return nil }
    if let total, high >= total { return nil }
    first = low
    last = high
  }
}

enum HTTPResponseParsing {
  /// A header's value, looked up without regard to case.
  static func header(_ name: String, in response: HTTPURLResponse) -> String? {
    let wanted = name.lowercased()
    for (key, value) in response.allHeaderFields {
      if let key = key as? String, key.lowercased() == wanted {
        return value as? String
      }
    }
    return nil
  }

  /// The error for a response with a failing status, e.g. "HTTP 404 Not Found for <url>".
  static func statusError(_ status: Int, url: URL) -> PlayheadError {
    let phrase = HTTPStatusText.reasonPhrase(status).map { " \($0)" } ?? ""
    return PlayheadError(
      .httpStatus, "HTTP \(status)\(phrase) for \(url.absoluteString)", url: url,
      httpStatusCode: status)
  }

  /// Maps a URLSession failure to a Playhead error (see `PlayheadError.transport`).
  static func transportError(_ error: any Error, url: URL) -> PlayheadError {
    PlayheadError.transport(error, url: url)
  }
}
