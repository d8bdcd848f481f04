import Foundation
import PlayheadCore

/// Reading attribute lists: values, flags, raw dictionaries and warnings.
extension ParserContext {
  /// The most warnings kept; the rest are counted in one final warning.
  static let maxWarnings = 1000

  /// Splits `value` as an attribute list, warning when it is malformed or repeats a name.
  mutating func attributes(_ value: ByteSpan, of tag: TagName) -> AttributeList {
    let list = AttributeList(text, value)
    if list.malformed {
      warn("the attribute list of \(tag.name) is malformed; read what could be read")
    }
    if let duplicate = list.duplicateName {
      warn("\(tag.name) repeats attribute \(text.string(duplicate)); the first one is used")
    }
    return list
  }

  /// The value of `entry`, with variable references substituted.
  mutating func string(_ entry: AttributeList.Entry) throws(PlaylistParseError) -> String {
    try substituted(entry.value)
  }

  /// The value of the attribute `name`, substituted, or nil when absent.
  mutating func string(_ name: StaticString, in list: AttributeList) throws(PlaylistParseError)
    -> String?
  {
    guard let entry = list.entry(name, in: text) else { return nil }
    return try string(entry)
  }

  /// Every attribute of `list` by name, values substituted (the models' raw `attributes`).
  mutating func rawAttributes(_ list: AttributeList) throws(PlaylistParseError) -> [String: String]
  {
    var result: [String: String] = [:]
    result.reserveCapacity(list.entries.count)
    for entry in list.entries { result[text.string(entry.name)] = try string(entry) }
    return result
  }

  /// Whether the attribute `name` is `YES`.
  func flag(_ name: StaticString, in list: AttributeList) -> Bool {
    guard let entry = list.entry(name, in: text) else { return false }
    return text.equals(entry.value, "YES")
  }

  /// Warns once per attribute of `list` that `known` does not name.
  ///
  /// `X-` client attributes are allowed when `allowClientAttributes`.
  mutating func warnUnknownAttributes(
    _ list: AttributeList, known: [StaticString], of tag: TagName,
    allowClientAttributes: Bool = false
  ) {
    for entry in list.entries {
      if known.contains(where: { text.equals(entry.name, $0) }) { continue }
      if allowClientAttributes && text.hasPrefix(entry.name, "X-") { continue }
      warn("\(tag.name) has unknown attribute \(text.string(entry.name)); ignored")
    }
  }

  /// A decimal-integer attribute: nil when absent; a warning and nil when malformed.
  mutating func optionalInteger(_ name: StaticString, in list: AttributeList, of tag: TagName)
    -> Int?
  {
    guard let entry = list.entry(name, in: text) else { return nil }
    if let value = text.integer(entry.value) { return value }
    warn("\(tag.name) \(name) '\(text.string(entry.value))' is not a decimal integer; ignored")
    return nil
  }

  /// A decimal-floating-point attribute as an exact time: nil when absent; a warning and
  /// nil when malformed.
  mutating func optionalTime(
    _ name: StaticString, in list: AttributeList, of tag: TagName, allowSign: Bool = false
  ) -> MediaTime? {
    guard let entry = list.entry(name, in: text) else { return nil }
    if let value = text.decimalTime(entry.value, allowSign: allowSign) { return value }
    warn("\(tag.name) \(name) '\(text.string(entry.value))' is not a decimal number; ignored")
    return nil
  }

  /// The `BYTERANGE` attribute of `list` (`n[@o]`), or nil when absent.
  mutating func byteRangeAttribute(_ list: AttributeList, of tag: TagName)
    throws(PlaylistParseError) -> (length: Int64, offset: Int64?)?
  {
    guard let entry = list.entry("BYTERANGE", in: text) else { return nil }
    let value = try string(entry)
    guard let range = Self.withBytes(of: value, { $0.byteRange(ByteSpan(0, $0.bytes.count)) })
    else {
      throw error(.invalidValue, "\(tag.name) BYTERANGE '\(Self.excerpt(value))' is not n[@o]")
    }
    return range
  }

  /// Runs `body` on the UTF-8 bytes of `string` (for values that went through
  /// substitution and so are no longer a span of the playlist).
  static func withBytes<T>(of string: String, _ body: (ByteText) -> T) -> T {
    var copy = string
    return copy.withUTF8 { body(ByteText(bytes: $0)) }
  }
}
