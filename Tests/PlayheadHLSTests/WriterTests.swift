import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// What the writer writes, beyond the round trip of every parsing case.
final class WriterTests: XCTestCase {
  private let url = URL(string: "https://example.com/live/index.m3u8")!

  private func written(_ text: String) throws -> [String] {
    PlaylistWriter.write(try PlaylistParser.parse(text, url: url))
      .split(separator: "\n").map(String.init)
  }

  func testMedia_writesInheritedOffsetsExplicitlyAndKeysOnlyWhereTheyChange() throws {
    let lines = try written(
      mediaText(
        """
        #EXT-X-KEY:METHOD=AES-128,URI="k1"
        #EXTINF:4,
        #EXT-X-BYTERANGE:100@0
        a.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:200
        a.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:2.002,
        b.ts

        """))
    XCTAssertEqual(
      lines,
      [
        "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:10",
        "#EXT-X-KEY:METHOD=AES-128,URI=\"k1\"", "#EXTINF:4,", "#EXT-X-BYTERANGE:100@0", "a.ts",
        "#EXTINF:4,", "#EXT-X-BYTERANGE:200@100", "a.ts", "#EXT-X-KEY:METHOD=NONE",
        "#EXTINF:2.002,", "b.ts",
      ])
  }

  func testMedia_mapKeysAreRestoredBeforeTheMap() throws {
    let text = mediaText(
      """
      #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x01
      #EXT-X-MAP:URI="init.mp4"
      #EXT-X-KEY:METHOD=AES-128,URI="k2"
      #EXTINF:4,
      a.m4s

      """)
    let first = try PlaylistParser.parse(text, url: url)
    let lines = PlaylistWriter.write(first).split(separator: "\n").map(String.init)
    XCTAssertEqual(
      Array(lines[3...6]),
      [
        "#EXT-X-KEY:METHOD=AES-128,URI=\"k1\",IV=0x00000000000000000000000000000001",
        "#EXT-X-MAP:URI=\"init.mp4\"", "#EXT-X-KEY:METHOD=AES-128,URI=\"k2\"", "#EXTINF:4,",
      ])
  }

  func testMaster_keepsRawAttributeTextWhenItMeansTheSame() throws {
    let lines = try written(
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=0100,FRAME-RATE=29.970,RESOLUTION=640X360,VIDEO-RANGE=PQ,SUPPLEMENTAL-CODECS=\"x\"\nv.m3u8\n"
    )
    XCTAssertEqual(
      lines[1],
      "#EXT-X-STREAM-INF:BANDWIDTH=0100,RESOLUTION=640X360,FRAME-RATE=29.970,SUPPLEMENTAL-CODECS=\"x\",VIDEO-RANGE=PQ"
    )
  }

  func testMaster_changedTypedValueWinsOverRawText() throws {
    var master = try XCTUnwrap(
      try PlaylistParser.parse(
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=0100,RESOLUTION=640x360\nv.m3u8\n", url: url
      ).masterPlaylist)
    master.variants[0].bandwidth = 250
    master.variants[0].resolution = Resolution(width: 1280, height: 720)
    let text = PlaylistWriter.write(.master(master))
    XCTAssertTrue(text.contains("#EXT-X-STREAM-INF:BANDWIDTH=250,RESOLUTION=1280x720\n"), text)
  }

