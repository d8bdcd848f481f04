import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for master playlists.
enum MasterCases {
  static let ladder = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-INDEPENDENT-SEGMENTS
    #EXT-X-START:TIME-OFFSET=10
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",LANGUAGE="de",ASSOC-LANGUAGE="de-AT",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="6",URI="audio/de.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (forced)",LANGUAGE="en",FORCED=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",URI="subs/en.m3u8"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1",LANGUAGE="en"
    #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Angle 2",URI="angle2/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
    360p/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30,AUDIO="aac",VIDEO="cam",HDCP-LEVEL=TYPE-0,CLOSED-CAPTIONS=NONE
    720p/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=7680000,RESOLUTION=1920x1080,AUDIO="aac"
    https://other.example.org/1080p/index.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.4d401f",RESOLUTION=640x360,URI="360p/iframes.m3u8"
    """

  static let all: [PlaylistCase] = [
    PlaylistCase(
      "master_variants",
      ladder,
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.version, 6)
        XCTAssertTrue(m.independentSegments)
        XCTAssertEqual(m.start, StartPoint(timeOffset: time(10)))
        XCTAssertEqual(m.variants.map(\.bandwidth), [1_280_000, 2_560_000, 7_680_000])
        let low = m.variants[0]
        XCTAssertEqual(low.averageBandwidth, 1_000_000)
        XCTAssertEqual(low.codecs, "avc1.4d401f,mp4a.40.2")
        XCTAssertEqual(low.resolution, Resolution(width: 640, height: 360))
        XCTAssertEqual(low.resolution?.pixelCount, 230_400)
        XCTAssertEqual(low.frameRate, 29.97)
        XCTAssertEqual(low.audioGroup, "aac")
        XCTAssertEqual(low.subtitlesGroup, "subs")
        XCTAssertEqual(low.closedCaptions, "cc")
        XCTAssertEqual(low.uriString, "360p/index.m3u8")
        XCTAssertEqual(low.uri.absoluteString, "https://example.com/live/360p/index.m3u8")
        XCTAssertEqual(low.attributes["RESOLUTION"], "640x360")
        XCTAssertEqual(low.attributes["CODECS"], "avc1.4d401f,mp4a.40.2")
        XCTAssertEqual(m.variants[1].videoGroup, "cam")
        XCTAssertEqual(m.variants[1].hdcpLevel, "TYPE-0")
        XCTAssertEqual(m.variants[1].closedCaptions, "NONE")
        XCTAssertEqual(
          m.variants[2].uri.absoluteString, "https://other.example.org/1080p/index.m3u8")
        XCTAssertTrue(m.warnings.isEmpty, "\(m.warnings)")
      }),
    PlaylistCase(
      "master_renditions",
      ladder,
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.renditions.count, 5)
        let english = m.renditions[0]
        XCTAssertEqual(english.type, .audio)
        XCTAssertEqual(english.groupID, "aac")
        XCTAssertEqual(english.name, "English")
        XCTAssertEqual(english.language, "en")
        XCTAssertTrue(english.isDefault)
        XCTAssertTrue(english.autoselect)
        XCTAssertEqual(english.channels, "2")
        XCTAssertEqual(english.uri?.absoluteString, "https://example.com/live/audio/en.m3u8")
        XCTAssertEqual(m.renditions[1].assocLanguage, "de-AT")
        XCTAssertFalse(m.renditions[1].isDefault)
        XCTAssertTrue(m.renditions[2].forced)
        XCTAssertEqual(
          m.renditions[2].characteristics, "public.accessibility.transcribes-spoken-dialog")
        XCTAssertEqual(m.renditions[3].type, .closedCaptions)
        XCTAssertEqual(m.renditions[3].instreamID, "CC1")
        XCTAssertNil(m.renditions[3].uri)
        XCTAssertEqual(m.renditions[4].type, .video)
        XCTAssertEqual(
          m.renditions(ofType: .audio, groupID: "aac").map(\.name), ["English", "Deutsch"])
      }),
    PlaylistCase(
      "master_iFrameVariants",
      ladder,
      .parses { playlist in
        let frames = try master(playlist).iFrameVariants
        XCTAssertEqual(frames.count, 1)
        XCTAssertEqual(frames[0].bandwidth, 86_000)
        XCTAssertEqual(frames[0].codecs, "avc1.4d401f")
        XCTAssertEqual(frames[0].resolution, Resolution(width: 640, height: 360))
        XCTAssertEqual(frames[0].uri.absoluteString, "https://example.com/live/360p/iframes.m3u8")
      }),
    PlaylistCase(
      "master_sessionDataSessionKeyAndContentSteering",
      """
      #EXTM3U
      #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="My Video",LANGUAGE="en"
      #EXT-X-SESSION-DATA:DATA-ID="com.example.meta",URI="meta.json",FORMAT=JSON
      #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
      #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=1",PATHWAY-ID="CDN-A"
      #EXT-X-STREAM-INF:BANDWIDTH=1000,PATHWAY-ID="CDN-A",STABLE-VARIANT-ID="v1"
      a/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=1000,PATHWAY-ID="CDN-B",STABLE-VARIANT-ID="v1"
      https://b.example.com/index.m3u8
      """,
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.sessionData.count, 2)
        XCTAssertEqual(m.sessionData[0].dataID, "com.example.title")
        XCTAssertEqual(m.sessionData[0].value, "My Video")
        XCTAssertEqual(m.sessionData[0].language, "en")
        XCTAssertEqual(m.sessionData[1].uri?.absoluteString, "https://example.com/live/meta.json")
        XCTAssertEqual(m.sessionData[1].format, "JSON")
        XCTAssertEqual(m.sessionKeys.map(\.method), [.sampleAES])
        XCTAssertEqual(m.sessionKeys.first?.keyFormat, "com.apple.streamingkeydelivery")
        XCTAssertEqual(
          m.contentSteering?.serverURI.absoluteString, "https://example.com/steering?video=1")
        XCTAssertEqual(m.contentSteering?.pathwayID, "CDN-A")
        XCTAssertEqual(m.variants.map(\.pathwayID), ["CDN-A", "CDN-B"])
        XCTAssertEqual(m.variants.map(\.stableVariantID), ["v1", "v1"])
      }),
    PlaylistCase(
      "master_unmodelledAttributesKept_unknownOnesWarn",
      """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=0100,SCORE=2.5,VIDEO-RANGE=PQ,SUPPLEMENTAL-CODECS="dvh1.08.07/db4h",MY-ATTR="x"
      v.m3u8
      """,
      .parses { playlist in
        let variant = try XCTUnwrap(try master(playlist).variants.first)
        XCTAssertEqual(variant.bandwidth, 100)
        XCTAssertEqual(variant.attributes["BANDWIDTH"], "0100")
        XCTAssertEqual(variant.attributes["SCORE"], "2.5")
        XCTAssertEqual(variant.attributes["VIDEO-RANGE"], "PQ")
        XCTAssertEqual(variant.attributes["SUPPLEMENTAL-CODECS"], "dvh1.08.07/db4h")
        XCTAssertEqual(variant.attributes["MY-ATTR"], "x")
        XCTAssertEqual(playlist.warnings.count, 1)
        XCTAssertTrue(hasWarning(playlist, "unknown attribute MY-ATTR", line: 2))
      }),
    PlaylistCase(
      "master_malformedOptionalValues_warn",
      """
      #EXTM3U
      #EXT-X-STREAM-INF:BANDWIDTH=1000,RESOLUTION=wide,FRAME-RATE=fast,AVERAGE-BANDWIDTH=-1
      v.m3u8
      """,
      .parses { playlist in
        let variant = try XCTUnwrap(try master(playlist).variants.first)
        XCTAssertNil(variant.resolution)
        XCTAssertNil(variant.frameRate)
        XCTAssertNil(variant.averageBandwidth)
        XCTAssertEqual(playlist.warnings.count, 3, "\(playlist.warnings)")
      }),
    PlaylistCase(
      "master_mediaTagsAndStrayURIs_warn",
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:10
      #EXT-X-STREAM-INF:BANDWIDTH=1000
      #EXT-X-ENDLIST
      v.m3u8
      stray.m3u8
      """,
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.variants.map(\.uriString), ["v.m3u8"])
        XCTAssertTrue(
          hasWarning(playlist, "EXT-X-TARGETDURATION belongs in a media playlist", line: 2))
        XCTAssertTrue(hasWarning(playlist, "has no EXT-X-STREAM-INF before it", line: 6))
        XCTAssertEqual(
          m.unknownTags,
          [
            UnknownTag(text: "#EXT-X-TARGETDURATION:10", position: 0),
            UnknownTag(text: "#EXT-X-ENDLIST", position: 0),
          ])
      }),
    PlaylistCase(
      "master_closedCaptionsWithURI_warnsAndDropsIt",
      """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="x",URI="cc.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=1000,CLOSED-CAPTIONS="cc"
      v.m3u8
      """,
      .parses { playlist in
        XCTAssertNil(try master(playlist).renditions[0].uri)
        XCTAssertTrue(hasWarning(playlist, "must not have a URI"))
        XCTAssertTrue(hasWarning(playlist, "has no INSTREAM-ID"))
      }),
    PlaylistCase(
      "master_iFrameOnly_isStillAMaster",
      "#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"i.m3u8\"\n",
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertTrue(m.variants.isEmpty)
        XCTAssertEqual(m.iFrameVariants.count, 1)
      }),
  ]

  static let failures: [PlaylistCase] = [
    PlaylistCase(
      "streamInf_malformedBandwidth_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1.5e6\nv.m3u8\n",
      .fails(.invalidValue, line: 2)),
    PlaylistCase(
      "streamInf_withoutURILine_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\n",
      .fails(.missingURI, line: 4)),
    PlaylistCase(
      "streamInf_followedByStreamInf_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv.m3u8\n",
      .fails(.missingURI, line: 2)),
    PlaylistCase(
      "iFrameStreamInf_withoutURI_fails",
      "#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1\n",
      .fails(.missingAttribute, line: 2)),
    PlaylistCase(
      "media_unknownType_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-MEDIA:TYPE=TEXT,GROUP-ID=\"g\",NAME=\"n\"\n",
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "media_withoutGroupID_fails",
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"n\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .fails(.missingAttribute, line: 2)),
    PlaylistCase(
      "extinfInMaster_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:4,\n",
      .fails(.mixedPlaylist, line: 4)),
    PlaylistCase(
      "streamInfInMedia_fails",
      mediaText("#EXTINF:4,\na.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"),
      .fails(.mixedPlaylist, line: 6)),
    PlaylistCase(
      "sessionKey_withoutURI_fails",
      "#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=AES-128\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .fails(.missingAttribute, line: 2)),
  ]
}
