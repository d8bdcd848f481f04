import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for the low-latency and delta-update tags.
enum LowLatencyCases {
  static let all: [PlaylistCase] = [
    PlaylistCase(
      "lowLatency_partsServerControlHintsAndReports",
      """
      #EXTM3U
      #EXT-X-VERSION:9
      #EXT-X-TARGETDURATION:4
      #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0,PART-HOLD-BACK=1.002,HOLD-BACK=12
      #EXT-X-PART-INF:PART-TARGET=0.334
      #EXT-X-MEDIA-SEQUENCE:266
      #EXT-X-MAP:URI="init.mp4"
      #EXT-X-PART:DURATION=0.334,URI="seg266.part0.mp4",INDEPENDENT=YES
      #EXT-X-PART:DURATION=0.334,URI="seg266.part1.mp4"
      #EXTINF:0.668,
      seg266.mp4
      #EXT-X-PART:DURATION=0.334,URI="seg267.part0.mp4",INDEPENDENT=YES
      #EXT-X-PART:DURATION=0.334,URI="seg267.part1.mp4",GAP=YES
      #EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg267.part2.mp4"
      #EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=266,LAST-PART=1
      #EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=266,LAST-PART=1
      """,
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.serverControl,
          ServerControl(
            canSkipUntil: time(24), holdBack: time(12), partHoldBack: time(1002, 1000),
            canBlockReload: true))
        XCTAssertEqual(p.partTargetDuration, time(334, 1000))
        XCTAssertEqual(p.segments.count, 1)
        XCTAssertEqual(
          p.segments[0].parts.map(\.uriString), ["seg266.part0.mp4", "seg266.part1.mp4"])
        XCTAssertEqual(p.segments[0].parts.map(\.independent), [true, false])
        XCTAssertEqual(p.trailingParts.map(\.uriString), ["seg267.part0.mp4", "seg267.part1.mp4"])
        XCTAssertEqual(p.trailingParts.map(\.gap), [false, true])
        XCTAssertEqual(p.preloadHints.first?.type, .part)
        XCTAssertEqual(
          p.preloadHints.first?.uri.absoluteString, "https://example.com/live/seg267.part2.mp4")
        XCTAssertEqual(p.renditionReports.map(\.lastMediaSequence), [266, 266])
        XCTAssertEqual(
          p.renditionReports[0].uri?.absoluteString, "https://example.com/1M/index.m3u8")
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "skip_offsetsTheMediaSequenceOfTheListedSegments",
      mediaText(
        """
        #EXT-X-MEDIA-SEQUENCE:100
        #EXT-X-SKIP:SKIPPED-SEGMENTS=20,RECENTLY-REMOVED-DATERANGES="ad1\tad2"
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.skip, SkipInfo(skippedSegments: 20, recentlyRemovedDateRanges: ["ad1", "ad2"]))
        XCTAssertEqual(p.segments.map(\.mediaSequence), [120, 121])
      }),
    PlaylistCase(
      "partByteRanges_omittedOffsetContinuesThePreviousPart",
      mediaText(
        """
        #EXT-X-PART:DURATION=1,URI="s.mp4",BYTERANGE="1000@0"
        #EXT-X-PART:DURATION=1,URI="s.mp4",BYTERANGE="1200"
        #EXTINF:2,
        #EXT-X-BYTERANGE:2200@0
        s.mp4

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.segments[0].parts.compactMap(\.byteRange),
          [ByteRange(offset: 0, length: 1000), ByteRange(offset: 1000, length: 1200)])
      }),
    PlaylistCase(
      "part_withoutDuration_warnsAndKeepsTheTag",
      mediaText("#EXT-X-PART:URI=\"p.mp4\"\n#EXTINF:1,\na.mp4\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertTrue(p.segments[0].parts.isEmpty)
        XCTAssertTrue(hasWarning(playlist, "EXT-X-PART needs URI and a decimal DURATION", line: 4))
        XCTAssertEqual(p.unknownTags.map(\.position), [0])
      }),
    PlaylistCase(
      "part_byteRangeWithoutOffsetOrPrevious_warnsInsteadOfFailing",
      mediaText("#EXT-X-PART:DURATION=1,URI=\"p.mp4\",BYTERANGE=\"100\"\n#EXTINF:1,\na.mp4\n"),
      .parses { playlist in
        XCTAssertTrue(hasWarning(playlist, "EXT-X-PART BYTERANGE has no offset"))
        XCTAssertTrue(try media(playlist).segments[0].parts.isEmpty)
      }),
    PlaylistCase(
      "preloadHintMap_withByteRange",
      mediaText(
        "#EXTINF:1,\na.mp4\n#EXT-X-PRELOAD-HINT:TYPE=MAP,URI=\"init.mp4\",BYTERANGE-START=0,BYTERANGE-LENGTH=800\n"
      ),
      .parses { playlist in
        XCTAssertEqual(
          try media(playlist).preloadHints,
          [
            PreloadHint(
              type: .map, uriString: "init.mp4", baseURL: PlaylistCase.defaultURL,
              byteRangeStart: 0,
              byteRangeLength: 800)
          ])
      }),
    PlaylistCase(
      "preloadHint_unknownType_warns_serverControlBadNumber_warns",
      mediaText(
        "#EXT-X-SERVER-CONTROL:HOLD-BACK=soon,CAN-SKIP-DATERANGES=YES\n#EXT-X-PRELOAD-HINT:TYPE=OTHER,URI=\"x\"\n"
      ),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertTrue(p.preloadHints.isEmpty)
        XCTAssertEqual(p.serverControl, ServerControl(canSkipDateRanges: true))
        XCTAssertTrue(hasWarning(playlist, "HOLD-BACK 'soon' is not a decimal number", line: 4))
        XCTAssertTrue(hasWarning(playlist, "EXT-X-PRELOAD-HINT needs TYPE", line: 5))
      }),
  ]
}