  func testHandBuiltMediaPlaylist_isWrittenAndReadBack() throws {
    var segment = MediaSegment(
      uri: URL(string: "https://cdn.example.com/a.ts")!,
      duration: MediaTime(value: 1001, timescale: 250),
      title: "one", byteRange: ByteRange(offset: 10, length: 20),
      keys: [EncryptionKey(method: .aes128, uri: URL(string: "https://keys.example.com/k")!)])
    segment.setProgramDateTime(Date(timeIntervalSince1970: 1_700_000_000.25))
    let playlist = MediaPlaylist(
      url: url, version: 4, targetDuration: 5, mediaSequence: 3, playlistType: .vod, endList: true,
      segments: [segment])
    let text = PlaylistWriter.write(.media(playlist))
    XCTAssertTrue(text.contains("#EXTINF:4.004,one\n"), text)
    XCTAssertTrue(text.contains("#EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:13:20.250Z\n"), text)
    let parsed = try media(try PlaylistParser.parse(text, url: url))
    XCTAssertEqual(parsed.segments[0].uri.absoluteString, "https://cdn.example.com/a.ts")
    XCTAssertEqual(parsed.segments[0].duration, MediaTime(value: 1001, timescale: 250))
    XCTAssertEqual(parsed.segments[0].byteRange, ByteRange(offset: 10, length: 20))
    XCTAssertEqual(parsed.segments[0].key?.uri?.absoluteString, "https://keys.example.com/k")
    XCTAssertEqual(parsed.segments[0].mediaSequence, 3)
    XCTAssertEqual(parsed.segments[0].iv, [UInt8](repeating: 0, count: 15) + [3])
    XCTAssertEqual(
      parsed.segments[0].programDateTime?.timeIntervalSince1970 ?? 0, 1_700_000_000.25,
      accuracy: 1e-6)
  }

  func testDecimalFormatting_isExactForParsedTimesAndHasNoExponent() throws {
    let text = mediaText(
      "#EXTINF:0.000000001,\na.ts\n#EXTINF:123456789.5,\nb.ts\n#EXT-X-START:TIME-OFFSET=-0.5\n")
    let lines = try written(text)
    XCTAssertTrue(lines.contains("#EXTINF:0.000000001,"), "\(lines)")
    XCTAssertTrue(lines.contains("#EXTINF:123456789.5,"), "\(lines)")
    XCTAssertTrue(lines.contains("#EXT-X-START:TIME-OFFSET=-0.5"), "\(lines)")
    var master = MasterPlaylist(url: url)
    master.variants = [Variant(uri: url, bandwidth: 1, frameRate: 0.00001)]
    XCTAssertTrue(PlaylistWriter.write(.master(master)).contains("FRAME-RATE=0.00001"))
    master.variants = [Variant(uri: url, bandwidth: 1, frameRate: 1e21)]
    XCTAssertTrue(
      PlaylistWriter.write(.master(master)).contains("FRAME-RATE=1000000000000000000000"))
  }

  func testUnknownTagsAndDateRanges_goBackToTheirPositions() throws {
    let text = mediaText(
      """
      #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z
      #EXTINF:4,
      a.ts
      #EXT-X-CUE-OUT:10
      #EXT-X-DATERANGE:ID="d",START-DATE="2024-01-01T00:00:04Z"
      #EXTINF:4,
      b.ts
      #EXT-X-VENDOR-END

      """)
    let lines = try written(text)
    let cue = try XCTUnwrap(lines.firstIndex(of: "#EXT-X-CUE-OUT:10"))
    XCTAssertEqual(lines[cue - 1], "a.ts")
    XCTAssertEqual(lines[cue + 1], "#EXT-X-DATERANGE:ID=\"d\",START-DATE=\"2024-01-01T00:00:04Z\"")
    XCTAssertEqual(lines.last, "#EXT-X-VENDOR-END")
  }

  func testPlaylistDateText_formatsAndParses() {
    let date = Date(timeIntervalSince1970: 1_709_287_200.5)
    XCTAssertEqual(PlaylistDateText.string(from: date), "2024-03-01T10:00:00.500Z")
    XCTAssertEqual(PlaylistDateText.date(from: "2024-03-01T11:00:00.5+01:00"), date)
    XCTAssertEqual(PlaylistDateText.date(from: "2024-03-01T10:00:00.5"), date, "no zone is UTC")
    XCTAssertNil(PlaylistDateText.date(from: "2024-02-30T10:00:00Z"))
    XCTAssertNil(PlaylistDateText.date(from: "2024-03-01"))
    XCTAssertEqual(
      PlaylistDateText.string(from: Date(timeIntervalSince1970: -86_400)),
      "1969-12-31T00:00:00.000Z")
  }
}
