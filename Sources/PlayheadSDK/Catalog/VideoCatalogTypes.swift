import Foundation

/// Whether ads may be requested for a video (the Playback API's `economics`).
public enum VideoEconomics: String, Sendable, Equatable, Hashable, CaseIterable {
  /// `AD_SUPPORTED`, the API's default.
  case adSupported = "AD_SUPPORTED"
  /// `FREE`: no ad requests.
  case free = "FREE"
}

/// A related link of a video (the Playback API's `link` object).
public struct VideoLink: Sendable, Equatable, Hashable {
  /// The link's text (`text`).
  public var text: String?
  /// Where it points (`url`); nil when absent or not a URL.
  public var url: URL?

  /// Creates a link.
  public init(text: String?, url: URL?) {
    self.text = text
    self.url = url
  }

  /// Reads a `link` object; nil for anything that is not an object.
  init?(json: JSONValue?) {
    guard let object = json?.objectValue else { return nil }
    text = object["text"]?.stringValue
    url = object["url"]?.stringValue.flatMap { $0.isEmpty ? nil : URL(string: $0) }
  }

  /// The link as a `link` object.
  var json: JSONValue {
    var object: [String: JSONValue] = [:]
    object["text"] = text.map { .string($0) } ?? .null
    object["url"] = url.map { .string($0.absoluteString) } ?? .null
    return .object(object)
  }
}

/// How a DRM-protected source is licensed for one key system (an entry of a source's
/// `key_systems`, keyed by the key system's name such as `com.widevine.alpha`).
public struct KeySystem: Sendable, Equatable, Hashable {
  /// The license server (`license_url`, Widevine and PlayReady).
  public var licenseURL: URL?
  /// The key server (`key_request_url`, FairPlay).
  public var keyRequestURL: URL?
  /// The application certificate (`certificate_url`, FairPlay).
  public var certificateURL: URL?
  /// Every field of the entry as the API sent it.
  public var properties: [String: JSONValue]

  /// Reads one `key_systems` entry; a value that is not an object gives an entry with no
  /// URLs.
  public init(json: JSONValue) {
    let object = json.objectValue ?? [:]
    func url(_ key: String) -> URL? {
      object[key]?.stringValue.flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }
    licenseURL = url("license_url")
    keyRequestURL = url("key_request_url")
    certificateURL = url("certificate_url")
    properties = object
  }
}
