import Foundation
import PlayheadAds
import PlayheadCore
import XCTest

/// VAST 4.x macro expansion: values, encoding, unknown and unavailable macros, and a
/// deterministic cache buster.
final class VASTMacrosTests: XCTestCase {
  /// SplitMix64: a seeded generator, so that cache busters repeat.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  private func expand(_ template: String, _ context: VASTMacroContext, seed: UInt64 = 1) -> String {
    var generator = SeededGenerator(state: seed)
    return VASTMacros.expand(template, context: context, using: &generator)
  }

  func testKnownMacros_areReplacedAndEncoded() {
    let context = VASTMacroContext(
      errorCode: .wrapperLimit, timestamp: Date(timeIntervalSince1970: 1_700_000_000.25),
      contentPlayhead: MediaTime(value: 3_723_456, timescale: 1000),
      mediaPlayhead: MediaTime(value: 5, timescale: 1),
      adPlayhead: MediaTime(value: 1, timescale: 4),
      assetURI: "https://cdn.example/a b.mp4?x=1&y=2", breakPosition: .midRoll, adCount: 2,
      cacheBusting: "00001234")
    XCTAssertEqual(expand("e=[ERRORCODE]", context), "e=302")
    XCTAssertEqual(expand("t=[TIMESTAMP]", context), "t=2023-11-14T22%3A13%3A20.250Z")
    XCTAssertEqual(expand("c=[CONTENTPLAYHEAD]", context), "c=01%3A02%3A03.456")
    XCTAssertEqual(
      expand("m=[MEDIAPLAYHEAD]&a=[ADPLAYHEAD]", context), "m=00%3A00%3A05.000&a=00%3A00%3A00.250")
    XCTAssertEqual(
      expand("u=[ASSETURI]", context), "u=https%3A%2F%2Fcdn.example%2Fa%20b.mp4%3Fx%3D1%26y%3D2")
    XCTAssertEqual(
      expand("p=[BREAKPOSITION]&n=[ADCOUNT]&cb=[CACHEBUSTING]", context), "p=2&n=2&cb=00001234")
  }

  func testUnknownMacros_stay_unavailableKnownOnes_areMinusOne() {
    let context = VASTMacroContext()
    XCTAssertEqual(
      expand("https://t.example/?r=[random]&s=[SERVERSIDE]&e=[ERRORCODE]&a=[ADPLAYHEAD]", context),
      "https://t.example/?r=[random]&s=[SERVERSIDE]&e=-1&a=-1")
    XCTAssertEqual(expand("no macros", context), "no macros")
    XCTAssertEqual(expand("open [ERRORCODE", context), "open [ERRORCODE", "unclosed is kept")
    XCTAssertEqual(expand("[errorcode]", context), "[errorcode]", "names are case-sensitive")
  }

  func testCacheBusting_isEightDigits_andRepeatsWithTheSeed() {
    let first = expand("[CACHEBUSTING]", VASTMacroContext(), seed: 42)
    XCTAssertEqual(first.count, 8)
    XCTAssertTrue(first.allSatisfy(\.isNumber))
    XCTAssertEqual(expand("[CACHEBUSTING]", VASTMacroContext(), seed: 42), first)
    XCTAssertNotEqual(expand("[CACHEBUSTING]", VASTMacroContext(), seed: 43), first)
  }

  func testTimestamp_formatsUTCWithMilliseconds() {
    XCTAssertEqual(VASTMacros.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
    XCTAssertEqual(
      VASTMacros.timestamp(Date(timeIntervalSince1970: 86_400.999)), "1970-01-02T00:00:00.999Z")
  }
}
