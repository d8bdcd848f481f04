import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Ad marker tags in media playlists: kept where they stand, read leniently, written back
/// (every case here also runs through the writer's round trip).
enum AdMarkerCases {
  /// A VOD playlist of 6 segments of 4 s with `markers` before segment 2 (8 s) and
  /// `after` before segment 4; TS segments, or fMP4 ones behind an `EXT-X-MAP`.
  static func vod(_ markers: String, after: String = "", fmp4: Bool = false) -> String {
    let map = fmp4 ? "#EXT-X-MAP:URI=\"init.mp4\"\n" : ""
    let ext = fmp4 ? "m4s" : "ts"
    var body = map
    for index in 0..<6 {
      if index == 2 { body += markers.isEmpty ? "" : markers + "\n" }
      if index == 4 { body += after.isEmpty ? "" : after + "\n" }
      body += "#EXTINF:4,\nseg\(index).\(ext)\n"
    }
    return mediaText(body + "#EXT-X-ENDLIST\n", target: 4)
  }

  static let all: [PlaylistCase] = [
    PlaylistCase(
      "adMarkers_cueOutNumberAndAttribute_cueIn_TS",
      vod("#EXT-X-CUE-OUT:8", after: "#EXT-X-CUE-IN"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.adMarkers,
          [AdMarker(kind: .cueOut, value: "8", position: 2), AdMarker(kind: .cueIn, position: 4)])
        XCTAssertEqual(p.adMarkers[0].duration, time(8))
        XCTAssertNil(p.adMarkers[1].duration)
        XCTAssertEqual(Array(p.adMarkers(beforeSegmentAt: 2)), [p.adMarkers[0]])
        XCTAssertEqual(Array(p.adMarkers(beforeSegmentAt: 4)), [p.adMarkers[1]])
        XCTAssertTrue(p.adMarkers(beforeSegmentAt: 3).isEmpty)
        XCTAssertTrue(p.unknownTags.isEmpty)
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "adMarkers_cueOutDurationAttribute_contBothForms_fMP4",
      vod(
        "#EXT-X-CUE-OUT:DURATION=30.000\n#EXTINF:4,\nx.m4s\n#EXT-X-CUE-OUT-CONT:ElapsedTime=4.000,Duration=30,SCTE35=/DAhAA==",
        after: "#EXT-X-CUE-OUT-CONT:8.0/30", fmp4: true),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.adMarkers.map(\.kind), [.cueOut, .cueOutCont, .cueOutCont])
        XCTAssertEqual(p.adMarkers[0].duration, time(30))
        XCTAssertEqual(p.adMarkers[1].elapsedTime, time(4))
        XCTAssertEqual(p.adMarkers[1].duration, time(30))
        XCTAssertEqual(p.adMarkers[1].scte35Text, "/DAhAA==")
        XCTAssertEqual(p.adMarkers[2].elapsedTime, time(8))
        XCTAssertEqual(p.adMarkers[2].duration, time(30))
        XCTAssertEqual(p.adMarkers.map(\.position), [2, 3, 5])
        XCTAssertNotNil(p.segments[2].map, "fMP4 segments keep their map")
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "adMarkers_oatclsAndScte35Tags_keepTheirSections",
      vod(
        "#EXT-OATCLS-SCTE35:/DAlAAAAAV+QAP/wFAUAABI0f+/+AHuYoP4AKTLgAAcBAgAAD9zsIw==\n#EXT-X-CUE-OUT:30",
        after: "#EXT-X-SCTE35:CUE=\"/DAl\",DURATION=30,ELAPSED=8"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.adMarkers.map(\.kind), [.oatclsSCTE35, .cueOut, .scte35])
        XCTAssertEqual(
          p.adMarkers[0].scte35Text, "/DAlAAAAAV+QAP/wFAUAABI0f+/+AHuYoP4AKTLgAAcBAgAAD9zsIw==")
        XCTAssertEqual(p.adMarkers[2].scte35Text, "/DAl")
        XCTAssertEqual(p.adMarkers[2].duration, time(30))
        XCTAssertEqual(p.adMarkers[2].elapsedTime, time(8))
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "adMarkers_bareAndEmptyValues_areKeptApart",
      vod("#EXT-X-CUE-OUT\n#EXT-X-CUE-IN:"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.adMarkers[0].value)
        XCTAssertEqual(p.adMarkers[1].value, "")
        XCTAssertNil(p.adMarkers[0].duration)
        XCTAssertNil(p.adMarkers[0].problem)
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "adMarkers_malformedValues_warnAndAreKeptAsWritten",
      vod(
        "#EXT-X-CUE-OUT:soon\n#EXT-X-CUE-OUT-CONT:8/x\n#EXT-OATCLS-SCTE35:not*base64",
        after: "#EXT-X-CUE-OUT-CONT:ElapsedTime=abc,Duration=30"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.adMarkers.count, 4)
        XCTAssertEqual(p.adMarkers[0].value, "soon")
        XCTAssertNil(p.adMarkers[0].duration)
        XCTAssertNotNil(p.adMarkers[0].problem)
        XCTAssertNil(p.adMarkers[1].duration)
        XCTAssertNil(p.adMarkers[2].scte35Text)
        XCTAssertNil(p.adMarkers[3].elapsedTime)
        XCTAssertEqual(p.adMarkers[3].duration, time(30), "the readable part is still read")
        XCTAssertTrue(hasWarning(playlist, "EXT-X-CUE-OUT 'soon' is neither", line: 8))
        XCTAssertTrue(hasWarning(playlist, "EXT-X-CUE-OUT-CONT '8/x'", line: 9))
        XCTAssertTrue(hasWarning(playlist, "EXT-OATCLS-SCTE35 the SCTE-35 section", line: 10))
        XCTAssertTrue(hasWarning(playlist, "ELAPSEDTIME 'abc' is not a decimal number"))
        XCTAssertEqual(p.segments.count, 6, "nothing is lost")
      }),
    PlaylistCase(
      "adMarkers_liveWindow_markersAfterTheLastSegment",
      "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:100\n"
        + "#EXT-X-CUE-OUT-CONT:ElapsedTime=12,Duration=30\n#EXTINF:6,\na.ts\n#EXT-X-CUE-IN\n#EXTINF:6,\nb.ts\n#EXT-X-CUE-OUT:20\n",
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.adMarkers.map(\.position), [0, 1, 2])
        XCTAssertEqual(Array(p.adMarkers(beforeSegmentAt: 2)).map(\.kind), [.cueOut])
      }),
    PlaylistCase(
      "adMarkers_inAMasterPlaylist_warnAndStayUnknown",
      "#EXTM3U\n#EXT-X-CUE-OUT:30\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .parses { playlist in
        XCTAssertTrue(hasWarning(playlist, "EXT-X-CUE-OUT belongs in a media playlist", line: 2))
        XCTAssertEqual(try master(playlist).unknownTags.count, 1)
      }),
  ]
}

