import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// The origin rule: which URI schemes a playlist may reference, by where it came from.
enum OriginCases {
  static let fileURL = URL(fileURLWithPath: "/srv/media/index.m3u8")
  static let httpURL = URL(string: "http://example.com/live/index.m3u8")!

  static let all: [PlaylistCase] = [
    PlaylistCase(
      "origin_localPlaylist_mayReferenceLocalFilesAndHTTP",
      url: fileURL,
      mediaText(
        "#EXTINF:4,\nseg0.ts\n#EXTINF:4,\nfile:///srv/other/seg1.ts\n#EXTINF:4,\nhttps://cdn.example.com/seg2.ts\n"
      ),
      .parses { playlist in
        let uris = try media(playlist).segments.map(\.uri)
        XCTAssertEqual(uris[0], URL(fileURLWithPath: "/srv/media/seg0.ts"))
        XCTAssertTrue(uris[0].isFileURL)
        XCTAssertEqual(uris[1].path, "/srv/other/seg1.ts")
        XCTAssertEqual(uris[2].scheme, "https")
      }),
    PlaylistCase(
      "origin_httpPlaylist_mayReferenceHTTPS",
      url: httpURL,
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nHTTPS://secure.example.com/v.m3u8\n",
      .parses { playlist in
        XCTAssertEqual(try master(playlist).variants[0].uri.host, "secure.example.com")
      }),
  ]

  static let failures: [PlaylistCase] = [
    PlaylistCase(
      "origin_httpsPlaylist_fileSegment_fails",
      mediaText("#EXTINF:4,\na.ts\n#EXTINF:4,\nfile:///etc/passwd\n"),
      .fails(.forbiddenURI, line: 7)),
    PlaylistCase(
      "origin_httpsPlaylist_fileVariant_fails",
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nfile:///home/user/v.m3u8\n",
      .fails(.forbiddenURI, line: 3)),
    PlaylistCase(
      "origin_httpsPlaylist_ftpRendition_fails",
      "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\",URI=\"ftp://example.com/a.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
      .fails(.forbiddenURI, line: 2)),
    PlaylistCase(
      "origin_httpsPlaylist_fileMap_fails",
      mediaText("#EXT-X-MAP:URI=\"file:///tmp/init.mp4\"\n"),
      .fails(.forbiddenURI, line: 4)),
    PlaylistCase(
      "origin_httpsPlaylist_fileURIThroughAVariable_fails",
      mediaText("#EXT-X-DEFINE:NAME=\"root\",VALUE=\"file:///\"\n#EXTINF:4,\n{$root}etc/passwd\n"),
      .fails(.forbiddenURI, line: 6)),
    PlaylistCase(
      "origin_httpsPlaylist_filePart_fails",
      mediaText("#EXT-X-PART:DURATION=1,URI=\"file:///p.mp4\"\n"),
      .fails(.forbiddenURI, line: 4)),
    PlaylistCase(
      "origin_localPlaylist_dataSegment_fails",
      url: fileURL,
      mediaText("#EXTINF:4,\ndata:video/mp2t;base64,AAAA\n"),
      .fails(.forbiddenURI, line: 5)),
    PlaylistCase(
      "origin_invalidAuthority_fails",
      mediaText("#EXTINF:4,\nhttp://[bad/seg.ts\n"),
      .fails(.invalidURI, line: 5)),
  ]
}
