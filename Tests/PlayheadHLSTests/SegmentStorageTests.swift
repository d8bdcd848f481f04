import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Segments share their base URL, keys and map, and a repeated URI line shares its string:
/// none of that may be visible through the public model.
final class SegmentStorageTests: XCTestCase {
  private let url = URL(string: "https://example.com/live/index.m3u8")!

  private func parsedSegments(_ body: String) throws -> [MediaSegment] {
    try media(try PlaylistParser.parse(mediaText(body), url: url)).segments
  }

  func testChangingKeysMapOrBaseURL_changesOnlyThatSegment() throws {
    let segments = try parsedSegments(
      """
      #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x1
      #EXT-X-MAP:URI="init.mp4"
      #EXTINF:4,
      a.ts
      #EXTINF:4,
      b.ts

      """)
    XCTAssertEqual(segments[0].keys, segments[1].keys)
    var changed = segments[0]
    changed.keys = []
    XCTAssertTrue(changed.keys.isEmpty)
    XCTAssertEqual(changed.map, segments[1].map, "the map is kept")
    XCTAssertEqual(segments[0].keys.count, 1, "the original is unchanged")
    XCTAssertNotEqual(changed, segments[0])
    changed.keys = segments[0].keys
    XCTAssertEqual(changed, segments[0], "equal values, whatever object holds them")

    changed.map = nil
    XCTAssertNil(changed.map)
    XCTAssertNotNil(segments[1].map)
    XCTAssertNotEqual(changed, segments[0])

    var moved = segments[1]
    moved.baseURL = URL(string: "https://other.example.com/x/")!
    XCTAssertEqual(moved.uri.absoluteString, "https://other.example.com/x/b.ts")
    XCTAssertEqual(segments[1].uri.absoluteString, "https://example.com/live/b.ts")
    XCTAssertEqual(moved.keys, segments[1].keys)
    XCTAssertNotEqual(moved, segments[1])
    moved.uri = URL(string: "https://example.com/live/b.ts")!
    XCTAssertEqual(moved.uri.absoluteString, segments[1].uri.absoluteString)
  }

  func testKeyAndMapTags_applyFromWhereTheyStand() throws {
    let segments = try parsedSegments(
      """
      #EXTINF:4,
      a.ts
      #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x2
      #EXTINF:4,
      b.ts
      #EXT-X-MAP:URI="init.mp4"
      #EXTINF:4,
      c.ts
      #EXT-X-KEY:METHOD=NONE
      #EXTINF:4,
      d.ts

      """)
    XCTAssertEqual(segments.map(\.keys.count), [0, 1, 1, 0])
    XCTAssertEqual(segments.map { $0.map?.uriString }, [nil, nil, "init.mp4", "init.mp4"])
    XCTAssertEqual(segments[2].map?.keys.count, 1, "the map keeps the keys in effect at its tag")
  }

  func testSeparateParses_giveEqualPlaylists() throws {
    let text = mediaText(
      "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00.000Z\n#EXTINF:4,\na.ts\n"
    )
    XCTAssertEqual(
      try PlaylistParser.parse(text, url: url), try PlaylistParser.parse(text, url: url))
  }

  func testHandBuiltSegment_equalsTheParsedOne() throws {
    let parsed = try parsedSegments("#EXTINF:4,\nhttps://cdn.example.com/a.ts\n")[0]
    var built = MediaSegment(
      uri: URL(string: "https://cdn.example.com/a.ts")!, duration: MediaTime(value: 4, timescale: 1)
    )
    XCTAssertNotEqual(built, parsed, "the base URL differs")
    built.uriString = parsed.uriString
    built.baseURL = parsed.baseURL
    XCTAssertEqual(built, parsed)
  }

