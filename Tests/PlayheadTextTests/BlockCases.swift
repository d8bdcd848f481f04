import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// Cue blocks, identifiers, payloads, comments, style sheets and regions as blocks.
enum BlockCases {
  static let all: [WebVTTCase] = [
    WebVTTCase(
      "cueIdentifier_isKept", vtt("intro-1\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).identifier, "intro-1")
      }),
    WebVTTCase(
      "cueIdentifier_withSpacesAndUnicode_isKeptAsWritten",
      vtt("  Scène 1 — début \n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).identifier, "  Scène 1 — début ")
      }),
    WebVTTCase(
      "identifierContainingArrow_isNotAnIdentifier",
      vtt("a --> b\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.identifier, "")
        XCTAssertEqual(cue.text, "Hi")
        XCTAssertTrue(hasWarning(document, "malformed cue timing line", line: 3))
      }),
    WebVTTCase(
      "cueWithoutPayload_isKept",
      vtt("00:01.000 --> 00:02.000\n\n00:03.000 --> 00:04.000\n"),
      .parses { document in
        XCTAssertEqual(document.cues.map(\.text), ["", ""])
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "cueAtEndOfFile_withoutLineBreak_isKept", vtt("00:01.000 --> 00:02.000\nLast line"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Last line")
      }),
    WebVTTCase(
      "multiLinePayload_isJoinedWithLineFeeds",
      vtt("00:01.000 --> 00:02.000\nOne\n  Two  \nThree\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "One\n  Two  \nThree")
      }),
    WebVTTCase(
      "whiteSpaceOnlyLine_doesNotEndPayload",
      vtt("00:01.000 --> 00:02.000\nOne\n \nTwo\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "One\n \nTwo")
      }),
    WebVTTCase(
      "payloadLineWithArrow_endsCueAndStartsNewBlock",
      vtt("00:01.000 --> 00:02.000\nOne\n00:03.000 --> 00:04.000\nTwo\n"),
      .parses { document in
        XCTAssertEqual(document.cues.map(\.text), ["One", "Two"])
      }),
    WebVTTCase(
      "manyBlankLinesBetweenCues_areSkipped",
      vtt("\n\n\n00:01.000 --> 00:02.000\nA\n\n\n\n\n00:03.000 --> 00:04.000\nB\n\n\n"),
      .parses { document in
        XCTAssertEqual(document.cues.map(\.text), ["A", "B"])
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "noteBlocks_areSkippedSilently",
      vtt(
        "NOTE a comment\nspanning lines\n\nNOTE\nanother\n\nNOTE\tTab\n\n00:01.000 --> 00:02.000\nHi\n\nNOTE the end\n"
      ),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Hi")
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "noteWithArrowOnSecondLine_isACueIdentifiedNote",
      vtt("NOTE\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).identifier, "NOTE")
      }),
    WebVTTCase(
      "noteWithArrowLater_endsAtTheArrowLine",
      vtt("NOTE one\ntwo\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.identifier, "")
        XCTAssertEqual(cue.text, "Hi")
      }),
    WebVTTCase(
      "notePrefixWithoutSeparator_isStrayText", vtt("NOTES\n\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertTrue(hasWarning(document, "text outside a cue", line: 3))
      }),
    WebVTTCase(
      "textAfterBlankLineInCue_warns",
      vtt("00:01.000 --> 00:02.000\nFirst\n\nStray paragraph\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "First")
        XCTAssertTrue(hasWarning(document, "text outside a cue", line: 6))
      }),
    WebVTTCase(
      "styleBlock_beforeCues_isKept",
      vtt(
        "STYLE\n::cue {\n  color: yellow;\n}\n\nSTYLE  \n::cue(b) { color: red }\n\n00:01.000 --> 00:02.000\nHi\n"
      ),
      .parses { document in
        XCTAssertEqual(
          document.styles, ["::cue {\n  color: yellow;\n}", "::cue(b) { color: red }"])
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "styleBlock_afterCue_warnsAndIsIgnored",
      vtt("00:01.000 --> 00:02.000\nHi\n\nSTYLE\n::cue { color: red }\n"),
      .parses { document in
        XCTAssertTrue(document.styles.isEmpty)
        XCTAssertTrue(hasWarning(document, "STYLE block after the first cue", line: 6))
      }),
    WebVTTCase(
      "styleKeywordAlone_isNotAStyleBlock", vtt("STYLE\n\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertTrue(document.styles.isEmpty)
        XCTAssertEqual(document.cues.count, 1)
      }),
    WebVTTCase(
      "styleWithText_isNotAStyleBlock", vtt("STYLE sheet\n::cue {}\n"),
      .parses { document in
        XCTAssertTrue(document.styles.isEmpty)
        XCTAssertTrue(hasWarning(document, "text outside a cue", line: 3))
      }),
    WebVTTCase(
      "styleBlockFollowedByTimingLine_endsThere",
      vtt("STYLE\n::cue {}\n00:01.000 --> 00:02.000\nHi\n"),
      .parses { document in
        XCTAssertEqual(document.styles, ["::cue {}"])
        XCTAssertEqual(try onlyCue(document).text, "Hi")
      }),
    WebVTTCase(
      "regionBlock_afterCue_warnsAndIsIgnored",
      vtt("00:01.000 --> 00:02.000\nHi\n\nREGION\nid:late\n"),
      .parses { document in
        XCTAssertTrue(document.regions.isEmpty)
        XCTAssertTrue(hasWarning(document, "REGION block after the first cue", line: 6))
      }),
    WebVTTCase(
      "styleAfterFailedTiming_isStillAllowed",
      vtt("00:01.000 --> bad\n\nSTYLE\n::cue {}\n"),
      .parses { document in
        XCTAssertEqual(document.styles, ["::cue {}"])
      }),
    WebVTTCase(
      "nulCharacters_becomeReplacementCharacters",
      bytes: Data(vtt("00:01.000 --> 00:02.000\nA").utf8) + Data([0x00]) + Data("B\n".utf8),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "A\u{FFFD}B")
      }),
    WebVTTCase(
      "invalidUTF8_becomesReplacementCharacters",
      bytes: Data("WEBVTT\n\n".utf8) + Data([0xC3, 0x28, 0xFF])
        + Data("\n00:01.000 --> 00:02.000\nx".utf8) + Data([0xE2, 0x82]) + Data("\n".utf8),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.identifier, "\u{FFFD}(\u{FFFD}")
        XCTAssertEqual(cue.text, "x\u{FFFD}")
      }),
    WebVTTCase(
      "mixedLineBreaks_countLinesOnce",
      "WEBVTT\r\n\n\r\r\n00:01.000 --> 00:02.000\rHi\n\nbad --> line\r\n",
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Hi")
        XCTAssertTrue(hasWarning(document, "malformed cue timing line", line: 8))
      }),
  ]
}
