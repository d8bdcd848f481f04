import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for segment tags: EXTINF, sequence numbers, discontinuities, byte ranges, GAP,
/// BITRATE and URI resolution.
enum MediaSegmentCases {
  static let all: [PlaylistCase] = [
    PlaylistCase(
      "vod_threeSegments_durationsExactAndURIsResolved",
      """
      #EXTM3U
      #EXT-X-VERSION:3
      #EXT-X-TARGETDURATION:10
      #EXT-X-PLAYLIST-TYPE:VOD
      #EXTINF:9.009,
      seg0.ts
      #EXTINF:9.009,
      seg1.ts
      #EXTINF:3.003,
      seg2.ts
      #EXT-X-ENDLIST
      """,
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.version, 3)
        XCTAssertEqual(p.targetDuration, 10)
        XCTAssertEqual(p.playlistType, .vod)
        XCTAssertTrue(p.endList)
        XCTAssertEqual(p.segments.count, 3)
        XCTAssertEqual(p.segments[0].duration, time(9009, 1000))
        XCTAssertEqual(p.segments[0].duration.value, 9009)
        XCTAssertEqual(p.segments[0].duration.timescale, 1000)
        XCTAssertEqual(p.segments[2].uriString, "seg2.ts")
        XCTAssertEqual(p.segments[2].uri.absoluteString, "https://example.com/live/seg2.ts")
        XCTAssertEqual(p.totalDuration, time(21021, 1000))
        XCTAssertEqual(p.segments.map(\.mediaSequence), [0, 1, 2])
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "extinf_title_keptAfterComma_emptyTitleIsNil",
      mediaText("#EXTINF:5.0,Intro: part 1, the start\na.ts\n#EXTINF:5,\nb.ts\n#EXTINF:5\nc.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].title, "Intro: part 1, the start")
        XCTAssertNil(p.segments[1].title)
        XCTAssertNil(p.segments[2].title)
        XCTAssertEqual(p.segments[2].duration, time(5))
      }),
    PlaylistCase(
      "extinf_nineFractionDigits_exact_moreAreRounded",
      mediaText("#EXTINF:0.033366666,\na.ts\n#EXTINF:1.0000000005,\nb.ts\n#EXTINF:2.002,\nc.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].duration, time(33_366_666, 1_000_000_000))
        XCTAssertEqual(p.segments[1].duration, time(1_000_000_001, 1_000_000_000))
        XCTAssertEqual(p.segments[2].duration, time(2002, 1000))
      }),
    PlaylistCase(
      "mediaSequence_numbersSegmentsFromIt",
      mediaText(
        "#EXT-X-MEDIA-SEQUENCE:100\n#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n#EXTINF:4,\nc.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.mediaSequence, 100)
        XCTAssertEqual(p.segments.map(\.mediaSequence), [100, 101, 102])
      }),
    PlaylistCase(
      "sequenceAndTargetTagsAfterSegments_stillApplyToAllOfThem",
      "#EXTM3U\n#EXTINF:12,\na.ts\n#EXT-X-MEDIA-SEQUENCE:5\n#EXT-X-DISCONTINUITY-SEQUENCE:2\n#EXT-X-TARGETDURATION:10\n#EXT-X-DISCONTINUITY\n#EXTINF:4,\nb.ts\n",
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments.map(\.mediaSequence), [5, 6])
        XCTAssertEqual(p.segments.map(\.discontinuitySequence), [2, 3])
        XCTAssertTrue(
          hasWarning(playlist, "EXT-X-MEDIA-SEQUENCE comes after the first segment", line: 4))
        XCTAssertTrue(hasWarning(playlist, "longer than EXT-X-TARGETDURATION 10", line: 2))
        XCTAssertFalse(hasWarning(playlist, "longer than", line: 8))
      }),
    PlaylistCase(
      "discontinuitySequenceAfterSegments_stillAppliesToAllOfThem",
      mediaText("#EXTINF:4,\na.ts\n#EXT-X-DISCONTINUITY-SEQUENCE:7\n#EXTINF:4,\nb.ts\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments.map(\.discontinuitySequence), [7, 7])
        XCTAssertTrue(hasWarning(playlist, "EXT-X-DISCONTINUITY-SEQUENCE comes after", line: 6))
      }),
    PlaylistCase(
      "skipAfterSegments_stillOffsetsAllOfThem",
      mediaText(
        "#EXT-X-MEDIA-SEQUENCE:10\n#EXTINF:4,\na.ts\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:4,\nb.ts\n"
      ),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments.map(\.mediaSequence), [13, 14])
      }),
    PlaylistCase(
      "discontinuity_countsRunsFromZero",
      mediaText(
        """
        #EXTINF:4,
        a.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:4,
        d.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments.map(\.discontinuity), [false, true, false, true])
        XCTAssertEqual(p.segments.map(\.discontinuitySequence), [0, 1, 1, 2])
      }),
    PlaylistCase(
      "discontinuitySequence_isTheBase_andATagOnTheFirstSegmentCounts",
      mediaText(
        """
        #EXT-X-DISCONTINUITY-SEQUENCE:5
        #EXT-X-DISCONTINUITY
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:4,
        c.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.discontinuitySequence, 5)
        XCTAssertEqual(p.segments.map(\.discontinuitySequence), [6, 6, 7])
      }),
    PlaylistCase(
      "byteRange_explicitOffsets",
      mediaText(
        "#EXTINF:4,\n#EXT-X-BYTERANGE:1000@0\nall.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:500@4000\nall.ts\n"
      ),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].byteRange, ByteRange(offset: 0, length: 1000))
        XCTAssertEqual(p.segments[1].byteRange, ByteRange(offset: 4000, length: 500))
      }),
    PlaylistCase(
      "byteRange_omittedOffset_continuesAfterThePreviousRange",
      mediaText(
        """
        #EXTINF:4,
        #EXT-X-BYTERANGE:1000@100
        all.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:2000
        all.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:1500
        all.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.segments.compactMap(\.byteRange),
          [
            ByteRange(offset: 100, length: 1000), ByteRange(offset: 1100, length: 2000),
            ByteRange(offset: 3100, length: 1500),
          ])
      }),
    PlaylistCase(
      "byteRange_byteRangeTagAfterExtinfOrBefore_bothApplyToTheNextURI",
      mediaText(
        "#EXT-X-BYTERANGE:10@0\n#EXTINF:4,\nall.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:20\nall.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[1].byteRange, ByteRange(offset: 10, length: 20))
      }),
    PlaylistCase(
      "gap_marksOnlyItsSegment",
      mediaText("#EXTINF:4,\na.ts\n#EXT-X-GAP\n#EXTINF:4,\nb.ts\n#EXTINF:4,\nc.ts\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments.map(\.gap), [false, true, false])
      }),
    PlaylistCase(
      "bitrate_appliesUntilTheNextBitrateTag",
      mediaText(
        "#EXTINF:4,\na.ts\n#EXT-X-BITRATE:800\n#EXTINF:4,\nb.ts\n#EXTINF:4,\nc.ts\n#EXT-X-BITRATE:1200\n#EXTINF:4,\nd.ts\n"
      ),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments.map(\.bitrate), [nil, 800, 800, 1200])
      }),
    PlaylistCase(
      "uris_relativeAbsoluteAndNetworkPath_resolveAgainstThePlaylist",
      mediaText(
        """
        #EXTINF:4,
        ../other/a.ts
        #EXTINF:4,
        /root/b.ts
        #EXTINF:4,
        //cdn.example.net/c.ts
        #EXTINF:4,
        http://plain.example.org/d.ts?token=x&y=1
        #EXTINF:4,
        sub dir/é.ts

        """),
      .parses { playlist in
        let uris = try media(playlist).segments.map(\.uri.absoluteString)
        XCTAssertEqual(
          uris,
          [
            "https://example.com/other/a.ts", "https://example.com/root/b.ts",
            "https://cdn.example.net/c.ts", "http://plain.example.org/d.ts?token=x&y=1",
            "https://example.com/live/sub%20dir/%C3%A9.ts",
          ])
        XCTAssertEqual(try media(playlist).segments[4].uriString, "sub dir/é.ts")
      }),
    PlaylistCase(
      "endListAndEventType",
      mediaText("#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.playlistType, .event)
        XCTAssertTrue(p.endList)
      }),
    PlaylistCase(
      "playlistType_unknownValue_warnsAndKeepsTheTag",
      mediaText("#EXT-X-PLAYLIST-TYPE:LIVE\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.playlistType)
        XCTAssertTrue(hasWarning(playlist, "EXT-X-PLAYLIST-TYPE 'LIVE'", line: 4))
        XCTAssertEqual(p.unknownTags.map(\.text), ["#EXT-X-PLAYLIST-TYPE:LIVE"])
      }),
    PlaylistCase(
      "iFramesOnly_withByteRanges",
      mediaText(
        """
        #EXT-X-I-FRAMES-ONLY
        #EXTINF:2.0,
        #EXT-X-BYTERANGE:9400@376
        main.ts
        #EXTINF:2.0,
        #EXT-X-BYTERANGE:7144@121260
        main.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertTrue(p.iFramesOnly)
        XCTAssertEqual(p.segments[1].byteRange, ByteRange(offset: 121_260, length: 7144))
      }),
    PlaylistCase(
      "independentSegmentsAndNegativePreciseStart",
      mediaText(
        "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES\n#EXTINF:4,\na.ts\n"
      ),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertTrue(p.independentSegments)
        XCTAssertEqual(p.start, StartPoint(timeOffset: time(-125, 10), precise: true))
      }),
    PlaylistCase(
      "start_withoutTimeOffset_warnsAndKeepsTheTag",
      mediaText("#EXT-X-START:PRECISE=YES\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertNil(try media(playlist).start)
        XCTAssertTrue(hasWarning(playlist, "EXT-X-START needs a decimal TIME-OFFSET"))
        XCTAssertEqual(try media(playlist).unknownTags.count, 1)
      }),
    PlaylistCase(
      "extinfLongerThanTarget_afterRounding_warnsOnItsLine",
      mediaText("#EXTINF:10.49,\na.ts\n#EXTINF:10.5,\nb.ts\n"),
      .parses { playlist in
        XCTAssertFalse(hasWarning(playlist, "longer than", line: 4))
        XCTAssertTrue(hasWarning(playlist, "longer than EXT-X-TARGETDURATION 10", line: 6))
      }),
    PlaylistCase(
      "targetDuration_missing_warnsAndUsesTheLongestRoundedSegment",
      "#EXTM3U\n#EXTINF:5.6,\na.ts\n#EXTINF:4,\nb.ts\n",
      .parses { playlist in
        XCTAssertEqual(try media(playlist).targetDuration, 6)
        XCTAssertTrue(hasWarning(playlist, "no EXT-X-TARGETDURATION"))
      }),
    PlaylistCase(
      "headerOnly_isAnEmptyMediaPlaylist",
      "#EXTM3U\n",
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertTrue(p.segments.isEmpty)
        XCTAssertEqual(p.targetDuration, 0)
        XCTAssertEqual(p.totalDuration, .zero)
      }),
    PlaylistCase(
      "crlfBomBlankLinesAndTrailingBlanks_areTolerated",
      "\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:6 \r\n\r\n#EXTINF:6.0,\t\r\n  seg.ts  \r\n\r\n#EXT-X-ENDLIST\r\n",
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.targetDuration, 6)
        XCTAssertEqual(p.segments.map(\.uriString), ["seg.ts"])
        XCTAssertTrue(p.endList)
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "comments_areIgnored_unknownTagsAndAdMarkers_areKeptWithTheirPositions",
      mediaText(
        """
        # a comment
        #EXT-X-CUE-OUT:30
        #EXTINF:4,
        a.ts
        #EXT-X-CUE-IN
        #EXT-X-ALLOW-CACHE:YES
        #EXTINF:4,
        b.ts
        #EXT-OTHER-VENDOR
        #EXT-X-ENDLIST

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.unknownTags,
          [
            UnknownTag(text: "#EXT-X-ALLOW-CACHE:YES", position: 1),
            UnknownTag(text: "#EXT-OTHER-VENDOR", position: 2),
          ])
        XCTAssertEqual(
          p.adMarkers,
          [
            AdMarker(kind: .cueOut, value: "30", position: 0),
            AdMarker(kind: .cueIn, position: 1),
          ])
        XCTAssertTrue(p.warnings.isEmpty)
      }),
    PlaylistCase(
      "masterTagInMediaPlaylist_warnsAndKeepsIt",
      mediaText("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\"\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertTrue(hasWarning(playlist, "EXT-X-MEDIA belongs in a master playlist", line: 4))
        XCTAssertEqual(try media(playlist).unknownTags.count, 1)
      }),
    PlaylistCase(
      "trailingExtinfWithoutURI_warns",
      mediaText("#EXTINF:4,\na.ts\n#EXTINF:4,\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments.count, 1)
        XCTAssertTrue(hasWarning(playlist, "the last EXTINF has no URI line", line: 6))
      }),
    PlaylistCase(
      "targetDuration_decimal_warnsAndRoundsUp",
      "#EXTM3U\n#EXT-X-TARGETDURATION:6.5\n#EXTINF:6,\na.ts\n",
      .parses { playlist in
        XCTAssertEqual(try media(playlist).targetDuration, 7)
        XCTAssertTrue(hasWarning(playlist, "is not an integer; rounded up", line: 2))
      }),
  ]
}
