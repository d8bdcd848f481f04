import Foundation
import PlayheadCore
import XCTest

/// `JSONReader`: what it accepts, and the typed error with a position for what it refuses.
final class JSONReaderTests: XCTestCase {
  private func read(_ text: String, limits: JSONReader.Limits = .standard) throws -> JSONValue {
    try JSONReader.read(Data(text.utf8), limits: limits)
  }

  /// The error for `data`, failing the test when it parses.
  private func refusal(
    _ data: Data, limits: JSONReader.Limits = .standard, file: StaticString = #filePath,
    line: UInt = #line
  ) -> PlayheadError? {
    do {
      let value = try JSONReader.read(data, limits: limits)
      XCTFail("parsed as \(String(describing: value).prefix(200))", file: file, line: line)
      return nil
    } catch {
      XCTAssertEqual(error.code, .malformedJSON, file: file, line: line)
      XCTAssertEqual(error.category, .media, file: file, line: line)
      XCTAssertFalse(
        error.message.contains("\n"), "one line: \(error.message)", file: file, line: line)
      XCTAssertFalse(
        error.message.contains("not valid JSON"), error.message, file: file, line: line)
      XCTAssertNil(
        error.message.range(of: #"error \d|Code=|NSCocoaErrorDomain"#, options: .regularExpression),
        "no Foundation error number: \(error.message)", file: file, line: line)
      return error
    }
  }

  private func refusal(
    _ text: String, limits: JSONReader.Limits = .standard, file: StaticString = #filePath,
    line: UInt = #line
  ) -> PlayheadError? {
    refusal(Data(text.utf8), limits: limits, file: file, line: line)
  }

  func testRead_wellFormedText_givesTheTree() throws {
    XCTAssertEqual(
      try read(
        #" {"a": [true, false, null, 0, -0.5, 1.5e3, 2E-2, 10], "b": {}, "c": [], "": ""} "#),
      .object([
        "a": [true, false, nil, 0, -0.5, 1500, 0.02, 10], "b": .object([:]), "c": .array([]),
        "": "",
      ]))
    XCTAssertEqual(try read("42"), 42)
    XCTAssertEqual(try read(#""top""#), "top")
    XCTAssertEqual(try read("null"), nil)
    XCTAssertEqual(try read("\u{FEFF}[1]"), [1], "a byte-order mark is skipped")
    XCTAssertEqual(try read("\r\n\t [ 1 , 2 ]\n"), [1, 2])
    XCTAssertEqual(try read("1e-400"), 0, "a number too small for a double reads as 0")
    XCTAssertEqual(try read("9007199254740993"), 9_007_199_254_740_992)
    XCTAssertEqual(
      try read(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u4E2D\ud83d\ude00\u0000""#),
      .string("\"\\/\u{8}\u{C}\n\r\tAé中😀\u{0}"))
    XCTAssertEqual(try read("\"é中😀\u{10FFFF}\""), .string("é中😀\u{10FFFF}"))
  }

  /// Any value `JSONEncoder` writes reads back equal (500 random trees of every kind).
  func testRead_whatJSONEncoderWrites_readsBackEqual() throws {
    var generator = SeededGenerator(seed: 0x4A53_4F4E)
    let encoder = JSONEncoder()
    for round in 0..<500 {
      let value = JSONTestDocuments.randomValue(&generator, depth: 6)
      let data = try encoder.encode(value)
      XCTAssertEqual(try JSONReader.read(data), value, "round \(round)")
    }
  }

  /// On well-formed text, the reader and Foundation's decoding of `JSONValue` (the old
  /// path) agree.
  func testRead_agreesWithFoundationOnCatalogLikeDocuments() throws {
    let data = JSONTestDocuments.videos(50)
    XCTAssertEqual(try JSONReader.read(data), try JSONDecoder().decode(JSONValue.self, from: data))
  }

  func testRead_nestingAtTheLimit_isRead_andOneLevelMore_isRefusedWithTheDepth() throws {
    let limit = JSONReader.defaultMaxDepth
    XCTAssertEqual(limit, 64)
    XCTAssertNoThrow(try read(JSONTestDocuments.nestedArrays(depth: limit)))
    XCTAssertNoThrow(try read(JSONTestDocuments.nestedObjects(depth: limit)))
    XCTAssertEqual(
      refusal(JSONTestDocuments.nestedArrays(depth: limit + 1))?.message,
      "nested deeper than 64 levels at line 1, column 65 (byte offset 64)")
    XCTAssertEqual(
      refusal(JSONTestDocuments.nestedObjects(depth: limit + 1))?.message,
      "nested deeper than 64 levels at line 1, column 321 (byte offset 320)")
    XCTAssertEqual(
      refusal(String(repeating: "[", count: 1_000_000))?.message,
      "nested deeper than 64 levels at line 1, column 65 (byte offset 64)")
    let three = JSONReader.Limits(maxDepth: 3)
    XCTAssertNoThrow(try read("[[[1]]]", limits: three))
    XCTAssertEqual(
      refusal(#"{"a": [1, {"b": [2]}]}"#, limits: three)?.message,
      "nested deeper than 3 levels at line 1, column 17 (byte offset 16)")
    XCTAssertEqual(
      refusal("[]", limits: JSONReader.Limits(maxDepth: 0))?.message.hasPrefix(
        "nested deeper than 0 levels"), true)
    XCTAssertEqual(JSONReader.Limits(maxDepth: 1_000_000).maxDepth, JSONReader.maxAllowedDepth)
    XCTAssertEqual(JSONReader.maxAllowedDepth, 128)
    XCTAssertEqual(JSONReader.Limits(maxDepth: -3).maxDepth, 0)
  }

  /// The deepest nesting any caller may allow is read, compared, written and destroyed on
  /// a thread with a 512 KiB stack (a macOS secondary thread's).
  func testRead_theDeepestAllowedNesting_fitsInASmallThreadStack() throws {
    let limits = JSONReader.Limits(maxDepth: .max)
    XCTAssertEqual(limits.maxDepth, 128)
    let text = Data(JSONTestDocuments.nestedObjects(depth: 128).utf8)
    let tooDeep = Data(JSONTestDocuments.nestedObjects(depth: 129).utf8)
    let outcome = StackTestOutcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      // Read, compare, write and destroy: each walks the whole depth.
      if let value = try? JSONReader.read(text, limits: limits) {
        let again = try? JSONReader.read(text, limits: limits)
        outcome.parsed = value == again && (try? JSONEncoder().encode(value)) != nil
      }
      outcome.refused = (try? JSONReader.read(tooDeep, limits: limits)) == nil
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    XCTAssertTrue(outcome.parsed)
    XCTAssertTrue(outcome.refused)
  }

  /// The issue's case: 20 values nested 500 deep (60 KB) are refused at the first one.
  func testRead_twentyValuesNested500Deep_isRefusedAtTheFirst() throws {
    let data = JSONTestDocuments.deepPlaylist()
    XCTAssertGreaterThan(data.count, 60_000)
    var workUnits = 0
    do {
      _ = try JSONReader.read(data, workUnits: &workUnits)
      XCTFail("parsed")
    } catch {
      XCTAssertEqual(error.code, .malformedJSON)
      XCTAssertEqual(
        error.message, "nested deeper than 64 levels at line 1, column 332 (byte offset 331)")
    }
    XCTAssertGreaterThan(workUnits, 0)
    XCTAssertLessThan(workUnits, 1_000, "the reader stops at the 65th level of the first value")
  }

  func testRead_truncatedText_saysWhatItEndsInside() throws {
    XCTAssertEqual(
      refusal(#"{"a": [1, 2"#)?.message,
      "the text ends inside an array opened at line 1, column 7 (byte offset 6)")
    XCTAssertEqual(
      refusal(#"{"a""#)?.message,
      "the text ends inside an object opened at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(
      refusal(#"{"a": "abc"#)?.message,
      "the text ends inside a string that starts at line 1, column 7 (byte offset 6)")
    XCTAssertEqual(
      refusal(#"["\u00"#)?.message,
      "the text ends inside a string that starts at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal("[tru")?.message,
      "the text ends inside the word 'true' at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal("-")?.message, "the text ends inside a number at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(refusal("")?.message, "the text is empty")
    XCTAssertEqual(refusal(" \n ")?.message, "the text holds no value, only white space")
    // Every prefix of a real document is refused, never read as something else.
    let whole = JSONTestDocuments.videos(3)
    for length in 0..<whole.count {
      let prefix = whole.prefix(length)
      if (try? JSONReader.read(prefix)) != nil { XCTFail("prefix of \(length) bytes parsed") }
    }
  }

  func testRead_numbersOutsideADouble_orTooLong_orMalformed_areRefused() throws {
    XCTAssertEqual(
      refusal("[1e400]")?.message,
      "the number 1e400 is too large (beyond ±1.8e308, the range of a double) at line 1, column 2 (byte offset 1)"
    )
    XCTAssertEqual(refusal("-1e400")?.message.hasPrefix("the number -1e400 is too large"), true)
    XCTAssertEqual(
      refusal("1" + String(repeating: "0", count: 400))?.message.hasPrefix(
        "the number 100000000000000000000000… is too large"), true)
    XCTAssertEqual(
      refusal("[" + String(repeating: "7", count: 5_000_000) + "]")?.message,
      "a number longer than 1000 characters at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal("01")?.message, "a number with a leading zero at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(
      refusal("[1.]")?.message,
      "a number with no digit after its decimal point at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal("2e+")?.message,
      "a number with no digit in its exponent at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(
      refusal("-x")?.message, "a '-' not followed by a digit at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(
      refusal("[.5]")?.message, "'.' where a value should start at line 1, column 2 (byte offset 1)"
    )
    for word in ["NaN", "Infinity", "-Infinity", "undefined", "True"] {
      XCTAssertNotNil(refusal("[\(word)]"), word)
    }
  }

  func testRead_aKeyTwiceInOneObject_isRefusedAtTheSecond() throws {
    XCTAssertEqual(
      refusal(#"{"src": "a", "src": "b"}"#)?.message,
      #"the key "src" appears twice in one object at line 1, column 14 (byte offset 13)"#)
    // Keys that are the same text once escapes are decoded are the same key.
    XCTAssertEqual(
      refusal(#"{"a": 1, "\u0061": 2}"#)?.message.hasPrefix(#"the key "a" appears twice"#), true)
    XCTAssertEqual(
      refusal("{\"x\n\": 1}")?.message.hasPrefix("a control character (byte 0x0A) inside a string"),
      true)
    let longKey = String(repeating: "k", count: 100) + "\\n"
    XCTAssertEqual(
      refusal(#"{"\#(longKey)": 1, "\#(longKey)": 2}"#)?.message.hasPrefix(
        "the key \"" + String(repeating: "k", count: 40) + "…\" appears twice"), true)
    XCTAssertEqual(try read(#"{"a": {"a": 1}, "b": {"a": 2}}"#).objectValue?.count, 2)
  }

  func testRead_bytesThatAreNotUTF8_areRefusedWithTheOffendingByte() throws {
    func text(_ bytes: [UInt8]) -> Data { Data(#"[""#.utf8) + Data(bytes) + Data(#""]"#.utf8) }
    XCTAssertEqual(
      refusal(text([0xFF]))?.message,
      "invalid UTF-8 (byte 0xFF cannot start a character) at line 1, column 3 (byte offset 2)")
    XCTAssertEqual(
      refusal(text([0xC0, 0xAF]))?.message.hasPrefix("invalid UTF-8 (byte 0xC0 cannot start"),
      true, "an overlong form")
    XCTAssertEqual(
      refusal(text([0xE0, 0x80, 0x80]))?.message.hasPrefix("invalid UTF-8 (byte 0x80 inside"),
      true, "an overlong three-byte form")
    XCTAssertEqual(
      refusal(text([0xED, 0xA0, 0x80]))?.message.hasPrefix("invalid UTF-8 (byte 0xA0 inside"),
      true, "a surrogate encoded as UTF-8")
    XCTAssertEqual(
      refusal(text([0xF4, 0x90, 0x80, 0x80]))?.message.hasPrefix("invalid UTF-8"), true,
      "beyond U+10FFFF")
    XCTAssertEqual(
      refusal(text([0xE2, 0x82]))?.message.hasPrefix("invalid UTF-8 (byte 0x22 inside"), true,
      "a sequence cut by the closing quote")
    XCTAssertEqual(
      refusal(Data([0x22, 0xE2, 0x82]))?.message,
      "invalid UTF-8 (the text ends inside a character) at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal(Data([0x5B, 0xFE, 0x5D]))?.message,
      "byte 0xFE where a value should start at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal(Data([0xFF, 0xFE, 0x7B, 0x00]))?.message,
      "byte 0xFF where a value should start at line 1, column 1 (byte offset 0)",
      "UTF-16 is not read")
  }

  func testRead_loneSurrogatesAndBadEscapes_areRefused() throws {
    XCTAssertEqual(
      refusal(#"["\uD800"]"#)?.message,
      #"a lone surrogate \uD800 (a high surrogate not followed by a low one) at line 1, column 3 (byte offset 2)"#
    )
    XCTAssertEqual(
      refusal(#"["\udc00"]"#)?.message,
      #"a lone surrogate \uDC00 (a low surrogate without a high one before it) at line 1, column 3 (byte offset 2)"#
    )
    XCTAssertEqual(
      refusal(#"["\uD83D\u0041"]"#)?.message.hasPrefix(
        #"a lone surrogate \uD83D (a high surrogate followed by \u0041)"#), true)
    XCTAssertEqual(
      refusal(#"["\uDE00\uD83D"]"#)?.message.hasPrefix(#"a lone surrogate \uDE00"#), true,
      "a pair in the wrong order")
    XCTAssertEqual(
      refusal(#"["\x"]"#)?.message,
      #"an invalid escape \x in a string at line 1, column 3 (byte offset 2)"#)
    XCTAssertEqual(
      refusal(#"["\u12G4"]"#)?.message,
      #"a \u escape without four hex digits ('G') at line 1, column 3 (byte offset 2)"#)
    XCTAssertEqual(
      refusal("[\"a\tb\"]")?.message,
      #"a control character (byte 0x09) inside a string; JSON writes it as an escape such as \n or \u0009 at line 1, column 4 (byte offset 3)"#
    )
  }

  func testRead_notJSON_isRefusedNamingTheCharacter() throws {
    XCTAssertEqual(
      refusal("[1,]")?.message,
      "a comma before ']' (JSON has no trailing commas) at line 1, column 4 (byte offset 3)")
    XCTAssertEqual(
      refusal(#"{"a": 1,}"#)?.message,
      "a comma before '}' (JSON has no trailing commas) at line 1, column 9 (byte offset 8)")
    XCTAssertEqual(
      refusal("{} {}")?.message,
      "text after the JSON value: '{' at line 1, column 4 (byte offset 3)")
    XCTAssertEqual(
      refusal("[1 2]")?.message,
      "'2' after an element of an array, where ',' or ']' should be at line 1, column 4 (byte offset 3)"
    )
    XCTAssertEqual(
      refusal(#"{"a" 1}"#)?.message,
      "'1' after a key, where ':' should be at line 1, column 6 (byte offset 5)")
    XCTAssertEqual(
      refusal("{'a': 1}")?.message,
      "''' where a key in double quotes should be at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal(#"{"a": 1 "b": 2}"#)?.message,
      "'\"' after a member of an object, where ',' or '}' should be at line 1, column 9 (byte offset 8)"
    )
    XCTAssertEqual(
      refusal("[1] // note")?.message,
      "text after the JSON value: '/' at line 1, column 5 (byte offset 4)")
    XCTAssertEqual(
      refusal("<html>")?.message,
      "'<' where a value should start at line 1, column 1 (byte offset 0)")
    XCTAssertEqual(
      refusal("[nul]")?.message,
      "'n' that does not start 'true', 'false' or 'null' at line 1, column 2 (byte offset 1)")
    XCTAssertEqual(
      refusal("[\u{0}]")?.message,
      "byte 0x00 where a value should start at line 1, column 2 (byte offset 1)")
  }

  /// Lines count line feeds; columns count characters, so a multi-byte one is one column.
  func testRead_thePositionIsTheLineAndTheCharacterColumn() throws {
    let text = "{\n  \"name\": \"é中😀\",\n  \"x\": [1, 2,, 3]\n}"
    XCTAssertEqual(
      refusal(text)?.message,
      "',' where a value should start at line 3, column 14 (byte offset 38)")
  }

  func testRead_aStringLongerThanTheLimit_isRefused_andTheLocalStateLimitsTakeIt() throws {
    let tenMB = 10 * 1024 * 1024
    let huge =
      Data("[\"".utf8) + Data(repeating: UInt8(ascii: "x"), count: tenMB) + Data("\"]".utf8)
    XCTAssertEqual(
      refusal(huge)?.message,
      "a string longer than 1048576 bytes starts at line 1, column 2 (byte offset 1)")
    let parsed = try JSONReader.read(huge, limits: .localState)
    XCTAssertEqual(parsed.arrayValue?.first?.stringValue?.utf8.count, tenMB)
    // Escapes count as the bytes they decode to.
    let escaped = "\"" + String(repeating: #"\n"#, count: 600) + "\""
    XCTAssertNoThrow(try read(escaped, limits: JSONReader.Limits(maxStringBytes: 600)))
    XCTAssertNotNil(refusal(escaped, limits: JSONReader.Limits(maxStringBytes: 599)))
    XCTAssertNotNil(refusal("[123456]", limits: JSONReader.Limits(maxNumberLength: 5)))
  }
}

/// What the small-stack thread saw (written there, read after it signals).
private final class StackTestOutcome: @unchecked Sendable {
  var parsed = false
  var refused = false
}
