import Foundation
import PlayheadCore
import PlayheadText
import XCTest

/// `WebVTTWriter` output and the parser's public entry points.
final class WriterTests: XCTestCase {
  func testWrite_fullDocument_isReadable() throws {
    let document = WebVTTDocument(
      header: "Movie", headerLines: ["Kind: captions"],
      timestampMap: WebVTTTimestampMap(mpegts: 900_000, local: ms(0)),
      regions: [WebVTTRegion(id: "r", width: 40, lines: 2, scroll: .up)],
      styles: ["::cue { color: lime }"],
      cues: [
        WebVTTCue(identifier: "1", start: ms(1_000), end: ms(2_500), text: "<b>Hi</b>"),
        WebVTTCue(
          start: ms(3_723_004), end: ms(360_000_000_000),
          settings: WebVTTCueSettings(
            line: .init(.percentage(90), alignment: .end), position: .init(12.5), size: 0.00001,
            align: .left),
          text: ""),
        WebVTTCue(
          start: ms(3_800_000), end: ms(3_801_000), settings: .init(region: "r"), text: "A\nB"),
      ])
    let expected = """
      WEBVTT Movie
      X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000
      Kind: captions

      REGION
      id:r width:40% lines:2 regionanchor:0%,100% viewportanchor:0%,100% scroll:up

      STYLE
      ::cue { color: lime }

      1
      00:00:01.000 --> 00:00:02.500
      <b>Hi</b>

      01:02:03.004 --> 100000:00:00.000 line:90%,end position:12.5% size:0.00001% align:left

      01:03:20.000 --> 01:03:21.000 region:r
      A
      B


      """
    XCTAssertEqual(WebVTTWriter.write(document), expected)
    XCTAssertEqual(try WebVTTParser.parse(expected), document)
  }

  func testWrite_numbers_arePlainDecimalsThatReadBack() throws {
    let values: [Double] = [
      0, 100, 50, 33.333333333333336, 0.1, 1e-5, 1.5e-7, 99.99999999999999, 12.5, 1e16, 1.5e16,
      -1e20, -3, 2.5, 123456789.125,
    ]
    for value in values {
      let settings = WebVTTCueSettings(line: .init(.number(value)))
      let text = WebVTTWriter.settingsText(settings)
      XCTAssertFalse(text.dropFirst("line:".count).contains("e"), text)
      let parsed = try WebVTTParser.parse(settingsFile(text)).cues.first?.settings
      XCTAssertEqual(parsed, settings, text)
    }
    XCTAssertEqual(
      WebVTTWriter.settingsText(.init(line: .init(.number(1e16)))), "line:10000000000000000")
    XCTAssertEqual(WebVTTWriter.settingsText(.init(size: 1.5e-7)), "size:0.00000015%")
  }

  func testWrite_timestamps_roundToMillisecondsAndClampNegative() {
    XCTAssertEqual(WebVTTWriter.timestamp(MediaTime(value: 1, timescale: 3)), "00:00:00.333")
    XCTAssertEqual(WebVTTWriter.timestamp(MediaTime(value: -5, timescale: 1)), "00:00:00.000")
    XCTAssertEqual(WebVTTWriter.timestamp(.invalid), "00:00:00.000")
    XCTAssertEqual(WebVTTWriter.timestamp(ms(Int64.max)), "2562047788015:12:55.807")
  }

  func testParseString_matchesParseData() throws {
    let text = "WEBVTT\n\n00:01.000 --> 00:02.000\nÉtoile\n"
    XCTAssertEqual(try WebVTTParser.parse(text), try WebVTTParser.parse(Data(text.utf8)))
  }

  func testLargeFile_parsesEveryCue() throws {
    var text = "WEBVTT\n\n"
    let count = 20_000
    for index in 0..<count {
      let seconds = index % 3600
      text += String(
        format: "%d\n00:%02d:%02d.000 --> 00:%02d:%02d.500 line:-1\n<v Narrator>Line &amp; %d\n\n",
        index, seconds / 60, seconds % 60, seconds / 60, seconds % 60, index)
    }
    let document = try WebVTTParser.parse(text)
    XCTAssertEqual(document.cues.count, count)
    XCTAssertEqual(document.cues.last?.identifier, "\(count - 1)")
    XCTAssertEqual(document.cues.last?.plainText, "Line & \(count - 1)")
  }

  func testHostileInput_longLinesOfMarkup_parseWithoutTrapping() throws {
    let tags = String(repeating: "<", count: 60_000)
    let references = String(repeating: "&#", count: 30_000)
    let arrows = String(repeating: "-->", count: 20_000)
    let longSetting = String(repeating: "n", count: 30_000) + ":v"
    let text = vtt(
      "00:01.000 --> 00:02.000 " + longSetting + " " + String(repeating: "a:b ", count: 8_000)
        + "\n" + tags + "\n" + references + "\n\n" + arrows + "\n")
    let document = try WebVTTParser.parse(text)
    let cue = try XCTUnwrap(document.cues.first)
    XCTAssertEqual(cue.plainText, "")
    XCTAssertEqual(document.warnings.count, 1001)
    XCTAssertTrue(document.warnings.allSatisfy { $0.message.count < 200 }, "warnings stay short")
    XCTAssertTrue(
      document.warnings[0].message.contains("'nnnnnnnnnn"), document.warnings[0].message)
    XCTAssertTrue(document.warnings[0].message.contains("…'"), document.warnings[0].message)
  }
}
