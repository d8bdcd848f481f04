import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for EXT-X-KEY and EXT-X-MAP: methods, IVs, key rotation, key formats, byte
/// ranges of initialization sections.
enum EncryptionCases {
  static let all: [PlaylistCase] = [
    PlaylistCase(
      "keyAES128_withIV_appliesToFollowingSegments",
      mediaText(
        """
        #EXTINF:4,
        clear.ts
        #EXT-X-KEY:METHOD=AES-128,URI="keys/k1.bin",IV=0x000102030405060708090A0B0C0D0E0F
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.segments[0].key)
        XCTAssertNil(p.segments[0].iv)
        let key = try XCTUnwrap(p.segments[1].key)
        XCTAssertEqual(key.method, .aes128)
        XCTAssertEqual(key.uriString, "keys/k1.bin")
        XCTAssertEqual(key.uri?.absoluteString, "https://example.com/live/keys/k1.bin")
        XCTAssertEqual(key.iv, Array(0...15))
        XCTAssertEqual(key.keyFormat, "identity")
        XCTAssertEqual(p.segments[2].key, key)
        XCTAssertEqual(p.segments[2].iv, Array(0...15))
      }),
    PlaylistCase(
      "keyAES128_withoutIV_usesTheMediaSequenceAsIV",
      mediaText(
        """
        #EXT-X-MEDIA-SEQUENCE:7
        #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.segments[0].key?.iv)
        XCTAssertEqual(p.segments[0].iv, [UInt8](repeating: 0, count: 15) + [7])
        XCTAssertEqual(p.segments[1].iv, [UInt8](repeating: 0, count: 15) + [8])
      }),
    PlaylistCase(
      "implicitIV_largeSequence_isBigEndian",
      mediaText(
        "#EXT-X-MEDIA-SEQUENCE:1108152157446\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:4,\na.ts\n"
      ),
      .parses { playlist in
        // 1108152157446 = 0x0102_0304_0506
        XCTAssertEqual(
          try media(playlist).segments[0].iv,
          [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6])
      }),
    PlaylistCase(
      "shortIV_isLeftPaddedTo16Bytes",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x1ff\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertEqual(
          try media(playlist).segments[0].key?.iv, [UInt8](repeating: 0, count: 14) + [0x01, 0xFF])
      }),
    PlaylistCase(
      "severalKeys_rotateAndNoneClears",
      mediaText(
        """
        #EXT-X-KEY:METHOD=AES-128,URI="k1"
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k2",IV=0xffffffffffffffffffffffffffffffff
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:4,
        d.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k3"
        #EXTINF:4,
        e.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments.map { $0.key?.uriString }, ["k1", "k2", "k2", nil, "k3"])
        XCTAssertEqual(p.segments[1].iv, [UInt8](repeating: 0xFF, count: 16))
        XCTAssertEqual(p.segments[4].iv, [UInt8](repeating: 0, count: 15) + [4])
      }),
    PlaylistCase(
      "keyFormats_severalApplyAtOnce_identityIsThePrimary",
      mediaText(
        """
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="https://keys.example.com/k",KEYFORMAT="identity"
        #EXTINF:4,
        a.ts
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-2",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].keys.count, 2)
        XCTAssertEqual(p.segments[0].key?.keyFormat, "identity")
        XCTAssertEqual(p.segments[0].keys[0].keyFormatVersions, "1")
        XCTAssertNil(p.segments[0].iv, "SAMPLE-AES has no implicit IV")
        XCTAssertEqual(
          p.segments[1].keys.map { $0.uriString }, ["skd://key-2", "https://keys.example.com/k"])
      }),
    PlaylistCase(
      "sampleAESCTR_withDataURIKeyForAKeySystem_isAllowed",
      mediaText(
        """
        #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1"
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:4,
        a.m4s

        """),
      .parses { playlist in
        let key = try XCTUnwrap(try media(playlist).segments[0].key)
        XCTAssertEqual(key.method, .sampleAESCTR)
        XCTAssertEqual(key.uriString, "data:text/plain;base64,AAAA")
      }),
    PlaylistCase(
      "key_unknownAttribute_warns",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",FOO=1\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertTrue(hasWarning(playlist, "EXT-X-KEY has unknown attribute FOO", line: 4))
      }),
    PlaylistCase(
      "map_appliesUntilTheNextMap",
      mediaText(
        """
        #EXT-X-MAP:URI="init1.mp4"
        #EXTINF:4,
        a.m4s
        #EXTINF:4,
        b.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="init2.mp4"
        #EXTINF:4,
        c.m4s

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(
          p.segments.map { $0.map?.uriString }, ["init1.mp4", "init1.mp4", "init2.mp4"])
        XCTAssertEqual(p.segments[0].map?.uri.absoluteString, "https://example.com/live/init1.mp4")
        XCTAssertNil(p.segments[0].map?.byteRange)
        XCTAssertNil(p.segments[0].map?.key)
      }),
    PlaylistCase(
      "mapByteRange_segmentsWithoutOffsetContinueAfterIt",
      mediaText(
        """
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
        #EXTINF:4,
        #EXT-X-BYTERANGE:5000
        main.mp4
        #EXTINF:4,
        #EXT-X-BYTERANGE:6000
        main.mp4

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].map?.byteRange, ByteRange(offset: 0, length: 720))
        XCTAssertEqual(p.segments[0].byteRange, ByteRange(offset: 720, length: 5000))
        XCTAssertEqual(p.segments[1].byteRange, ByteRange(offset: 5720, length: 6000))
      }),
    PlaylistCase(
      "mapByteRange_withoutOffset_continuesAfterThePreviousSegmentOfTheSameFile",
      mediaText(
        """
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="700@0"
        #EXTINF:4,
        #EXT-X-BYTERANGE:300@700
        main.mp4
        #EXT-X-MAP:URI="main.mp4",BYTERANGE="50"
        #EXTINF:4,
        #EXT-X-BYTERANGE:100
        main.mp4

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[1].map?.byteRange, ByteRange(offset: 1000, length: 50))
        XCTAssertEqual(p.segments[1].byteRange, ByteRange(offset: 1050, length: 100))
      }),
    PlaylistCase(
      "mapUnderAES128KeyWithIV_isAllowedAndCarriesTheKey",
      mediaText(
        """
        #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x0000000000000000000000000000002a
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:4,
        a.m4s

        """),
      .parses { playlist in
        let map = try XCTUnwrap(try media(playlist).segments[0].map)
        XCTAssertEqual(map.key?.method, .aes128)
        XCTAssertEqual(map.key?.iv?.last, 42)
      }),
    PlaylistCase(
      "mapUnderSampleAESWithoutIV_isAllowed",
      mediaText(
        "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:4,\na.m4s\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments[0].map?.key?.method, .sampleAES)
      }),
    PlaylistCase(
      "keyAfterMap_doesNotEncryptTheMap",
      mediaText(
        "#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:4,\na.m4s\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.segments[0].map?.key)
        XCTAssertEqual(p.segments[0].key?.method, .aes128)
      }),
  ]

  static let failures: [PlaylistCase] = [
    PlaylistCase(
      "key_withoutMethod_fails",
      mediaText("#EXTINF:4,\na.ts\n#EXT-X-KEY:URI=\"k\"\n"),
      .fails(.missingAttribute, line: 6)),
    PlaylistCase(
      "key_withoutURI_fails",
      mediaText("#EXT-X-KEY:METHOD=AES-128\n#EXTINF:4,\na.ts\n"),
      .fails(.missingAttribute, line: 4)),
    PlaylistCase(
      "key_malformedIV_fails",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n#EXTINF:4,\na.ts\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "key_ivLongerThan128Bits_fails",
      mediaText("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x00112233445566778899aabbccddeeff00\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "map_withoutURI_fails",
      mediaText("#EXT-X-MAP:BYTERANGE=\"10@0\"\n"),
      .fails(.missingAttribute, line: 4)),
    PlaylistCase(
      "mapByteRange_malformed_fails",
      mediaText("#EXT-X-MAP:URI=\"main.mp4\",BYTERANGE=\"x@1\"\n"),
      .fails(.invalidValue, line: 4)),
  ]
}
