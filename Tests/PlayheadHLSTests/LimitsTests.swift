import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The parser's limits against hostile input, each exceeded by one.
final class LimitsTests: XCTestCase {
  private let url = URL(string: "https://example.com/live/index.m3u8")!

  private func assertLimit(
    _ text: String, _ limits: PlaylistParserLimits, line: Int, mentions: String,
    file: StaticString = #filePath, sourceLine: UInt = #line
  ) {
    do {
      _ = try PlaylistParser.parse(text, url: url, limits: limits)
      XCTFail("parsed despite the limit", file: file, line: sourceLine)
    } catch {
      XCTAssertEqual(error.kind, .limitExceeded, "\(error)", file: file, line: sourceLine)
      XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
      XCTAssertTrue(error.message.contains(mentions), error.message, file: file, line: sourceLine)
    }
  }

  func testDefaults() {
    let limits = PlaylistParserLimits.default
    XCTAssertEqual(limits.maxBytes, 16 * 1024 * 1024)
    XCTAssertEqual(limits.maxLineLength, 64 * 1024)
    XCTAssertEqual(limits.maxSegments, 200_000)
    XCTAssertEqual(limits.maxVariableExpansionBytes, 1024 * 1024)
  }

  func testMaxBytes_isCheckedBeforeParsing_onLine0() throws {
    let text = mediaText("#EXTINF:4,\na.ts\n")
    let size = text.utf8.count
    XCTAssertNoThrow(try PlaylistParser.parse(text, url: url, limits: .init(maxBytes: size)))
    assertLimit(
      text, .init(maxBytes: size - 1), line: 0, mentions: "more than the limit of \(size - 1)")
  }

  func testMaxLineLength_namesTheLongLine() throws {
    let uri = String(repeating: "a", count: 100) + ".ts"
    let text = mediaText("#EXTINF:4,\n\(uri)\n")
    XCTAssertNoThrow(try PlaylistParser.parse(text, url: url, limits: .init(maxLineLength: 103)))
    assertLimit(text, .init(maxLineLength: 102), line: 5, mentions: "103 bytes long")
  }

  func testMaxLineLength_appliesToALineWithoutLineBreak() {
    assertLimit(
      "#EXTM3U\n#" + String(repeating: "x", count: 5000), .init(maxLineLength: 4096), line: 2,
      mentions: "more than the limit of 4096")
  }

  func testMaxSegments_namesTheFirstSegmentOverTheLimit() throws {
    let text = mediaText("#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n#EXTINF:4,\nc.ts\n")
    XCTAssertNoThrow(try PlaylistParser.parse(text, url: url, limits: .init(maxSegments: 3)))
    assertLimit(text, .init(maxSegments: 2), line: 9, mentions: "more than 2 segments")
  }

  func testMaxSegments_alsoBoundsUnknownTagsAndVariants() {
    assertLimit(
      mediaText("#EXT-X-A\n#EXT-X-B\n#EXT-X-C\n"), .init(maxSegments: 2), line: 6,
      mentions: "more than 2 unknown tags")
    assertLimit(
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n",
      .init(maxSegments: 1), line: 5, mentions: "more than 1 variants")
  }

  func testMaxVariableExpansion_countsEverySubstitution() throws {
    let value = String(repeating: "v", count: 100)
    let text = mediaText(
      "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"\(value)\"\n#EXTINF:4,\n{$x}{$x}\n#EXTINF:4,\n{$x}.ts\n")
    XCTAssertNoThrow(
      try PlaylistParser.parse(text, url: url, limits: .init(maxVariableExpansionBytes: 300)))
    assertLimit(
      text, .init(maxVariableExpansionBytes: 299), line: 8, mentions: "more than 299 bytes")
  }

  func testManyAttributesInOneTag_areCappedAndWarnInsteadOfGrowingQuadratically() throws {
    let attributes = (0..<4_000).map { "X-A\($0)=\($0)" }.joined(separator: ",")
    let text = mediaText("#EXT-X-DATERANGE:ID=\"x\",\(attributes),X-A1=2\n#EXTINF:4,\na.ts\n")
    let playlist = try PlaylistParser.parse(text, url: url)
    XCTAssertTrue(hasWarning(playlist, "attribute list of EXT-X-DATERANGE is malformed"))
    XCTAssertEqual(try media(playlist).dateRanges.first?.clientAttributes.count, 255)
    XCTAssertEqual(try media(playlist).dateRanges.first?.clientAttributes["X-A1"], "1")
  }

  func testWarnings_areCappedWithACount() throws {
    let body = String(repeating: "#EXT-X-MEDIA-SEQUENCE:1\n", count: 1500)
    let playlist = try PlaylistParser.parse(mediaText(body), url: url)
    XCTAssertEqual(playlist.warnings.count, 1001)
    XCTAssertEqual(playlist.warnings.last?.message, "499 more warnings left out")
  }

  func testLargePlaylist_parsesWithinTheDefaults() throws {
    var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
    for index in 0..<50_000 { text += "#EXTINF:6.006,\nsegment_\(index).ts\n" }
    let playlist = try media(try PlaylistParser.parse(text, url: url))
    XCTAssertEqual(playlist.segments.count, 50_000)
    XCTAssertEqual(playlist.segments.last?.mediaSequence, 49_999)
    XCTAssertEqual(playlist.totalDuration, time(300_300, 1))
  }
}
