import Foundation

extension Source {
  /// Creates a source from a Playback API source object (`{"src": ..., "type": ..., ...}`).
  ///
  /// Every field but `src` lands in `properties`. Throws `.missingField` without `src` and
  /// `.invalidValue` when it is not a string holding an absolute URL; `path` names the object
  /// in error messages.
  public init(json: JSONValue, path: String = "source") throws(PlayheadSDKError) {
    guard var object = json.objectValue else { throw .invalid(path, "an object") }
    guard let srcValue = object.removeValue(forKey: "src") else {
      throw .missing("\(path).src")
    }
    guard let src = srcValue.stringValue else { throw .invalid("\(path).src", "a string") }
    guard let url = URL(string: src), url.scheme != nil else {
      throw .invalid("\(path).src", "an absolute URL")
    }
    if let type = object["type"], !type.isNull, type.stringValue == nil {
      throw .invalid("\(path).type", "a string")
    }
    self.init(url: url, properties: object)
  }

  /// The source as a Playback API source object.
  ///
  /// Writes `properties` back unchanged plus `src`; adds `type` only when `properties` has none
  /// and the delivery method is not what the URL's extension already implies.
  public var json: JSONValue {
    var object = properties
    object["src"] = .string(url.absoluteString)
    if object["type"] == nil, deliveryMethod != DeliveryMethod.derived(type: nil, url: url),
      let mime = deliveryMethod.mimeType
    {
      object["type"] = .string(mime)
    }
    return .object(object)
  }
}
