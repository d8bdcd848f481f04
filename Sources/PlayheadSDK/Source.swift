import Foundation

/// One way to fetch a video: a URL, its delivery method and the catalog's other fields.
///
/// An immutable value compared by value; `update` returns a changed copy. `properties` holds
/// every catalog field except `src` (for example `type`, `codec`, `width`, `avg_bitrate`).
public struct Source: Sendable, Equatable, Hashable {
  /// The fields of a source while `update` changes them.
  public struct Mutable: Sendable {
    public var url: URL
    public var deliveryMethod: DeliveryMethod
    public var properties: [String: JSONValue]
  }

  /// Where the media is.
  public let url: URL
  /// How the media is delivered.
  public let deliveryMethod: DeliveryMethod
  /// The catalog's other fields, kept so they can be written back.
  public let properties: [String: JSONValue]

  /// Creates a source; the delivery method defaults to the one the `type` property or the URL's
  /// extension implies.
  public init(
    url: URL, deliveryMethod: DeliveryMethod? = nil, properties: [String: JSONValue] = [:]
  ) {
    self.url = url
    self.deliveryMethod =
      deliveryMethod ?? DeliveryMethod.derived(type: properties["type"]?.stringValue, url: url)
    self.properties = properties
  }

  /// A copy changed by `body`; this value stays as it is.
  public func update<E: Error>(_ body: (inout Mutable) throws(E) -> Void) throws(E) -> Source {
    var mutable = Mutable(url: url, deliveryMethod: deliveryMethod, properties: properties)
    try body(&mutable)
    return Source(
      url: mutable.url, deliveryMethod: mutable.deliveryMethod, properties: mutable.properties)
  }

  /// The URL scheme in lower case (`https`, `http`, `file`), or an empty string.
  public var scheme: String { url.scheme?.lowercased() ?? "" }

  /// The catalog's MIME type (`type`), when present.
  public var mimeType: String? { properties["type"]?.stringValue }
}
