import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// `WebVTTParserLimits` and the warning cap.
enum LimitCases {
  static func cues(_ count: Int) -> String {
    vtt(
      (0..<count).map { "00:00:\(String(format: "%02d", $0 % 60)).000 --> 00:01:00.000\nc\($0)\n" }
        .joined(separator: "\n"))
  }

  static let all: [WebVTTCase] = [
    WebVTTCase(
      "limits_exactlyAtEveryLimit_parse",
      limits: WebVTTParserLimits(maxBytes: cues(3).utf8.count, maxLineLength: 29, maxCues: 3),
      cues(3),
      .parses { document in
        XCTAssertEqual(document.cues.count, 3)
      }),
    WebVTTCase(
      "warnings_areCappedAt1000PlusACount",
      vtt(String(repeating: "stray\n\n", count: 1500)),
      .parses { document in
        XCTAssertEqual(document.warnings.count, 1001)
        XCTAssertEqual(
          document.warnings.last, WebVTTWarning(line: 0, message: "500 more warnings left out"))
      }),
  ]

  static let failures: [WebVTTCase] = [
    WebVTTCase(
      "limits_tooManyBytes_fails", limits: WebVTTParserLimits(maxBytes: 10), "WEBVTT\n\n\n\n\n",
      .fails(.limitExceeded, line: 0)),
    WebVTTCase(
      "limits_lineTooLong_fails", limits: WebVTTParserLimits(maxLineLength: 20),
      vtt("00:01.000 --> 00:02.000\nshort\n"), .fails(.limitExceeded, line: 3)),
    WebVTTCase(
      "limits_firstLineTooLong_fails", limits: WebVTTParserLimits(maxLineLength: 10),
      "WEBVTT this header is long\n", .fails(.limitExceeded, line: 1)),
    WebVTTCase(
      "limits_tooManyCues_fails", limits: WebVTTParserLimits(maxCues: 2), cues(3),
      .fails(.limitExceeded, line: 9)),
    WebVTTCase(
      "limits_tooManyRegions_fails", limits: WebVTTParserLimits(maxCues: 1),
      vtt("REGION\nid:a\n\nREGION\nid:b\n"), .fails(.limitExceeded, line: 6)),
    WebVTTCase(
      "limits_tooManyStyles_fails", limits: WebVTTParserLimits(maxCues: 1),
      vtt("STYLE\na{}\n\nSTYLE\nb{}\n"), .fails(.limitExceeded, line: 6)),
  ]
}
