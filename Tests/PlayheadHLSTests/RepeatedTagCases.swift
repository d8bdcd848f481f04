import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The one rule for tags that may appear once (docs/decisions/0019): an identical repeat is
/// a warning naming both lines and changes nothing; a repeat with another value fails with
/// `.duplicateTag` on the repeat's line, naming the first line.
enum RepeatedTagCases {
  /// A tag, a first value and a conflicting value (nil for tags without a value).
  struct Singleton {
    var tag: String
    var first: String
    var other: String?
    var master = false
  }

  static let singletons: [Singleton] = [
    Singleton(tag: "EXT-X-VERSION", first: ":7", other: ":6"),
    Singleton(tag: "EXT-X-TARGETDURATION", first: ":10", other: ":6"),
    Singleton(tag: "EXT-X-MEDIA-SEQUENCE", first: ":3", other: ":4"),
    Singleton(tag: "EXT-X-DISCONTINUITY-SEQUENCE", first: ":1", other: ":2"),
    Singleton(tag: "EXT-X-PLAYLIST-TYPE", first: ":EVENT", other: ":VOD"),
    Singleton(tag: "EXT-X-ENDLIST", first: "", other: nil),
    Singleton(tag: "EXT-X-I-FRAMES-ONLY", first: "", other: nil),
    Singleton(tag: "EXT-X-INDEPENDENT-SEGMENTS", first: "", other: nil),
    Singleton(tag: "EXT-X-START", first: ":TIME-OFFSET=2", other: ":TIME-OFFSET=3"),
    Singleton(tag: "EXT-X-PART-INF", first: ":PART-TARGET=1", other: ":PART-TARGET=0.5"),
    Singleton(
      tag: "EXT-X-SERVER-CONTROL", first: ":CAN-BLOCK-RELOAD=YES",
      other: ":CAN-BLOCK-RELOAD=YES,HOLD-BACK=9"),
    Singleton(tag: "EXT-X-SKIP", first: ":SKIPPED-SEGMENTS=2", other: ":SKIPPED-SEGMENTS=3"),
    Singleton(
      tag: "EXT-X-CONTENT-STEERING", first: ":SERVER-URI=\"s.json\"",
      other: ":SERVER-URI=\"t.json\"", master: true),
  ]

  /// The playlist with `first` on line 2 and `repeat` on line 3.
  static func text(_ singleton: Singleton, first: String, repeat second: String) -> String {
    let head = "#EXTM3U\n#\(singleton.tag)\(first)\n#\(singleton.tag)\(second)\n"
    if singleton.master { return head + "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n" }
    let target = singleton.tag == "EXT-X-TARGETDURATION" ? "" : "#EXT-X-TARGETDURATION:10\n"
    return head + target + "#EXTINF:4,\na.ts\n"
  }

  static var all: [PlaylistCase] {
    singletons.map { singleton in
      PlaylistCase(
        "repeat_\(singleton.tag)_sameValue_warnsNamingBothLines",
        text(singleton, first: singleton.first, repeat: singleton.first),
        .parses { playlist in
          XCTAssertTrue(
            hasWarning(playlist, "\(singleton.tag) repeats line 2 with the same value", line: 3),
            "\(singleton.tag): \(playlist.warnings)")
        })
    }
  }

  static var failures: [PlaylistCase] {
    singletons.compactMap { singleton in
      guard let other = singleton.other else { return nil }
      return PlaylistCase(
        "repeat_\(singleton.tag)_otherValue_failsOnTheRepeat",
        text(singleton, first: singleton.first, repeat: other), .fails(.duplicateTag, line: 3))
    }
  }
}

final class RepeatedTagRuleTests: XCTestCase {
  func testConflictingRepeat_messageNamesBothLinesAndValues() {
    let text = mediaText("#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:4,\na.ts\n#EXT-X-MEDIA-SEQUENCE:9\n")
    XCTAssertThrowsError(try PlaylistParser.parse(text, url: PlaylistCase.defaultURL)) { error in
      let parseError = error as? PlaylistParseError
      XCTAssertEqual(parseError?.line, 7)
      XCTAssertEqual(
        parseError?.message,
        "EXT-X-MEDIA-SEQUENCE '9' repeats EXT-X-MEDIA-SEQUENCE '3' of line 4 with another value (the tag may appear once)"
      )
    }
  }

  func testIdenticalRepeat_sameParsedValueInAnotherSpelling_isARepeatNotAConflict() throws {
    let text = mediaText("#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-MEDIA-SEQUENCE:03\n#EXTINF:4,\na.ts\n")
    let playlist = try PlaylistParser.parse(text, url: PlaylistCase.defaultURL)
    XCTAssertEqual(try media(playlist).mediaSequence, 3)
    XCTAssertTrue(hasWarning(playlist, "repeats line 4", line: 5))
  }
}
