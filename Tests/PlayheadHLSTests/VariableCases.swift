import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for EXT-X-DEFINE and variable substitution.
enum VariableCases {
  static let tokenURL = URL(string: "https://example.com/live/index.m3u8?token=abc%2F1&lang=en")!

  static let all: [PlaylistCase] = [
    PlaylistCase(
      "define_substitutesInURILinesAndQuotedAttributes",
      mediaText(
        """
        #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example.com"
        #EXT-X-DEFINE:NAME="v-1_x",VALUE="720p"
        #EXT-X-KEY:METHOD=AES-128,URI="{$host}/keys/{$v-1_x}.key",IV=0x01
        #EXT-X-MAP:URI="{$host}/{$v-1_x}/init.mp4"
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:4,
        {$host}/{$v-1_x}/seg{$v-1_x}.m4s

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.definitions, ["host": "https://cdn.example.com", "v-1_x": "720p"])
        XCTAssertEqual(p.segments[0].uriString, "https://cdn.example.com/720p/seg720p.m4s")
        XCTAssertEqual(p.segments[0].map?.uriString, "https://cdn.example.com/720p/init.mp4")
        XCTAssertEqual(p.segments[0].map?.key?.uriString, "https://cdn.example.com/keys/720p.key")
      }),
    PlaylistCase(
      "define_invalidReferenceSyntax_isKeptAsWritten",
      mediaText("#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n#EXTINF:4,\n{$a b}{$}{a}{$a}.ts\n"),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).segments[0].uriString, "{$a b}{$}{a}x.ts")
      }),
    PlaylistCase(
      "define_queryParam_takesTheDecodedQueryValue",
      url: tokenURL,
      mediaText("#EXT-X-DEFINE:QUERYPARAM=\"token\"\n#EXTINF:4,\nseg.ts?token={$token}\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.definitions["token"], "abc/1")
        XCTAssertEqual(p.segments[0].uriString, "seg.ts?token=abc/1")
      }),
    PlaylistCase(
      "define_import_takesTheMasterValue",
      importing: ["base": "https://origin.example.com/v"],
      mediaText("#EXT-X-DEFINE:IMPORT=\"base\"\n#EXTINF:4,\n{$base}/a.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].uri.absoluteString, "https://origin.example.com/v/a.ts")
        XCTAssertEqual(p.definitions, ["base": "https://origin.example.com/v"])
      }),
    PlaylistCase(
      "define_inMaster_substitutesVariantAndRenditionURIs",
      """
      #EXTM3U
      #EXT-X-DEFINE:NAME="p",VALUE="path/to"
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="{$p}",URI="{$p}/audio.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="aud"
      {$p}/video.m3u8
      """,
      .parses { playlist in
        let m = try master(playlist)
        XCTAssertEqual(m.definitions, ["p": "path/to"])
        XCTAssertEqual(m.variants[0].uriString, "path/to/video.m3u8")
        XCTAssertEqual(m.renditions[0].uriString, "path/to/audio.m3u8")
        XCTAssertEqual(m.renditions[0].name, "path/to")
      }),
  ]

  static let failures: [PlaylistCase] = [
    PlaylistCase(
      "define_undefinedReference_fails",
      mediaText("#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n#EXTINF:4,\n{$b}.ts\n"),
      .fails(.undefinedVariable, line: 6)),
    PlaylistCase(
      "define_referenceBeforeDefinition_fails",
      mediaText("#EXTINF:4,\n{$a}.ts\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n"),
      .fails(.undefinedVariable, line: 5)),
    PlaylistCase(
      "define_undefinedInQuotedAttribute_fails",
      mediaText("#EXT-X-MAP:URI=\"{$nope}/init.mp4\"\n"),
      .fails(.undefinedVariable, line: 4)),
    PlaylistCase(
      "define_queryParamMissingFromURL_fails",
      url: tokenURL,
      mediaText("#EXT-X-DEFINE:QUERYPARAM=\"session\"\n"),
      .fails(.undefinedVariable, line: 4)),
    PlaylistCase(
      "define_importWithoutMasterVariables_fails",
      mediaText("#EXT-X-DEFINE:IMPORT=\"base\"\n"),
      .fails(.undefinedVariable, line: 4)),
    PlaylistCase(
      "define_importOfAVariableTheMasterLacks_fails",
      importing: ["other": "1"],
      mediaText("#EXT-X-DEFINE:IMPORT=\"base\"\n"),
      .fails(.undefinedVariable, line: 4)),
    PlaylistCase(
      "define_importInMaster_fails",
      "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .fails(.invalidValue, line: 2)),
    PlaylistCase(
      "define_sameNameTwice_fails",
      mediaText("#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n"),
      .fails(.duplicateVariable, line: 5)),
    PlaylistCase(
      "define_invalidName_fails",
      mediaText("#EXT-X-DEFINE:NAME=\"a b\",VALUE=\"1\"\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "define_nameWithoutValue_fails",
      mediaText("#EXT-X-DEFINE:NAME=\"a\"\n"),
      .fails(.missingAttribute, line: 4)),
  ]
}
