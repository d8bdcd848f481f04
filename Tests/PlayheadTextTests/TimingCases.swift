import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// Timestamps and timing lines.
enum TimingCases {
  /// A file with one cue whose timing line is `timing`.
  static func file(_ timing: String) -> String {
    vtt(timing + "\nText\n")
  }

  static let all: [WebVTTCase] = [
    WebVTTCase(
      "timestamp_withoutHours_parses", file("01:02.003 --> 59:59.999"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.start, ms(62_003))
        XCTAssertEqual(cue.end, ms(3_599_999))
        XCTAssertEqual(cue.start.timescale, 1000)
      }),
    WebVTTCase(
      "timestamp_withHours_parses", file("01:02:03.004 --> 10:00:00.000"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.start, ms(3_723_004))
        XCTAssertEqual(cue.end, ms(36_000_000))
      }),
    WebVTTCase(
      "timestamp_oneDigitHours_parses", file("1:00:00.000 --> 2:00:00.000"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).start, ms(3_600_000))
      }),
    WebVTTCase(
      "timestamp_hoursAbove99_parses", file("123:00:00.000 --> 123456:00:00.500"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.start, ms(123 * 3_600_000))
        XCTAssertEqual(cue.end, ms(123_456 * 3_600_000 + 500))
      }),
    WebVTTCase(
      "timestamp_firstFieldAbove59_isHours", file("60:00:00.000 --> 61:00:00.000"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).start, ms(216_000_000))
      }),
    WebVTTCase(
      "timestamp_largestMilliseconds_parses",
      file("2562047788015:12:55.806 --> 2562047788015:12:55.807"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).end, ms(Int64.max))
      }),
    WebVTTCase(
      "timestamp_overflowingHours_warnsWithoutTrap",
      file("2562047788015:12:55.808 --> 2562047788016:00:00.000")
        + "\n99999999999999999999999999999:00:00.000 --> 99999999999999999999999999999:00:00.001\nX\n"
        + "\n00:01.000 --> 00:02.000\nKept\n",
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Kept")
        XCTAssertTrue(hasWarning(document, "too large", line: 3))
        XCTAssertTrue(hasWarning(document, "too large", line: 6))
      }),
    WebVTTCase(
      "timingLine_withoutSpacesAroundArrow_parses", file("00:01.000-->00:02.000"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).end, ms(2000))
      }),
    WebVTTCase(
      "timingLine_tabsAndLeadingSpace_parse", file(" \t00:01.000\t-->\t00:02.000\t"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).start, ms(1000))
        XCTAssertTrue(document.warnings.isEmpty)
      }),
    WebVTTCase(
      "endEqualsStart_isKept", file("00:01.000 --> 00:01.000"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.start, cue.end)
      }),
    WebVTTCase(
      "endBeforeStart_warnsAndDropsCue",
      vtt("00:05.000 --> 00:04.000\nDropped\n\n00:06.000 --> 00:07.000\nKept\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Kept")
        XCTAssertTrue(hasWarning(document, "ends before it starts", line: 3))
      }),
    WebVTTCase(
      "cuesOutOfOrder_warnButAreKept",
      vtt("00:05.000 --> 00:06.000\nB\n\n00:01.000 --> 00:02.000\nA\n"),
      .parses { document in
        XCTAssertEqual(document.cues.map(\.text), ["B", "A"])
        XCTAssertTrue(hasWarning(document, "starts before the previous cue", line: 6))
      }),
    WebVTTCase(
      "malformedTimings_warnAndSkipBlock",
      vtt(
        "00:01.000 -> 00:02.000\nA\n\n1:02.000 --> 00:03.000\nB\n\n00:60.000 --> 01:00.000\nC\n\n"
          + "00:01.00 --> 00:02.000\nD\n\n00:01.000 --> 00:02.0000\nE\n\n00:01.000 --> \nF\n\n"
          + "00:01.000 --> 00:02.000\nKept\n"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).text, "Kept")
        XCTAssertTrue(hasWarning(document, "malformed cue timing line", line: 6))
        XCTAssertTrue(hasWarning(document, "below 60", line: 9))
        XCTAssertTrue(hasWarning(document, "three digits of milliseconds", line: 12))
        XCTAssertTrue(hasWarning(document, "three digits of milliseconds", line: 15))
        XCTAssertTrue(hasWarning(document, "after '-->'", line: 18))
        // "-> " has no arrow: the block is text outside a cue.
        XCTAssertTrue(hasWarning(document, "text outside a cue", line: 3))
      }),
    WebVTTCase(
      "malformedTiming_nextTimingLineStartsNewCue",
      vtt("00:01.000 --> garbage\n00:02.000 --> 00:03.000\nRecovered\n"),
      .parses { document in
        let cue = try onlyCue(document)
        XCTAssertEqual(cue.start, ms(2000))
        XCTAssertEqual(cue.identifier, "")
        XCTAssertEqual(cue.text, "Recovered")
      }),
    WebVTTCase(
      "settingsGluedToEndTime_areRead", file("00:01.000 --> 00:02.000align:start"),
      .parses { document in
        XCTAssertEqual(try onlyCue(document).settings.align, .start)
      }),
  ]
}
