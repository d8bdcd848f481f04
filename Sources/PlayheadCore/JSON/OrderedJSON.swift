import Foundation

/// A JSON value whose object keys keep their order, encoded by hand on one line: what JSON
/// lines (telemetry, session recordings) are written with, so that the same value always
/// gives the same bytes.
///
/// Non-finite numbers encode as `null`, so every line is valid JSON. Strings escape
/// quotes, backslashes and every control character. Reading JSON is `JSONReader`'s.
public enum OrderedJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([OrderedJSON])
  /// An object whose keys are written in this order.
  case object([Field])

  /// One key and value of an object.
  public struct Field: Sendable, Equatable {
    public var key: String
    public var value: OrderedJSON

    public init(_ key: String, _ value: OrderedJSON) {
      self.key = key
      self.value = value
    }
  }

  /// The value as compact JSON text.
  public var encoded: String {
    var output = ""
    encode(into: &output)
    return output
  }

  private func encode(into output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .integer(let value): output += String(value)
    case .number(let value): output += value.isFinite ? "\(value)" : "null"
    case .string(let value): Self.encode(string: value, into: &output)
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.encode(into: &output)
      }
      output += "]"
    case .object(let fields):
      output += "{"
      for (index, field) in fields.enumerated() {
        if index > 0 { output += "," }
        Self.encode(string: field.key, into: &output)
        output += ":"
        field.value.encode(into: &output)
      }
      output += "}"
    }
  }

  private static func encode(string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
