import PlayheadCore

/// An attribute list (`NAME=value,NAME="quoted, value"`) split into its entries, on bytes.
///
/// Splitting is lenient: blanks before a name and after `=` are skipped, an unquoted value ends at the
/// next comma, a quoted value at the next double quote. Anything that does not fit
/// (a name without `=`, an unterminated quote, text after a closing quote) marks the list
/// `malformed`; the entries that could be read are still returned.
struct AttributeList {
  struct Entry {
    /// The attribute name.
    var name: ByteSpan
    /// The value, without its quotes.
    var value: ByteSpan
    /// Whether the value was a quoted string.
    var quoted: Bool
  }

  private(set) var entries: [Entry] = []
  /// Whether some part of the list could not be read.
  private(set) var malformed = false
  /// The first name that appears twice, when one does (the first occurrence wins).
  private(set) var duplicateName: ByteSpan?

  init(_ text: ByteText, _ span: ByteSpan) {
    entries.reserveCapacity(8)
    let bytes = text.bytes
    var index = span.start
    let end = span.end
    while index < end {
      while index < end && ByteText.isBlank(bytes[index]) { index += 1 }
      if index >= end { break }
      let nameStart = index
      while index < end && bytes[index] != UInt8(ascii: "=") && bytes[index] != UInt8(ascii: ",") {
        index += 1
      }
      let name = text.trimmed(ByteSpan(nameStart, index))
      guard index < end, bytes[index] == UInt8(ascii: "="), !name.isEmpty else {
        malformed = true
        index += 1
        continue
      }
      index += 1
      while index < end && ByteText.isBlank(bytes[index]) { index += 1 }
      var value: ByteSpan
      var quoted = false
      if index < end && bytes[index] == UInt8(ascii: "\"") {
        quoted = true
        let valueStart = index + 1
        let close = text.firstIndex(of: UInt8(ascii: "\""), in: ByteSpan(valueStart, end))
        guard let close else {
          malformed = true
          value = ByteSpan(valueStart, end)
          append(text, name, value, quoted)
          break
        }
        value = ByteSpan(valueStart, close)
        index = close + 1
        while index < end && ByteText.isBlank(bytes[index]) { index += 1 }
        if index < end && bytes[index] != UInt8(ascii: ",") {
          malformed = true
          index = text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(index, end)) ?? end
        }
      } else {
        let valueStart = index
        index = text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(index, end)) ?? end
        value = text.trimmed(ByteSpan(valueStart, index))
      }
      append(text, name, value, quoted)
      index += 1
    }
  }

  /// The most entries one list may hold; more marks it malformed (this also bounds the
  /// duplicate check, which is quadratic in the entry count).
  static let maxEntries = 256

  private mutating func append(
    _ text: ByteText, _ name: ByteSpan, _ value: ByteSpan, _ quoted: Bool
  ) {
    guard entries.count < Self.maxEntries else {
      malformed = true
      return
    }
    for entry in entries where entry.name.count == name.count {
      if text.buffer(entry.name).elementsEqual(text.buffer(name)) {
        if duplicateName == nil { duplicateName = name }
        return
      }
    }
    entries.append(Entry(name: name, value: value, quoted: quoted))
  }

  /// The entry named `name`, or nil.
  func entry(_ name: StaticString, in text: ByteText) -> Entry? {
    for entry in entries where text.equals(entry.name, name) { return entry }
    return nil
  }
}
