import Foundation
import PlayheadCore

/// One analytics event as ordered fields, written as a JSON object or as plain text.
public struct AnalyticsEventLine: Sendable, Equatable {
  /// The fields in order; the first is always `event`.
  public let fields: [(key: String, value: JSONValue)]

  public init(event: String, _ fields: [(key: String, value: JSONValue)]) {
    self.fields = [("event", .string(event))] + fields
  }

  public static func == (lhs: AnalyticsEventLine, rhs: AnalyticsEventLine) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  /// The event name.
  public var event: String { fields.first?.value.stringValue ?? "" }

  /// The value of `key`, if present.
  public subscript(key: String) -> JSONValue? {
    fields.first { $0.key == key }?.value
  }

  /// One JSON object on one line, keys in order.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let parts = fields.map { field -> String in
      let key = (try? encoder.encode(field.key)).flatMap { String(data: $0, encoding: .utf8) }
      let value = (try? encoder.encode(field.value)).flatMap { String(data: $0, encoding: .utf8) }
      return "\(key ?? "\"\"")"
        + ":" + (value ?? "null")
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// A readable line: the event name, then `key=value` pairs (strings unquoted).
  public var text: String {
    var words = [event]
    for field in fields.dropFirst() {
      switch field.value {
      case .string(let text): words.append("\(field.key)=\(text)")
      case .number(let number):
        words.append("\(field.key)=\(AnalyticsEventLine.formatNumber(number))")
      case .bool(let flag): words.append("\(field.key)=\(flag)")
      case .null: continue
      case .array, .object:
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = (try? encoder.encode(field.value)).flatMap {
          String(data: $0, encoding: .utf8)
        }
        words.append("\(field.key)=\(encoded ?? "?")")
      }
    }
    return words.joined(separator: " ")
  }

  /// Seconds rounded to the microsecond (stable text for logs and tests).
  static func seconds(_ time: MediaTime) -> JSONValue {
    guard time.isNumeric else { return .null }
    return .number((time.seconds * 1_000_000).rounded() / 1_000_000)
  }

  private static func formatNumber(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }
}
