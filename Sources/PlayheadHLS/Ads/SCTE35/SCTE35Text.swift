import PlayheadCore

/// The two text forms of an SCTE-35 section in playlists: `0x` hex (`EXT-X-DATERANGE`'s
/// `SCTE35-OUT`, `SCTE35-IN`, `SCTE35-CMD`) and base64 (`EXT-OATCLS-SCTE35`, the `SCTE35`
/// attribute of `EXT-X-CUE-OUT-CONT`, `EXT-X-SCTE35`'s `CUE`).
enum SCTE35Text {
  /// The longest text decoded, in characters: a section is at most 4,098 bytes (a 12-bit
  /// `section_length` plus 3), 8,198 characters of hex.
  static let maxCharacters = 8_200

  /// The bytes `text` encodes, or nil when it is neither form or longer than
  /// `maxCharacters`.
  ///
  /// Hex: `0x` or `0X` then an even number of digits. Base64: the standard alphabet, with
  /// or without `=` padding; blanks are not allowed.
  static func bytes(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard !utf8.isEmpty, utf8.count <= maxCharacters else { return nil }
    if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x") {
      return hex(utf8[2...])
    }
    return base64(utf8[...])
  }

  private static func hex(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
    guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
      guard let high = ByteText.hexValue(digits[index]),
        let low = ByteText.hexValue(digits[index + 1])
      else { return nil }
      result.append(high << 4 | low)
      index += 2
    }
    return result
  }

  private static func base64(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    var body = text
    var padding = 0
    while let last = body.last, last == UInt8(ascii: "="), padding < 2 {
      body = body.dropLast()
      padding += 1
    }
    guard !body.isEmpty, body.count % 4 != 1 else { return nil }
    if padding > 0 && (body.count + padding) % 4 != 0 { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(body.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for character in body {
      guard let sextet = sextet(character) else { return nil }
      accumulator = accumulator << 6 | UInt32(sextet)
      bits += 6
      if bits >= 8 {
        bits -= 8
        result.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    return result
  }

  private static func sextet(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }
}
