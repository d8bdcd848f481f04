extension XMLScanner {
  /// Appends `bytes[range]` to `output` with entity and character references decoded;
  /// with `normalizingSpace`, tab, CR and LF written as such become spaces (attribute
  /// values), while those written as character references stay.
  func decodeReferences(
    _ range: Range<Int>, into output: inout [UInt8], normalizingSpace: Bool
  ) throws(XMLTreeError) {
    output.reserveCapacity(output.count + range.count)
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = bytes[index]
      guard byte == Self.ampersand else {
        output.append(normalizingSpace && Self.isSpace(byte) ? 0x20 : byte)
        index += 1
        continue
      }
      // The longest reference read is `&#x10FFFF;` (10 bytes).
      let limit = min(range.upperBound, index + 12)
      guard let semicolon = bytes[index..<limit].firstIndex(of: UInt8(ascii: ";")) else {
        throw failure("'&' must start a reference ending with ';'")
      }
      let name = bytes[(index + 1)..<semicolon]
      try appendReference(name, to: &output)
      index = semicolon + 1
    }
  }

  private func appendReference(_ name: ArraySlice<UInt8>, to output: inout [UInt8])
    throws(XMLTreeError)
  {
    switch String(decoding: name, as: UTF8.self) {
    case "lt": output.append(UInt8(ascii: "<"))
    case "gt": output.append(UInt8(ascii: ">"))
    case "amp": output.append(UInt8(ascii: "&"))
    case "apos": output.append(UInt8(ascii: "'"))
    case "quot": output.append(UInt8(ascii: "\""))
    case let text where text.hasPrefix("#"):
      let digits = text.dropFirst()
      let value: UInt32?
      if digits.first == "x" {
        value = digits.count > 1 ? UInt32(digits.dropFirst(), radix: 16) : nil
      } else {
        value = digits.isEmpty ? nil : UInt32(digits, radix: 10)
      }
      guard let value, Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
        throw failure("'&\(Self.excerpt(text));' is not a valid character reference")
      }
      output.append(contentsOf: Array(String(Character(scalar)).utf8))
    case let text:
      throw failure(
        .entityRefused, "undeclared entity '&\(Self.excerpt(text));' (no DTD is read)")
    }
  }

  /// Whether `value` is a character XML 1.0 allows.
  private static func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
    default: return false
    }
  }
}
