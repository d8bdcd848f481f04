import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// What packagers in the wild write and peers accept where RFC 8216 says otherwise: each
/// is read as the RFC means it, with a warning naming the line (docs/hls-playlists.md,
/// leniency table).
enum LeniencyCases {
  static let all: [PlaylistCase] = [
    PlaylistCase(
      "media_withoutName_namedAfterItsLanguage_withAWarning",
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",LANGUAGE=\"fr\",URI=\"fr.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"aud\"\nv.m3u8\n",
      .parses { playlist in
        let rendition = try XCTUnwrap(try master(playlist).renditions.first)
        XCTAssertEqual(rendition.name, "fr")
        XCTAssertEqual(rendition.language, "fr")
        XCTAssertTrue(hasWarning(playlist, "EXT-X-MEDIA has no NAME", line: 2))
      }),
    PlaylistCase(
      "media_withoutNameOrLanguage_namedAfterItsGroup_withAWarning",
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"g\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .parses { playlist in
        XCTAssertEqual(try master(playlist).renditions.map(\.name), ["g"])
        XCTAssertTrue(hasWarning(playlist, "'g' (its LANGUAGE or GROUP-ID) is used", line: 2))
      }),
    PlaylistCase(
      "streamInf_withoutBandwidth_isZero_withAWarning",
      "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=5\nw.m3u8\n",
      .parses { playlist in
        XCTAssertEqual(try master(playlist).variants.map(\.bandwidth), [0, 5])
        XCTAssertTrue(hasWarning(playlist, "EXT-X-STREAM-INF has no BANDWIDTH; 0 is used", line: 2))
        XCTAssertEqual(playlist.warnings.count, 1)
      }),
    PlaylistCase(
      "streamInf_decimalBandwidth_isRounded_withAWarning",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000.6\nv.m3u8\n",
      .parses { playlist in
        let variant = try XCTUnwrap(try master(playlist).variants.first)
        XCTAssertEqual(variant.bandwidth, 1_280_001)
        XCTAssertEqual(variant.attributes["BANDWIDTH"], "1280000.6")
        XCTAssertTrue(hasWarning(playlist, "is not an integer; 1280001 is used", line: 2))
      }),
    PlaylistCase(
      "map_underAES128KeyWithoutIV_takesTheNextSegmentsSequence_withAWarning",
      mediaText(
        "#EXT-X-MEDIA-SEQUENCE:40\n#EXTINF:4,\na.ts\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4,\nb.m4s\n#EXTINF:4,\nc.m4s\n"
      ),
      .parses { playlist in
        let p = try media(playlist)
        let map = try XCTUnwrap(p.segments[1].map)
        XCTAssertEqual(map.impliedIVSequence, 41)
        XCTAssertEqual(map.iv, EncryptionKey.sequenceIV(41))
        XCTAssertEqual(p.segments[2].map, map)
        XCTAssertEqual(p.segments[2].iv, EncryptionKey.sequenceIV(42))
        XCTAssertTrue(hasWarning(playlist, "which has no IV", line: 8))
      }),
    PlaylistCase(
      "map_underAES128KeyWithoutIV_sequenceTagAfterTheSegments_movesTheMapsIV",
      "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4,\na.m4s\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-TARGETDURATION:4\n",
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].mediaSequence, 7)
        XCTAssertEqual(p.segments[0].map?.impliedIVSequence, 7)
      }),
    PlaylistCase(
      "map_underAES128KeyWithIV_usesTheKeysIV_noWarning",
      mediaText(
        "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x2a\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4,\na.m4s\n"
      ),
      .parses { playlist in
        let map = try XCTUnwrap(try media(playlist).segments[0].map)
        XCTAssertNil(map.impliedIVSequence)
        XCTAssertEqual(map.iv?.last, 0x2a)
        XCTAssertTrue(playlist.warnings.isEmpty)
      }),
    PlaylistCase(
      "byteRange_withoutOffsetAfterAnotherResource_startsAtZero_withAWarning",
      mediaText(
        "#EXTINF:4,\n#EXT-X-BYTERANGE:1000@0\na.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:500\nb.ts\n"),
      .parses { playlist in
        XCTAssertEqual(
          try media(playlist).segments.map(\.byteRange),
          [ByteRange(offset: 0, length: 1000), ByteRange(offset: 0, length: 500)])
        XCTAssertTrue(hasWarning(playlist, "offset 0 is used", line: 8))
      }),
    PlaylistCase(
      "byteRange_withoutOffsetOnTheFirstSegment_startsAtZero_withAWarning",
      mediaText("#EXTINF:4,\n#EXT-X-BYTERANGE:1000\nall.ts\n"),
      .parses { playlist in
        XCTAssertEqual(
          try media(playlist).segments.map(\.byteRange), [ByteRange(offset: 0, length: 1000)])
        XCTAssertTrue(hasWarning(playlist, "offset 0 is used", line: 5))
      }),
    PlaylistCase(
      "mapByteRange_withoutOffsetAndNoPreviousRange_startsAtZero_withAWarning",
      mediaText(
        "#EXT-X-MAP:URI=\"main.mp4\",BYTERANGE=\"720\"\n#EXTINF:4,\n#EXT-X-BYTERANGE:5000\nmain.mp4\n"
      ),
      .parses { playlist in
        let segment = try media(playlist).segments[0]
        XCTAssertEqual(segment.map?.byteRange, ByteRange(offset: 0, length: 720))
        XCTAssertEqual(segment.byteRange, ByteRange(offset: 720, length: 5000))
        XCTAssertTrue(hasWarning(playlist, "EXT-X-MAP BYTERANGE has no offset", line: 4))
      }),
    PlaylistCase(
      "key_methodsPlayheadCannotDecrypt_areKept_withAWarningEach",
      mediaText(
        """
        #EXT-X-KEY:METHOD=AES-256,URI="k1"
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=AES-256-CTR,URI="k2",IV=0x1
        #EXTINF:4,
        b.ts
        #EXT-X-KEY:METHOD=AES-256-GCM,URI="k3"
        #EXTINF:4,
        c.ts
        #EXT-X-KEY:METHOD=SAMPLE-AES-CENC,URI="data:text/plain;base64,AAAA"
        #EXTINF:4,
        d.ts
        #EXT-X-KEY:METHOD=ROT-13,URI="k5"
        #EXTINF:4,
        e.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.segments.map { $0.key?.method },
          [.aes256, .aes256CTR, .aes256GCM, .sampleAESCENC, KeyMethod(rawValue: "ROT-13")])
        XCTAssertFalse(KeyMethod(rawValue: "ROT-13").isKnown)
        XCTAssertNil(p.segments[0].iv, "only AES-128 takes its IV from the sequence")
        for line in [4, 7, 10, 13, 16] {
          XCTAssertTrue(hasWarning(playlist, "cannot be played", line: line), "line \(line)")
        }
      }),
    PlaylistCase(
      "key_customSchemeIdentityKeys_areNotAnOriginViolation",
      mediaText(
        """
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-1"
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=AES-128,URI="data:;base64,AAECAwQFBgcICQoLDA0ODw=="
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].key?.uriString, "skd://key-1")
        XCTAssertEqual(p.segments[0].key?.isLoadable, false)
        XCTAssertEqual(p.segments[1].key?.inlineKey, Array(0..<16))
      }),
    PlaylistCase(
      "key_percentEncodedDataURI_decodesInline",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"data:,%00%01AB%ff\"\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments[0].key?.inlineKey, [0, 1, 0x41, 0x42, 0xFF])
      }),
    PlaylistCase(
      "define_substitutionThatProducesAReference_roundTripsAsWritten",
      "#EXTM3U\n#EXT-X-DEFINE:NAME=\"o\",VALUE=\"{\"\n#EXT-X-DEFINE:NAME=\"b\",VALUE=\"x\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"{$o}$b}\",NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$o}$b}.m3u8\n",
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.variants.map(\.uriString), ["{$b}.m3u8"])
        XCTAssertEqual(m.renditions.map(\.groupID), ["{$b}"])
        let written = PlaylistWriter.write(playlist)
        XCTAssertTrue(written.contains("\n{$o}$b}.m3u8\n"), written)
      }),
    PlaylistCase(
      "define_mediaPlaylistValuesWithReferences_roundTripAsWritten",
      mediaText(
        """
        #EXT-X-DEFINE:NAME="o",VALUE="{"
        #EXT-X-DEFINE:NAME="ref",VALUE="{$o}"
        #EXT-X-MAP:URI="{$o}$ref}/init.mp4"
        #EXTINF:4,
        {$ref}$o}a.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].map?.uriString, "{$ref}/init.mp4")
        XCTAssertEqual(p.segments[0].uriString, "{$o}$o}a.ts", "substitution is one pass")
      }),
  ]

  static let failures: [PlaylistCase] = [
    PlaylistCase("emptyInput_failsAsEmpty", "", .fails(.emptyPlaylist, line: 0)),
    PlaylistCase("bomOnly_failsAsEmpty", "\u{FEFF}", .fails(.emptyPlaylist, line: 1)),
    PlaylistCase("blankLinesOnly_failsAsEmpty", "\n \r\n\t\n", .fails(.emptyPlaylist, line: 1)),
    PlaylistCase(
      "key_fileKeyFromANetworkPlaylist_staysForbidden",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"file:///etc/key\"\n#EXTINF:4,\na.ts\n"),
      .fails(.forbiddenURI, line: 4)),
    PlaylistCase(
      "key_emptyMethod_fails",
      mediaText("#EXT-X-KEY:METHOD=,URI=\"k\"\n#EXTINF:4,\na.ts\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "streamInf_bandwidthThatIsNotANumber_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=fast\nv.m3u8\n",
      .fails(.invalidValue, line: 2)),
  ]
}
