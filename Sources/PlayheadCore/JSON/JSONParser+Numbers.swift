extension JSONParser {
  /// The number that starts at `index` (`-`, or a digit), in RFC 8259's grammar:
  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  ///
  /// Refuses a number longer than `limits.maxNumberLength` characters, and one whose
  /// magnitude is beyond `Double` (`1e400`); one too small for `Double` reads as 0.
  mutating func number() throws(JSONParseFailure) -> Double {
    let start = index
    if bytes[index] == ASCII.minus { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else {
      if index == bytes.count { throw JSONParseFailure("the text ends inside a number", at: start) }
      throw JSONParseFailure("a '-' not followed by a digit", at: start)
    }
    if bytes[index] == ASCII.zero {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        throw JSONParseFailure("a number with a leading zero", at: start)
      }
    } else {
      skipDigits(from: start)
    }
    if index < bytes.count, bytes[index] == ASCII.dot {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONParseFailure("a number with no digit after its decimal point", at: start)
      }
      skipDigits(from: start)
    }
    if index < bytes.count, bytes[index] == ASCII.e || bytes[index] == ASCII.upperE {
      index += 1
      if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONParseFailure("a number with no digit in its exponent", at: start)
      }
      skipDigits(from: start)
    }
    let length = index - start
    workUnits += length
    guard length <= limits.maxNumberLength else {
      throw JSONParseFailure(
        "a number longer than \(limits.maxNumberLength) characters", at: start)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
      throw JSONParseFailure(
        "the number \(shown) is too large (beyond ±1.8e308, the range of a double)", at: start)
    }
    return value
  }

  /// Moves `index` past a run of digits, stopping early once the number that starts at
  /// `start` is already too long (the caller refuses it).
  private mutating func skipDigits(from start: Int) {
    while index < bytes.count, isDigit(bytes[index]) {
      index += 1
      if index - start > limits.maxNumberLength { return }
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= ASCII.zero && byte <= ASCII.nine }
}
