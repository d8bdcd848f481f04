import Foundation
import PlayheadCore

/// A `UTCTiming` element read by its scheme: how a live player learns the server's clock,
/// which dynamic MPDs are timed against (ISO/IEC 23009-1 5.8.4.11, 5.8.5.7; DASH-IF IOP 4.7).
///
/// The HTTP schemes name one or more URLs (alternatives, white-space separated in
/// `@value`); the player requests one and turns the answer into a time with
/// `serverTime(body:dateHeader:)`. `:2012` schemes are read as their `:2014` forms. NTP,
/// SNTP and HTTP-NTP are `.unsupported`, as is any scheme not listed, or a value that is
/// not what its scheme needs.
public enum MPDUTCTiming: Sendable, Hashable {
  /// `urn:mpeg:dash:utc:http-xsdate:2014`: GET; the body is an `xs:dateTime`.
  case httpXSDate([URL])
  /// `urn:mpeg:dash:utc:http-iso:2014`: GET; the body is an ISO 8601 date-time.
  case httpISO([URL])
  /// `urn:mpeg:dash:utc:http-head:2014`: HEAD; the response's `Date` header is the time.
  case httpHead([URL])
  /// `urn:mpeg:dash:utc:direct:2014`: the time itself, as the MPD was written; compare it
  /// with the wall clock when the MPD arrived.
  case direct(Date)
  /// A scheme Playhead does not use, or a value its scheme cannot use; `reason` says which.
  case unsupported(MPDDescriptor, reason: String)

  /// Reads `descriptor`, resolving relative URLs against `base` (the MPD's URL). When the
  /// MPD came from the network (`isRemote`), a URL naming a local file makes it
  /// `.unsupported`.
  public init(_ descriptor: MPDDescriptor, base: URL, isRemote: Bool) {
    let scheme = descriptor.schemeIDURI.trimmingCharacters(in: .whitespaces)
    let prefix = "urn:mpeg:dash:utc:"
    guard scheme.hasPrefix(prefix), scheme.hasSuffix(":2014") || scheme.hasSuffix(":2012")
    else {
      self = .unsupported(descriptor, reason: "unknown scheme '\(scheme)'")
      return
    }
    let method = scheme.dropFirst(prefix.count).dropLast(5)
    let value = descriptor.value ?? ""
    func urls() -> [URL]? {
      var result: [URL] = []
      for part in value.split(whereSeparator: \.isWhitespace) {
        guard let url = URL(string: String(part), relativeTo: base)?.absoluteURL,
          let urlScheme = url.scheme?.lowercased()
        else { return nil }
        if isRemote && urlScheme != "http" && urlScheme != "https" { return nil }
        result.append(url)
      }
      return result.isEmpty ? nil : result
    }
    switch method {
    case "http-xsdate", "http-iso", "http-head":
      guard let list = urls() else {
        self = .unsupported(
          descriptor, reason: "'\(value)' is not a list of URLs this MPD may name")
        return
      }
      self =
        method == "http-xsdate"
        ? .httpXSDate(list) : method == "http-iso" ? .httpISO(list) : .httpHead(list)
    case "direct":
      guard let date = XSDateTime.parse(value) else {
        self = .unsupported(descriptor, reason: "'\(value)' is not an xs:dateTime")
        return
      }
      self = .direct(date)
    case "ntp", "sntp", "http-ntp":
      self = .unsupported(descriptor, reason: "\(method) is not supported")
    default:
      self = .unsupported(descriptor, reason: "unknown scheme '\(scheme)'")
    }
  }

  /// The URLs to request, in order of preference (none for `.direct` and `.unsupported`).
  public var urls: [URL] {
    switch self {
    case .httpXSDate(let list), .httpISO(let list), .httpHead(let list): return list
    case .direct, .unsupported: return []
    }
  }

  /// The HTTP method of the request: `GET`, `HEAD`, or nil when there is none to make.
  public var httpMethod: String? {
    switch self {
    case .httpXSDate, .httpISO: return "GET"
    case .httpHead: return "HEAD"
    case .direct, .unsupported: return nil
    }
  }

  /// Whether Playhead can use it.
  public var isSupported: Bool {
    if case .unsupported = self { return false }
    return true
  }
}

extension MPD {
  /// The `UTCTiming` elements read by scheme, in document order (the MPD's preference).
  public var utcTimingSources: [MPDUTCTiming] {
    let isRemote = url.scheme?.lowercased() != "file"
    return utcTimings.map { MPDUTCTiming($0, base: url, isRemote: isRemote) }
  }
}
