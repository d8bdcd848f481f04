import Foundation

/// The parser behind `JSONReader`: one pass over the bytes, never looking back.
///
/// Arrays and objects being filled are kept on an explicit stack (at most
/// `Limits.maxDepth` of them), so the thread's own stack stays the same size at any depth.
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let limits: JSONReader.Limits
  /// The next byte to read.
  var index = 0
  /// Parser steps so far (see `JSONReader.read(_:limits:workUnits:)`).
  var workUnits = 0

  /// An array or object whose members are being read.
  private enum OpenContainer {
    /// The elements so far and the offset of the `[`.
    case array([JSONValue], opening: Int)
    /// The members so far, the key whose value is being read (and its offset), and the
    /// offset of the `{`.
    case object([String: JSONValue], key: String, keyOffset: Int, opening: Int)

    var opening: Int {
      switch self {
      case .array(_, let opening), .object(_, _, _, let opening): return opening
      }
    }

    var isObject: Bool {
      if case .object = self { return true }
      return false
    }
  }

  init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits) {
    self.bytes = bytes
    self.limits = limits
  }

  /// The whole text: one value, with white space (and a byte-order mark) around it only.
  mutating func document() throws(JSONParseFailure) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    skipWhitespace()
    guard index < bytes.count else {
      throw JSONParseFailure(
        index == 0 ? "the text is empty" : "the text holds no value, only white space",
        at: nil)
    }
    let value = try value()
    skipWhitespace()
    guard index == bytes.count else {
      throw JSONParseFailure(
        "text after the JSON value: \(describeByte(at: index))", at: index)
    }
    return value
  }

  /// The value that starts at `index` (white space already skipped), arrays and objects
  /// included.
  private mutating func value() throws(JSONParseFailure) -> JSONValue {
    var open: [OpenContainer] = []
    while true {
      // A value starts at `index`: a scalar, an empty container, or a container to fill.
      var finished: JSONValue
      guard index < bytes.count else {
        guard let innermost = open.last else {
          throw JSONParseFailure("the text ends where a value should be", at: index)
        }
        throw endOfText(isObject: innermost.isObject, opening: innermost.opening)
      }
      workUnits += 1
      switch bytes[index] {
      case ASCII.openBrace, ASCII.openBracket:
        guard open.count < limits.maxDepth else {
          throw JSONParseFailure("nested deeper than \(limits.maxDepth) levels", at: index)
        }
        let opening = index
        let isObject = bytes[index] == ASCII.openBrace
        index += 1
        skipWhitespace()
        let closer = isObject ? ASCII.closeBrace : ASCII.closeBracket
        if index < bytes.count, bytes[index] == closer {
          index += 1
          workUnits += 1
          finished = isObject ? .object([:]) : .array([])
        } else if isObject {
          let (key, keyOffset) = try memberKey(opening: opening, afterComma: false)
          open.append(.object([:], key: key, keyOffset: keyOffset, opening: opening))
          continue
        } else {
          open.append(.array([], opening: opening))
          continue
        }
      case ASCII.quote:
        finished = .string(try string())
      case ASCII.t:
        try literal(ASCII.trueWord, "true")
        finished = .bool(true)
      case ASCII.f:
        try literal(ASCII.falseWord, "false")
        finished = .bool(false)
      case ASCII.n:
        try literal(ASCII.nullWord, "null")
        finished = .null
      case ASCII.minus, ASCII.zero...ASCII.nine:
        finished = .number(try number())
      default:
        throw JSONParseFailure("\(describeByte(at: index)) where a value should start", at: index)
      }
      // Hand the finished value to the containers around it, closing those that end here.
      while true {
        guard let container = open.popLast() else { return finished }
        skipWhitespace()
        // Consumed, so that the elements or members it holds are the only reference to
        // their storage and grow in place.
        switch consume container {
        case .array(var elements, let opening):
          elements.append(finished)
          workUnits += 1
          guard index < bytes.count else { throw endOfText(isObject: false, opening: opening) }
          switch bytes[index] {
          case ASCII.comma:
            index += 1
            workUnits += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == ASCII.closeBracket {
              throw JSONParseFailure("a comma before ']' (JSON has no trailing commas)", at: index)
            }
            open.append(.array(elements, opening: opening))
          case ASCII.closeBracket:
            index += 1
            workUnits += 1
            finished = .array(elements)
            continue
          default:
            throw JSONParseFailure(
              "\(describeByte(at: index)) after an element of an array, where ',' or ']' should be",
              at: index)
          }
        case .object(var members, let key, let keyOffset, let opening):
          workUnits += key.utf8.count + 1
          if members.updateValue(finished, forKey: key) != nil {
            throw JSONParseFailure(
              "the key \(JSONParseFailure.quoted(key)) appears twice in one object", at: keyOffset)
          }
          guard index < bytes.count else { throw endOfText(isObject: true, opening: opening) }
          switch bytes[index] {
          case ASCII.comma:
            index += 1
            workUnits += 1
            skipWhitespace()
            let (next, nextOffset) = try memberKey(opening: opening, afterComma: true)
            open.append(.object(members, key: next, keyOffset: nextOffset, opening: opening))
          case ASCII.closeBrace:
            index += 1
            workUnits += 1
            finished = .object(members)
            continue
          default:
            throw JSONParseFailure(
              "\(describeByte(at: index)) after a member of an object, where ',' or '}' should be",
              at: index)
          }
        }
        break
      }
    }
  }

  /// The key at `index` of a member of the object opened at `opening`, and its offset;
  /// leaves `index` at the member's value.
  private mutating func memberKey(opening: Int, afterComma: Bool)
    throws(JSONParseFailure) -> (String, Int)
  {
    guard index < bytes.count else { throw endOfText(isObject: true, opening: opening) }
    guard bytes[index] == ASCII.quote else {
      if afterComma, bytes[index] == ASCII.closeBrace {
        throw JSONParseFailure("a comma before '}' (JSON has no trailing commas)", at: index)
      }
      throw JSONParseFailure(
        "\(describeByte(at: index)) where a key in double quotes should be", at: index)
    }
    let keyOffset = index
    let key = try string()
    skipWhitespace()
    guard index < bytes.count else { throw endOfText(isObject: true, opening: opening) }
    guard bytes[index] == ASCII.colon else {
      throw JSONParseFailure(
        "\(describeByte(at: index)) after a key, where ':' should be", at: index)
    }
    index += 1
    workUnits += 1
    skipWhitespace()
    return (key, keyOffset)
  }

  /// `true`, `false` or `null`, whose first byte is at `index`.
  private mutating func literal(_ word: [UInt8], _ name: String) throws(JSONParseFailure) {
    let start = index
    for expected in word {
      guard index < bytes.count else {
        throw JSONParseFailure("the text ends inside the word '\(name)'", at: start)
      }
      guard bytes[index] == expected else {
        throw JSONParseFailure(
          "\(describeByte(at: start)) that does not start 'true', 'false' or 'null'", at: start)
      }
      index += 1
      workUnits += 1
    }
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn:
        index += 1
        workUnits += 1
      default:
        return
      }
    }
  }

  /// The failure for text that stops inside the array or object opened at `opening`.
  private func endOfText(isObject: Bool, opening: Int) -> JSONParseFailure {
    JSONParseFailure(
      "the text ends inside \(isObject ? "an object" : "an array") opened", at: opening)
  }

  /// `'x'` for a printable ASCII byte, `byte 0xNN` for any other.
  func describeByte(at offset: Int) -> String {
    let byte = bytes[offset]
    if byte > 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
  }
}

extension String {
  /// The string with leading zeros up to `width` characters.
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// The bytes of the JSON grammar.
enum ASCII {
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
  static let openBracket: UInt8 = 0x5B
  static let closeBracket: UInt8 = 0x5D
  static let quote: UInt8 = 0x22
  static let backslash: UInt8 = 0x5C
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let plus: UInt8 = 0x2B
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let one: UInt8 = 0x31
  static let nine: UInt8 = 0x39
  static let upperA: UInt8 = 0x41
  static let upperE: UInt8 = 0x45
  static let upperF: UInt8 = 0x46
  static let lowerA: UInt8 = 0x61
  static let b: UInt8 = 0x62
  static let e: UInt8 = 0x65
  static let f: UInt8 = 0x66
  static let n: UInt8 = 0x6E
  static let r: UInt8 = 0x72
  static let t: UInt8 = 0x74
  static let u: UInt8 = 0x75
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let trueWord: [UInt8] = Array("true".utf8)
  static let falseWord: [UInt8] = Array("false".utf8)
  static let nullWord: [UInt8] = Array("null".utf8)
}