  func testURILines_readAsTheirDecodedText() throws {
    var data = Data(mediaText("#EXTINF:4,\nvidéo/a b.ts\n#EXTINF:4,\nx.ts\n").utf8)
    data.append(contentsOf: Array("#EXTINF:4,\nbad".utf8) + [0xFF] + Array(".ts\n".utf8))
    let segments = try media(try PlaylistParser.parse(data, url: url)).segments
    data.resetBytes(in: 0..<data.count)
    XCTAssertEqual(segments.map(\.uriString), ["vidéo/a b.ts", "x.ts", "bad\u{FFFD}.ts"])
    var copy = segments[1]
    copy.uriString = "x.ts"
    XCTAssertEqual(copy, segments[1], "a string and a line with the same text are equal")
    copy.uriString = "y.ts"
    XCTAssertNotEqual(copy, segments[1])
    XCTAssertEqual(copy.uriString, "y.ts")
    var decomposed = segments[0]
    decomposed.uriString = "vide\u{301}o/a b.ts"
    XCTAssertEqual(decomposed, segments[0], "URIs compare as strings do")
  }

  func testRepeatedURILines_eachGetTheirSegmentAndRange() throws {
    let segments = try parsedSegments(
      """
      #EXTINF:4,
      #EXT-X-BYTERANGE:100@0
      all.ts
      #EXTINF:4,
      #EXT-X-BYTERANGE:200
      all.ts
      #EXTINF:4,
      other.ts
      #EXTINF:4,
      #EXT-X-BYTERANGE:50@10
      all.ts
      #EXTINF:4,
      #EXT-X-BYTERANGE:60
      all.ts

      """)
    XCTAssertEqual(segments.map(\.uriString), ["all.ts", "all.ts", "other.ts", "all.ts", "all.ts"])
    XCTAssertEqual(
      segments.map(\.byteRange),
      [
        ByteRange(offset: 0, length: 100), ByteRange(offset: 100, length: 200), nil,
        ByteRange(offset: 10, length: 50), ByteRange(offset: 60, length: 60),
      ])
    XCTAssertEqual(segments.map(\.mediaSequence), [0, 1, 2, 3, 4])
  }

  func testRepeatedURILineAfterAnOffsetlessRangeOfAnotherResource_startsAtZeroWithAWarning()
    throws
  {
    let text = mediaText(
      "#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXTINF:4,\nb.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:100\nb.ts\n"
    )
    let playlist = try PlaylistParser.parse(text, url: url)
    XCTAssertEqual(
      try media(playlist).segments.map(\.byteRange),
      [ByteRange(offset: 0, length: 100), nil, ByteRange(offset: 0, length: 100)])
    XCTAssertTrue(hasWarning(playlist, "offset 0 is used", line: 10))
  }

  func testRepeatedURILinesWithVariables_eachCountTowardTheExpansionLimit() throws {
    let value = String(repeating: "v", count: 100)
    let line = "#EXTINF:4,\n{$x}.ts\n"
    let text = mediaText(
      "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"\(value)\"\n" + String(repeating: line, count: 3))
    XCTAssertEqual(
      try media(
        try PlaylistParser.parse(text, url: url, limits: .init(maxVariableExpansionBytes: 300))
      ).segments.map(\.uriString), Array(repeating: value + ".ts", count: 3))
    do {
      _ = try PlaylistParser.parse(text, url: url, limits: .init(maxVariableExpansionBytes: 299))
      XCTFail("parsed despite the limit")
    } catch {
      XCTAssertEqual(error.kind, .limitExceeded)
      XCTAssertEqual(error.line, 10, "the third URI line")
    }
  }

  func testRepeatedForbiddenURILine_failsAtTheFirst() {
    let text = mediaText("#EXTINF:4,\nfile:///etc/passwd\n#EXTINF:4,\nfile:///etc/passwd\n")
    XCTAssertThrowsError(try PlaylistParser.parse(text, url: url)) { error in
      XCTAssertEqual((error as? PlaylistParseError)?.kind, .forbiddenURI)
      XCTAssertEqual((error as? PlaylistParseError)?.line, 5)
    }
  }
}
