import Foundation

/// A JSON value of any shape, kept exactly as parsed so that values can write it back.
///
/// Numbers are `Double`, as in JSON itself; integers up to 2^53 survive unchanged. Read
/// untrusted bytes with `JSONReader.read(_:)`, which bounds the nesting and takes time
/// linear in the input. The `Decodable` conformance is for values embedded in other
/// `Codable` types: a general `Decoder` offers no way to ask which kind a value is, so
/// `init(from:)` tries each kind in turn, and its cost grows with the nesting depth.
///
/// ```swift
/// let value = try JSONReader.read(Data(#"{"name": "Intro", "tags": ["a"]}"#.utf8))
/// value.objectValue?["name"]?.stringValue  // "Intro"
/// ```
public enum JSONValue: Sendable, Equatable, Hashable, Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(value)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a JSON value")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The string, or `nil` for any other case.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, or `nil` for any other case.
  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The Boolean, or `nil` for any other case.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, or `nil` for any other case.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, or `nil` for any other case.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is `.null`.
  public var isNull: Bool { self == .null }
}
