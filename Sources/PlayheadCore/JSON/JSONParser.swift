import Foundation

/// The recursive-descent parser behind `JSONReader`: one pass over the bytes, never
/// looking back, with one level of recursion per open array or object (at most
/// `Limits.maxDepth`).
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let limits: JSONReader.Limits
  /// The next byte to read.
  var index = 0
  /// Parser steps so far (see `JSONReader.read(_:limits:workUnits:)`).
  var workUnits = 0
  /// The arrays and objects open around `index`, outermost first, to say what a
  /// truncated text ends inside.
  var open: [JSONParseFailure.Container] = []

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

  /// The value that starts at `index` (white space already skipped).
  mutating func value() throws(JSONParseFailure) -> JSONValue {
    guard index < bytes.count else { throw endOfText() }
    workUnits += 1
    switch bytes[index] {
    case ASCII.openBrace: return try object()
    case ASCII.openBracket: return try array()
    case ASCII.quote: return .string(try string())
    case ASCII.t:
      try literal(ASCII.trueWord, "true")
      return .bool(true)
    case ASCII.f:
      try literal(ASCII.falseWord, "false")
      return .bool(false)
    case ASCII.n:
      try literal(ASCII.nullWord, "null")
      return .null
    case ASCII.minus, ASCII.zero...ASCII.nine:
      return .number(try number())
    default:
      throw JSONParseFailure(
        "\(describeByte(at: index)) where a value should start", at: index)
    }
  }

  /// The object whose `{` is at `index`.
  mutating func object() throws(JSONParseFailure) -> JSONValue {
    try enter(.object)
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == ASCII.closeBrace {
      index += 1
      workUnits += 1
      open.removeLast()
      return .object(members)
    }
    while true {
      guard index < bytes.count else { throw endOfText() }
      guard bytes[index] == ASCII.quote else {
        if bytes[index] == ASCII.closeBrace, !members.isEmpty {
          throw JSONParseFailure("a comma before '}' (JSON has no trailing commas)", at: index)
        }
        throw JSONParseFailure(
          "\(describeByte(at: index)) where a key in double quotes should be", at: index)
      }
      let keyOffset = index
      let key = try string()
      skipWhitespace()
      guard index < bytes.count else { throw endOfText() }
      guard bytes[index] == ASCII.colon else {
        throw JSONParseFailure(
          "\(describeByte(at: index)) after a key, where ':' should be", at: index)
      }
      index += 1
      workUnits += 1
      skipWhitespace()
      let member = try value()
      workUnits += key.utf8.count + 1
      if members.updateValue(member, forKey: key) != nil {
        throw JSONParseFailure(
          "the key \(JSONParseFailure.quoted(key)) appears twice in one object", at: keyOffset)
      }
      skipWhitespace()
      guard index < bytes.count else { throw endOfText() }
      switch bytes[index] {
      case ASCII.comma:
        index += 1
        workUnits += 1
        skipWhitespace()
      case ASCII.closeBrace:
        index += 1
        workUnits += 1
        open.removeLast()
        return .object(members)
      default:
        throw JSONParseFailure(
          "\(describeByte(at: index)) after a member of an object, where ',' or '}' should be",
          at: index)
      }
    }
  }

  /// The array whose `[` is at `index`.
  mutating func array() throws(JSONParseFailure) -> JSONValue {
    try enter(.array)
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == ASCII.closeBracket {
      index += 1
      workUnits += 1
      open.removeLast()
      return .array(elements)
    }
    while true {
      guard index < bytes.count else { throw endOfText() }
      if bytes[index] == ASCII.closeBracket, !elements.isEmpty {
        throw JSONParseFailure("a comma before ']' (JSON has no trailing commas)", at: index)
      }
      elements.append(try value())
      workUnits += 1
      skipWhitespace()
      guard index < bytes.count else { throw endOfText() }
      switch bytes[index] {
      case ASCII.comma:
        index += 1
        workUnits += 1
        skipWhitespace()
      case ASCII.closeBracket:
        index += 1
        workUnits += 1
        open.removeLast()
        return .array(elements)
      default:
        throw JSONParseFailure(
          "\(describeByte(at: index)) after an element of an array, where ',' or ']' should be",
          at: index)
      }
    }
  }

  /// Opens the array or object at `index`, refusing one level too many.
  private mutating func enter(_ kind: JSONParseFailure.Container.Kind) throws(JSONParseFailure) {
    guard open.count < limits.maxDepth else {
      throw JSONParseFailure("nested deeper than \(limits.maxDepth) levels", at: index)
    }
    open.append(JSONParseFailure.Container(kind: kind, offset: index))
    index += 1
    workUnits += 1
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

  /// The failure for text that stops inside the innermost open array or object.
  func endOfText() -> JSONParseFailure {
    guard let innermost = open.last else {
      return JSONParseFailure("the text ends where a value should be", at: index)
    }
    return JSONParseFailure(
      "the text ends inside \(innermost.kind == .object ? "an object" : "an array") opened",
      at: innermost.offset)
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
