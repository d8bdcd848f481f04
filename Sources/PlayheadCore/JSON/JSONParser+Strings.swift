extension JSONParser {
  /// The string whose opening quote is at `index`; leaves `index` after its closing quote.
  ///
  /// Runs of plain bytes are checked as UTF-8 in place and copied once; escapes are decoded
  /// into a buffer that only strings with escapes need.
  mutating func string() throws(JSONParseFailure) -> String {
    let opening = index
    index += 1
    var runStart = index
    var decoded: [UInt8]? = nil
    while true {
      guard index < bytes.count else {
        throw JSONParseFailure("the text ends inside a string that starts", at: opening)
      }
      let byte = bytes[index]
      workUnits += 1
      if byte == ASCII.quote {
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
        index += 1
        workUnits += run.count
        guard var buffer = decoded else { return String(decoding: run, as: UTF8.self) }
        buffer.append(contentsOf: run)
        return String(decoding: buffer, as: UTF8.self)
      }
      if byte == ASCII.backslash {
        var buffer = decoded ?? []
        decoded = nil
        let run = bytes[runStart..<index]
        workUnits += run.count
        buffer.append(contentsOf: run)
        try escape(into: &buffer, opening: opening)
        decoded = buffer
        runStart = index
      } else if byte < 0x20 {
        throw JSONParseFailure(
          "a control character (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))) "
            + "inside a string; JSON writes it as an escape such as \\n or \\u00"
            + String(byte, radix: 16, uppercase: true).leftPadded(to: 2),
          at: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        index = try endOfScalar(at: index)
      }
      if (index - runStart) + (decoded?.count ?? 0) > limits.maxStringBytes {
        throw JSONParseFailure(
          "a string longer than \(limits.maxStringBytes) bytes starts", at: opening)
      }
    }
  }

  /// The offset after the multi-byte UTF-8 sequence at `offset`, or a failure naming it
  /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
  private func endOfScalar(at offset: Int) throws(JSONParseFailure) -> Int {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default:
      throw JSONParseFailure(
        "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)) cannot start a character)",
        at: offset)
    }
    for position in offset + 1..<offset + length {
      guard position < bytes.count else {
        throw JSONParseFailure("invalid UTF-8 (the text ends inside a character)", at: offset)
      }
      let range = position == offset + 1 ? secondRange : 0x80...0xBF
      guard range.contains(bytes[position]) else {
        throw JSONParseFailure(
          "invalid UTF-8 (byte 0x\(String(bytes[position], radix: 16, uppercase: true)) "
            + "inside a character that starts)", at: offset)
      }
    }
    return offset + length
  }

  /// Decodes the escape whose backslash is at `index` into `buffer` as UTF-8.
  private mutating func escape(into buffer: inout [UInt8], opening: Int)
    throws(JSONParseFailure)
  {
    let backslash = index
    guard index + 1 < bytes.count else {
      throw JSONParseFailure("the text ends inside a string that starts", at: opening)
    }
    workUnits += 2
    let simple: UInt8
    switch bytes[index + 1] {
    case ASCII.quote: simple = ASCII.quote
    case ASCII.backslash: simple = ASCII.backslash
    case ASCII.slash: simple = ASCII.slash
    case ASCII.b: simple = 0x08
    case ASCII.f: simple = 0x0C
    case ASCII.n: simple = ASCII.lineFeed
    case ASCII.r: simple = ASCII.carriageReturn
    case ASCII.t: simple = ASCII.tab
    case ASCII.u:
      let unit = try hexUnit(at: index + 2, opening: opening)
      index += 6
      let scalar: UInt32
      switch unit {
      case 0xD800...0xDBFF:
        guard index + 1 < bytes.count, bytes[index] == ASCII.backslash,
          bytes[index + 1] == ASCII.u
        else {
          throw JSONParseFailure(
            "a lone surrogate \\u\(hex(unit)) (a high surrogate not followed by a low one)",
            at: backslash)
        }
        let low = try hexUnit(at: index + 2, opening: opening)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw JSONParseFailure(
            "a lone surrogate \\u\(hex(unit)) (a high surrogate followed by \\u\(hex(low)))",
            at: backslash)
        }
        index += 6
        workUnits += 6
        scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      case 0xDC00...0xDFFF:
        throw JSONParseFailure(
          "a lone surrogate \\u\(hex(unit)) (a low surrogate without a high one before it)",
          at: backslash)
      default:
        scalar = unit
      }
      Self.appendUTF8(scalar, to: &buffer)
      workUnits += 4
      return
    default:
      throw JSONParseFailure(
        "an invalid escape \\\(describeEscaped(at: index + 1)) in a string", at: backslash)
    }
    buffer.append(simple)
    index += 2
  }

  /// The four hex digits at `offset` (after `\u`) as a UTF-16 code unit.
  private func hexUnit(at offset: Int, opening: Int) throws(JSONParseFailure) -> UInt32 {
    var unit: UInt32 = 0
    for position in offset..<offset + 4 {
      guard position < bytes.count else {
        throw JSONParseFailure("the text ends inside a string that starts", at: opening)
      }
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
      case ASCII.upperA...ASCII.upperF: digit = byte - ASCII.upperA + 10
      case ASCII.lowerA...ASCII.f: digit = byte - ASCII.lowerA + 10
      default:
        throw JSONParseFailure(
          "a \\u escape without four hex digits (\(describeByte(at: position)))", at: offset - 2)
      }
      unit = unit << 4 | UInt32(digit)
    }
    return unit
  }

  /// Appends `scalar` (a Unicode scalar value, surrogates excluded) as UTF-8.
  private static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      buffer.append(UInt8(scalar))
    case 0x80..<0x800:
      buffer.append(UInt8(0xC0 | scalar >> 6))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      buffer.append(UInt8(0xE0 | scalar >> 12))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    default:
      buffer.append(UInt8(0xF0 | scalar >> 18 & 0x07))
      buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  private func hex(_ unit: UInt32) -> String {
    String(unit, radix: 16, uppercase: true).leftPadded(to: 4)
  }

  /// The escape letter for a message: the character when printable ASCII, else its byte.
  private func describeEscaped(at offset: Int) -> String {
    let byte = bytes[offset]
    if byte > 0x20, byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
    return "(byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2)))"
  }
}
