import Foundation

extension JSONReader {
  /// Decodes a `Decodable` value from JSON text, after `read(_:limits:)` has accepted it.
  ///
  /// The reader checks the bytes first (nesting, UTF-8, duplicate keys, limits) in one
  /// linear pass; only text it accepts reaches Foundation's `JSONDecoder`, which maps it to
  /// `T` (with its own handling of `URL` and `Data`, so what `JSONEncoder` wrote decodes
  /// unchanged). Throws `.malformedJSON` with the reader's message, or with one naming the
  /// field whose shape is wrong: `missing field files[2].length`, `field kind is not a
  /// string`.
  public static func decode<T: Decodable>(
    _ type: T.Type, from data: Data, limits: Limits = .standard
  ) throws(PlayheadError) -> T {
    _ = try read(data, limits: limits)
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch let error as DecodingError {
      throw PlayheadError(.malformedJSON, describe(error))
    } catch {
      throw PlayheadError(.malformedJSON, "the JSON does not decode as \(T.self)")
    }
  }

  /// One line for a decoding error: the field's path and what is wrong with it.
  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field \(path(context.codingPath + [key]))"
    case .valueNotFound(let type, let context):
      return "\(field(context.codingPath)) is null, not \(kind(type))"
    case .typeMismatch(let type, let context):
      return "\(field(context.codingPath)) is not \(kind(type))"
    case .dataCorrupted(let context):
      let reason = context.debugDescription.split(whereSeparator: \.isNewline).first ?? ""
      return "\(field(context.codingPath)) has an invalid value"
        + (reason.isEmpty ? "" : " (\(reason.prefix(160)))")
    @unknown default:
      return "the JSON does not have the expected shape"
    }
  }

  /// `field a.b[2]`, or `the top-level value` for the root.
  private static func field(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty ? "the top-level value" : "field \(path(codingPath))"
  }

  /// `files[2].length`: keys joined with dots, array positions in brackets.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let position = key.intValue, key.stringValue.hasPrefix("Index ") {
        text += "[\(position)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  /// What a value of `type` looks like in JSON.
  private static func kind(_ type: Any.Type) -> String {
    switch type {
    case is String.Type, is URL.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Double.Type, is Float.Type: return "a number"
    case is any FixedWidthInteger.Type: return "a whole number"
    case is [Any].Type: return "an array"
    case is [String: Any].Type: return "an object"
    default: return "a \(type)"
    }
  }
}
