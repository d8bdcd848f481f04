import Foundation
import PlayheadCore

/// JSON texts shared by the reader tests.
enum JSONTestDocuments {
  /// `{"a":{"a":…1…}}`, `depth` objects deep.
  static func nestedObjects(depth: Int) -> String {
    String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
  }

  /// `[[…1…]]`, `depth` arrays deep.
  static func nestedArrays(depth: Int) -> String {
    String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
  }

  /// The issue's hostile response: a Playback API playlist of `count` videos, each with a
  /// custom value nested `depth` objects deep (20 × 500 is about 60 KB).
  static func deepPlaylist(count: Int = 20, depth: Int = 500) -> Data {
    let videos = (0..<count).map { index in
      #"{"id":"v\#(index)","x":"# + nestedObjects(depth: depth) + "}"
    }
    return Data((#"{"videos":["# + videos.joined(separator: ",") + "]}").utf8)
  }

  /// A realistic catalog video object, `index` making each one different.
  static func video(_ index: Int) -> String {
    #"""
    {"id":"\#(index)","name":"Clip \#(index) \u00e9\u4e2d\ud83d\ude00","duration":\#(1000 + index),
    "tags":["a","b\n\"c\""],"custom_fields":{"genre":"news","rating":\#(Double(index) / 8)},
    "sources":[{"src":"https://cdn.example.com/\#(index)/master.m3u8","type":"application/x-mpegURL"}],
    "cue_points":[{"type":"AD","time":\#(index % 60).5,"metadata":null,"force_stop":false}]}
    """#
  }

  /// A JSON array of `count` catalog videos.
  static func videos(_ count: Int) -> Data {
    Data(("[" + (0..<count).map(video).joined(separator: ",") + "]").utf8)
  }

  /// A random value of at most `depth` levels, with every kind of string and number.
  static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
    let kinds = depth > 0 ? 7 : 5
    switch generator.next() % UInt64(kinds) {
    case 0: return .null
    case 1: return .bool(generator.next() % 2 == 0)
    case 2:
      let mantissa = Double(Int64(bitPattern: generator.next()) >> 11)
      let exponent = Double(Int(generator.next() % 40) - 20)
      return .number(
        generator.next() % 3 == 0 ? Double(Int(mantissa) % 1000) : mantissa * pow(10, exponent))
    case 3, 4:
      let alphabet: [Unicode.Scalar] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}",
        "é", "中", "😀", "\u{2028}", "\u{FFFF}", "\u{10FFFF}",
      ]
      var text = ""
      for _ in 0..<Int(generator.next() % 12) {
        text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
      }
      return .string(text)
    case 5:
      return .array(
        (0..<Int(generator.next() % 5)).map { _ in randomValue(&generator, depth: depth - 1) })
    default:
      var members: [String: JSONValue] = [:]
      for index in 0..<Int(generator.next() % 5) {
        members["k\(index)\(generator.next() % 3 == 0 ? "é\"" : "")"] = randomValue(
          &generator, depth: depth - 1)
      }
      return .object(members)
    }
  }
}

/// A deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
