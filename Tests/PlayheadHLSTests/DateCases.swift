import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Cases for EXT-X-PROGRAM-DATE-TIME and EXT-X-DATERANGE.
enum DateCases {
  static let all: [PlaylistCase] = [
    PlaylistCase(
      "programDateTime_beforeExtinf_datesTheSegmentAndLaterOnesByDuration",
      mediaText(
        """
        #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00.000Z
        #EXTINF:4.5,
        a.ts
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].programDateTime, date("2024-03-01T10:00:00.000Z"))
        XCTAssertEqual(p.segments[0].programDateTimeText, "2024-03-01T10:00:00.000Z")
        XCTAssertEqual(p.segments[1].programDateTime, date("2024-03-01T10:00:04.500Z"))
        XCTAssertNil(p.segments[1].programDateTimeText)
        XCTAssertEqual(p.segments[2].programDateTime, date("2024-03-01T10:00:08.500Z"))
      }),
    PlaylistCase(
      "programDateTime_afterExtinf_appliesToTheSameSegment",
      mediaText(
        """
        #EXTINF:4,
        a.ts
        #EXTINF:4,
        #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:04Z
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[1].programDateTimeText, "2024-03-01T10:00:04Z")
        XCTAssertEqual(p.segments[1].programDateTime, date("2024-03-01T10:00:04Z"))
        XCTAssertEqual(p.segments[0].programDateTime, date("2024-03-01T10:00:00Z"), "backward")
      }),
    PlaylistCase(
      "programDateTime_isNotCarriedAcrossADiscontinuity",
      mediaText(
        """
        #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00Z
        #EXTINF:4,
        a.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:4,
        ad.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:34Z
        #EXTINF:4,
        b.ts
        #EXTINF:4,
        c.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].programDateTime, date("2024-03-01T10:00:00Z"))
        XCTAssertNil(p.segments[1].programDateTime, "separate run, no date of its own")
        XCTAssertEqual(p.segments[2].programDateTime, date("2024-03-01T10:00:34Z"))
        XCTAssertEqual(p.segments[3].programDateTime, date("2024-03-01T10:00:38Z"))
      }),
    PlaylistCase(
      "programDateTime_zoneOffsetAndFraction",
      mediaText(
        "#EXT-X-PROGRAM-DATE-TIME:2024-03-01T12:00:00.250+02:00\n#EXTINF:4,\na.ts\n#EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:04.25+0000\n#EXTINF:4,\nb.ts\n"
      ),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertEqual(p.segments[0].programDateTime, date("2024-03-01T10:00:00.250Z"))
        XCTAssertEqual(p.segments[1].programDateTime, date("2024-03-01T10:00:04.250Z"))
      }),
    PlaylistCase(
      "programDateTime_invalid_warnsAndKeepsTheTag",
      mediaText("#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        let p = try media(playlist)
        XCTAssertNil(p.segments[0].programDateTime)
        XCTAssertTrue(hasWarning(playlist, "is not an ISO 8601 date", line: 4))
        XCTAssertEqual(
          p.unknownTags, [UnknownTag(text: "#EXT-X-PROGRAM-DATE-TIME:yesterday", position: 0)])
      }),
    PlaylistCase(
      "dateRange_allAttributes",
      mediaText(
        """
        #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00Z
        #EXTINF:4,
        a.ts
        #EXT-X-DATERANGE:ID="ad-1",CLASS="com.example.ad",START-DATE="2024-03-01T10:00:04Z",END-DATE="2024-03-01T10:00:34Z",DURATION=30.0,PLANNED-DURATION=30.5,SCTE35-OUT=0xFC002F,X-AD-ID="a,b",X-COUNT=3,CUE="PRE,ONCE"
        #EXTINF:4,
        b.ts

        """),
      .parses { playlist in
        let p = try media(playlist)
        let range = try XCTUnwrap(p.dateRanges.first)
        XCTAssertEqual(range.id, "ad-1")
        XCTAssertEqual(range.classValue, "com.example.ad")
        XCTAssertEqual(range.startDate, date("2024-03-01T10:00:04Z"))
        XCTAssertEqual(range.endDate, date("2024-03-01T10:00:34Z"))
        XCTAssertEqual(range.duration, time(30))
        XCTAssertEqual(range.plannedDuration, time(305, 10))
        XCTAssertEqual(range.scte35Out, "0xFC002F")
        XCTAssertEqual(range.cue, "PRE,ONCE")
        XCTAssertEqual(range.clientAttributes, ["X-AD-ID": "a,b", "X-COUNT": "3"])
        XCTAssertEqual(range.position, 1)
        XCTAssertTrue(p.warnings.isEmpty, "\(p.warnings)")
      }),
    PlaylistCase(
      "dateRange_endOnNextAndNoProgramDateTime_warns",
      mediaText(
        "#EXT-X-DATERANGE:ID=\"c\",CLASS=\"chapter\",START-DATE=\"2024-01-01T00:00:00Z\",END-ON-NEXT=YES\n#EXTINF:4,\na.ts\n"
      ),
      .parses { playlist in
        XCTAssertEqual(try media(playlist).dateRanges.first?.endOnNext, true)
        XCTAssertTrue(hasWarning(playlist, "EXT-X-DATERANGE without any EXT-X-PROGRAM-DATE-TIME"))
      }),
    PlaylistCase(
      "dateRange_withoutID_warnsAndKeepsTheTag",
      mediaText("#EXT-X-DATERANGE:START-DATE=\"2024-01-01T00:00:00Z\"\n#EXTINF:4,\na.ts\n"),
      .parses { playlist in
        XCTAssertTrue(try media(playlist).dateRanges.isEmpty)
        XCTAssertTrue(hasWarning(playlist, "EXT-X-DATERANGE has no ID", line: 4))
        XCTAssertEqual(try media(playlist).unknownTags.count, 1)
      }),
  ]
}