/// What the cases above cannot say: limits, hand-built markers and exact writing.
final class AdMarkerTests: XCTestCase {
  private let url = URL(string: "https://example.com/live/index.m3u8")!

  func testMarkers_areBoundedByTheSegmentLimit() {
    let text = AdMarkerCases.vod(String(repeating: "#EXT-X-CUE-IN\n", count: 11))
    let limits = PlaylistParserLimits(maxSegments: 10)
    XCTAssertThrowsError(try PlaylistParser.parse(text, url: url, limits: limits)) { error in
      XCTAssertEqual((error as? PlaylistParseError)?.kind, .limitExceeded)
    }
    XCTAssertNoThrow(
      try PlaylistParser.parse(
        AdMarkerCases.vod(String(repeating: "#EXT-X-CUE-IN\n", count: 10)), url: url,
        limits: limits))
  }

  func testWriter_putsMarkersBackAsWrittenBeforeTheirSegment() throws {
    let text = AdMarkerCases.vod(
      "#EXT-OATCLS-SCTE35:/DAhAA==\n#EXT-X-CUE-OUT:DURATION=8",
      after: "#EXT-X-CUE-OUT-CONT:8.0/30\n#EXT-X-CUE-IN", fmp4: true)
    let lines = PlaylistWriter.write(try PlaylistParser.parse(text, url: url))
      .split(separator: "\n").map(String.init)
    let out = try XCTUnwrap(lines.firstIndex(of: "#EXT-OATCLS-SCTE35:/DAhAA=="))
    XCTAssertEqual(
      Array(lines[out...(out + 3)]),
      ["#EXT-OATCLS-SCTE35:/DAhAA==", "#EXT-X-CUE-OUT:DURATION=8", "#EXTINF:4,", "seg2.m4s"])
    let cont = try XCTUnwrap(lines.firstIndex(of: "#EXT-X-CUE-OUT-CONT:8.0/30"))
    XCTAssertEqual(
      Array(lines[cont...(cont + 2)]),
      ["#EXT-X-CUE-OUT-CONT:8.0/30", "#EXT-X-CUE-IN", "#EXTINF:4,"])
  }

  func testHandBuiltMarkers_areWrittenAndReadBack() throws {
    var playlist = MediaPlaylist(url: url, targetDuration: 4, endList: true)
    for index in 0..<3 {
      playlist.segments.append(
        MediaSegment(uri: URL(string: "https://cdn.example.com/\(index).ts")!, duration: time(4)))
    }
    playlist.adMarkers = [
      AdMarker(kind: .cueOut, value: "4", position: 1),
      AdMarker(kind: .cueIn, position: 2),
    ]
    XCTAssertEqual(playlist.adMarkers[0].text, "#EXT-X-CUE-OUT:4")
    let parsed = try XCTUnwrap(
      try PlaylistParser.parse(PlaylistWriter.write(.media(playlist)), url: url).mediaPlaylist)
    XCTAssertEqual(parsed.adMarkers, playlist.adMarkers)
  }
}
