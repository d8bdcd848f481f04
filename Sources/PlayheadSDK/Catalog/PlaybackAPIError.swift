import Foundation

/// One entry of the Playback API's error list (`[{"error_code": ..., "message": ...}]`).
public struct PlaybackAPIError: Sendable, Equatable, Hashable {
  /// The error code (`error_code`), such as `VIDEO_NOT_FOUND` or `INVALID_POLICY_KEY`; an
  /// empty string when the entry has none.
  public var errorCode: String
  /// The human-readable message (`message`).
  public var message: String?
  /// The finer reason (`error_subcode`), such as `CLIENT_GEO`.
  public var errorSubcode: String?
  /// Every field of the entry as the API sent it.
  public var properties: [String: JSONValue]

  /// Creates an entry; `properties` defaults to none.
  public init(
    errorCode: String, message: String? = nil, errorSubcode: String? = nil,
    properties: [String: JSONValue] = [:]
  ) {
    self.errorCode = errorCode
    self.message = message
    self.errorSubcode = errorSubcode
    self.properties = properties
  }

  /// The entries of an error body: a JSON array of error objects, or a single error object.
  ///
  /// Anything else (not JSON, HTML from a proxy, an empty body, entries without
  /// `error_code`) gives an empty list; the caller keeps the raw body. Never throws.
  public static func list(from body: Data) -> [PlaybackAPIError] {
    guard let json = try? JSONValue(data: body) else { return [] }
    let items: [JSONValue]
    switch json {
    case .array(let array): items = array
    case .object: items = [json]
    default: return []
    }
    return items.compactMap { item in
      guard let object = item.objectValue, let code = object["error_code"]?.stringValue else {
        return nil
      }
      return PlaybackAPIError(
        errorCode: code, message: object["message"]?.stringValue,
        errorSubcode: object["error_subcode"]?.stringValue, properties: object)
    }
  }

  /// `CODE: message` (or only the code).
  public var summary: String {
    var text = errorCode.isEmpty ? "(no error code)" : errorCode
    if let errorSubcode, !errorSubcode.isEmpty { text += " (\(errorSubcode))" }
    if let message, !message.isEmpty { text += ": \(message)" }
    return text
  }
}
