import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// The signature line, the header block and `X-TIMESTAMP-MAP`.
enum HeaderCases {
  static let all: [WebVTTCase] = [
    WebVTTCase(
      "headerOnly_noLineBreak_parsesEmpty", "WEBVTT",
      .parses { document in
        XCTAssertEqual(document, WebVTTDocument())
      }),
    WebVTTCase(
      "headerOnly_withLineBreak_parsesEmpty", "WEBVTT\n",
      .parses { document in
        XCTAssertEqual(document, WebVTTDocument())
      }),
    WebVTTCase(
      "headerOnly_blankLines_parsesEmpty", "WEBVTT\n\n\n\n",
      .parses { document in
        XCTAssertTrue(document.cues.isEmpty)
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "headerText_afterSpace_isTrimmed", "WEBVTT  - Subtitles  \n",
      .parses { document in
        XCTAssertEqual(document.header, "- Subtitles")
      }),
    WebVTTCase(
      "headerText_afterTab_isKept", "WEBVTT\tKind: captions",
      .parses { document in
        XCTAssertEqual(document.header, "Kind: captions")
      }),
    WebVTTCase(
      "byteOrderMark_isSkipped",
      bytes: Data([0xEF, 0xBB, 0xBF]) + Data(vtt("00:01.000 --> 00:02.000\nHi\n").utf8),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Hi")
      }),
    WebVTTCase(
      "crlfLineBreaks_areAccepted",
      "WEBVTT\r\n\r\n1\r\n00:01.000 --> 00:02.000\r\nHello\r\nworld\r\n\r\n00:03.000 --> 00:04.000\r\nBye\r\n",
      .parses { document in
        XCTAssertEqual(document.cues.count, 2)
        XCTAssertEqual(document.cues.first?.identifier, "1")
        XCTAssertEqual(document.cues.first?.text, "Hello\nworld")
        XCTAssertEqual(document.cues.last?.text, "Bye")
      }),
    WebVTTCase(
      "crLineBreaks_areAccepted",
      "WEBVTT\r\r00:01.000 --> 00:02.000\rA\rB\r\r00:03.000 --> 00:04.000\rC",
      .parses { document in
        XCTAssertEqual(document.cues.map(\.text), ["A\nB", "C"])
      }),
    WebVTTCase(
      "headerLines_areKept",
      "WEBVTT\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:02.000\nHi\n",
      .parses { document in
        XCTAssertEqual(document.headerLines, ["Kind: captions", "Language: en"])
        XCTAssertEqual(document.cues.count, 1)
      }),
    WebVTTCase(
      "cueRightAfterSignature_withoutBlankLine_parses",
      "WEBVTT\n00:01.000 --> 00:02.000\nHi\n",
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Hi")
        XCTAssertTrue(document.headerLines.isEmpty)
      }),
    WebVTTCase(
      "cueAfterHeaderLines_withoutBlankLine_parses",
      "WEBVTT\nKind: captions\n00:01.000 --> 00:02.000\nHi\n",
      .parses { document in
        XCTAssertEqual(document.headerLines, ["Kind: captions"])
        XCTAssertEqual(try onlyCue(document).text, "Hi")
      }),
    WebVTTCase(
      "timestampMap_inHeader_isParsed",
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nHi\n",
      .parses { document in
        XCTAssertEqual(document.timestampMap, WebVTTTimestampMap(mpegts: 900_000, local: ms(0)))
        XCTAssertTrue(document.headerLines.isEmpty)
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "timestampMap_localFirstAndShortTimestamp_isParsed",
      "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:10.500, MPEGTS:8589934000\n",
      .parses { document in
        XCTAssertEqual(
          document.timestampMap, WebVTTTimestampMap(mpegts: 8_589_934_000, local: ms(10_500)))
      }),
    WebVTTCase(
      "timestampMap_missingLocal_warnsAndKeepsLine",
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000\n",
      .parses { document in
        XCTAssertNil(document.timestampMap)
        XCTAssertEqual(document.headerLines, ["X-TIMESTAMP-MAP=MPEGTS:900000"])
        XCTAssertTrue(hasWarning(document, "needs both MPEGTS and LOCAL", line: 2))
      }),
    WebVTTCase(
      "timestampMap_badNumbers_warn",
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:-5,LOCAL:00:00.000\nX-TIMESTAMP-MAP=MPEGTS:5,LOCAL:0:00.000\n",
      .parses { document in
        XCTAssertNil(document.timestampMap)
        XCTAssertEqual(document.headerLines.count, 2)
        XCTAssertTrue(hasWarning(document, "MPEGTS is not a whole number", line: 2))
        XCTAssertTrue(hasWarning(document, "LOCAL is not a WebVTT timestamp", line: 3))
      }),
    WebVTTCase(
      "timestampMap_second_isIgnored",
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00.000\nX-TIMESTAMP-MAP=MPEGTS:2,LOCAL:00:00.000\n",
      .parses { document in
        XCTAssertEqual(document.timestampMap?.mpegts, 1)
        XCTAssertEqual(document.headerLines, ["X-TIMESTAMP-MAP=MPEGTS:2,LOCAL:00:00.000"])
        XCTAssertTrue(hasWarning(document, "second X-TIMESTAMP-MAP", line: 3))
      }),
    WebVTTCase(
      "timestampMap_afterBlankLine_isUsedWithWarning",
      "WEBVTT\n\nX-TIMESTAMP-MAP=MPEGTS:180000,LOCAL:00:00.000\n\n00:01.000 --> 00:02.000\nHi\n",
      .parses { document in
        XCTAssertEqual(document.timestampMap?.mpegts, 180_000)
        XCTAssertTrue(hasWarning(document, "belongs in the header", line: 3))
        XCTAssertEqual(document.cues.count, 1)
      }),
    WebVTTCase(
      "timestampMap_unknownField_warnsAndKeepsMap",
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:9,LOCAL:00:00.000,EXTRA:1\n",
      .parses { document in
        XCTAssertEqual(document.timestampMap?.mpegts, 9)
        XCTAssertTrue(hasWarning(document, "unknown X-TIMESTAMP-MAP field 'EXTRA'", line: 2))
      }),
  ]

  static let failures: [WebVTTCase] = [
    WebVTTCase("emptyFile_fails", "", .fails(.missingHeader, line: 1)),
    WebVTTCase(
      "byteOrderMarkOnly_fails", bytes: Data([0xEF, 0xBB, 0xBF]), .fails(.missingHeader, line: 1)),
    WebVTTCase("lowercaseSignature_fails", "webvtt\n", .fails(.missingHeader, line: 1)),
    WebVTTCase("signatureFollowedByText_fails", "WEBVTTX\n", .fails(.missingHeader, line: 1)),
    WebVTTCase("signatureWithLeadingSpace_fails", " WEBVTT\n", .fails(.missingHeader, line: 1)),
    WebVTTCase("blankFirstLine_fails", "\nWEBVTT\n", .fails(.missingHeader, line: 1)),
    WebVTTCase(
      "srtFile_fails", "1\n00:00:01,000 --> 00:00:02,000\nHi\n", .fails(.missingHeader, line: 1)),
    WebVTTCase("shortFile_fails", "WEB", .fails(.missingHeader, line: 1)),
  ]
}
