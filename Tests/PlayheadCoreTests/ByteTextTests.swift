import PlayheadCore
import XCTest

/// `ByteText`, the byte scanner the M3U8 and WebVTT parsers share: every helper stays inside
/// the span it is given.
final class ByteTextTests: XCTestCase {
  /// Runs `body` on the UTF-8 bytes of `text`.
  private func with<T>(_ text: String, _ body: (ByteText) -> T) -> T {
    var copy = text
    return copy.withUTF8 { body(ByteText(bytes: $0)) }
  }

  func testEquals_andHasPrefix_compareOnlyTheSpan() {
    with("#EXTM3U\n#EXTINF:4,") { text in
      XCTAssertTrue(text.equals(ByteSpan(0, 7), "#EXTM3U"))
      XCTAssertFalse(text.equals(ByteSpan(0, 8), "#EXTM3U"))
      XCTAssertFalse(text.equals(ByteSpan(0, 6), "#EXTM3U"))
      XCTAssertTrue(text.hasPrefix(ByteSpan(8, 19), "#EXTINF:"))
      XCTAssertFalse(text.hasPrefix(ByteSpan(8, 12), "#EXTINF:"))
      XCTAssertTrue(text.hasPrefix(ByteSpan(3, 3), ""))
      XCTAssertTrue(text.equals(ByteSpan(3, 3), ""))
    }
  }

  func testEqualsIgnoringCase_foldsTheSpanToUpperCase() {
    with("Yes yEs no") { text in
      XCTAssertTrue(text.equalsIgnoringCase(ByteSpan(0, 3), "YES"))
      XCTAssertTrue(text.equalsIgnoringCase(ByteSpan(4, 7), "YES"))
      XCTAssertFalse(text.equalsIgnoringCase(ByteSpan(8, 10), "YES"))
    }
  }

  func testBytesEqual_comparesContentNotPosition() {
    with("a.ts a.ts b.ts") { text in
      XCTAssertTrue(text.bytesEqual(ByteSpan(0, 4), ByteSpan(5, 9)))
      XCTAssertFalse(text.bytesEqual(ByteSpan(0, 4), ByteSpan(10, 14)))
      XCTAssertFalse(text.bytesEqual(ByteSpan(0, 4), ByteSpan(5, 8)))
      XCTAssertTrue(text.bytesEqual(ByteSpan(2, 2), ByteSpan(7, 7)))
    }
  }

  func testFirstIndex_inShortAndLongSpans_findsTheFirstByteInside() {
    let line = String(repeating: "x", count: 40) + ",y,"
    with(line) { text in
      XCTAssertEqual(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(0, 43)), 40)
      XCTAssertEqual(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(35, 43)), 40)
      XCTAssertEqual(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(41, 43)), 42)
      XCTAssertNil(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(0, 40)))
      XCTAssertNil(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(0, 30)))
      XCTAssertNil(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(41, 41)))
      XCTAssertNil(text.firstIndex(of: UInt8(ascii: ","), in: ByteSpan(42, 40)))
    }
  }

  func testTrimmed_withTheFormatsBlanks_keepsOtherBytes() {
    with(" \t\u{0C}a b\r ") { text in
      let all = ByteSpan(0, text.bytes.count)
      let spaceOrTab = text.trimmed(all) { $0 == 0x20 || $0 == 0x09 }
      XCTAssertEqual(spaceOrTab, ByteSpan(2, 7))
      let withFormFeedAndReturn = text.trimmed(all) { $0 <= 0x20 }
      XCTAssertEqual(text.string(withFormFeedAndReturn), "a b")
    }
    with("   ") { text in
      XCTAssertEqual(text.trimmed(ByteSpan(0, 3)) { $0 == 0x20 }, ByteSpan(3, 3))
    }
  }

  func testString_decodesUTF8_withReplacementForInvalidBytes() {
    let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0x00]
    bytes.withUnsafeBufferPointer { buffer in
      let text = ByteText(bytes: buffer)
      XCTAssertEqual(text.string(ByteSpan(0, 3)), "a\u{FFFD}b")
      XCTAssertEqual(text.string(ByteSpan(2, 4)), "b\0")
      XCTAssertEqual(text.string(ByteSpan(1, 1)), "")
    }
  }

  func testIsDigit_acceptsOnlyASCIIDigits() {
    XCTAssertEqual((0...255).filter { ByteText.isDigit(UInt8($0)) }, Array(0x30...0x39))
  }
}
