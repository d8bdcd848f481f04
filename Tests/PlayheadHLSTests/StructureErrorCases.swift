import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Fatal errors of the playlist structure.
enum StructureErrorCases {
  static let failures: [PlaylistCase] = [
    PlaylistCase("blankFirstLine_fails", "\n#EXTM3U\n", .fails(.missingHeader, line: 1)),
    PlaylistCase(
      "noHeader_fails", "#EXT-X-TARGETDURATION:10\n#EXTINF:4,\na.ts\n",
      .fails(.missingHeader, line: 1)),
    PlaylistCase(
      "segmentWithoutExtinf_fails",
      mediaText("#EXTINF:4,\na.ts\nb.ts\n"),
      .fails(.segmentWithoutDuration, line: 6)),
    PlaylistCase(
      "segmentWithoutExtinf_first_fails",
      mediaText("a.ts\n"),
      .fails(.segmentWithoutDuration, line: 4)),
    PlaylistCase(
      "byteRange_malformed_fails",
      mediaText("#EXTINF:4,\n#EXT-X-BYTERANGE:ten@0\na.ts\n"),
      .fails(.invalidValue, line: 5)),
    PlaylistCase(
      "extinf_notANumber_fails",
      mediaText("#EXTINF:abc,\na.ts\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "extinf_negative_fails",
      mediaText("#EXTINF:-1,\na.ts\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "extinf_overflowingNumber_fails",
      mediaText("#EXTINF:99999999999999999999,\na.ts\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "targetDuration_notANumber_fails",
      "#EXTM3U\n#EXT-X-TARGETDURATION:ten\n",
      .fails(.invalidValue, line: 2)),
    PlaylistCase(
      "mediaSequence_notANumber_fails",
      mediaText("#EXT-X-MEDIA-SEQUENCE:-3\n"),
      .fails(.invalidValue, line: 4)),
    PlaylistCase(
      "emptyQuotedURI_fails",
      mediaText("#EXT-X-MAP:URI=\"\"\n"),
      .fails(.invalidURI, line: 4)),
  ]
}
