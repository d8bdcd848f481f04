import Foundation
import PlayheadCore
import PlayheadHLS
import XCTest

/// Builds media playlists with markers before chosen segments.
enum AdPlaylist {
  static let url = URL(string: "https://example.com/live/index.m3u8")!

  /// `count` segments of `seconds` each (a decimal text), with `markers[i]` (tag lines)
  /// before segment `i` (`count` for after the last); VOD with `EXT-X-ENDLIST` unless
  /// `live`; fMP4 behind an `EXT-X-MAP` when `fmp4`; the first segment dated `date`.
  static func text(
    count: Int, seconds: String = "4", markers: [Int: String] = [:], live: Bool = false,
    mediaSequence: Int = 0, fmp4: Bool = false, date: String? = nil
  ) -> String {
    var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:11\n"
    if mediaSequence != 0 { text += "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)\n" }
    if !live { text += "#EXT-X-PLAYLIST-TYPE:VOD\n" }
    if fmp4 { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
    for index in 0...count {
      if let lines = markers[index] { text += lines + "\n" }
      guard index < count else { break }
      if index == 0, let date { text += "#EXT-X-PROGRAM-DATE-TIME:\(date)\n" }
      text += "#EXTINF:\(seconds),\nseg\(mediaSequence + index).\(fmp4 ? "m4s" : "ts")\n"
    }
    if !live { text += "#EXT-X-ENDLIST\n" }
    return text
  }

  static func parse(_ text: String) throws -> MediaPlaylist {
    try XCTUnwrap(try PlaylistParser.parse(text, url: url).mediaPlaylist)
  }

  static func periods(_ text: String) throws -> AdPeriodList {
    try parse(text).adPeriods()
  }
}

final class AdPeriodTests: XCTestCase {
  private typealias P = AdPlaylist
  private typealias B = SCTE35Builder

  func testCueOutCueIn_inTSAndFMP4_givesTheSegmentsBetween() throws {
    for fmp4 in [false, true] {
      let list = try P.periods(
        P.text(
          count: 6,
          markers: [
            2: "#EXT-X-CUE-OUT:30", 3: "#EXT-X-CUE-OUT-CONT:ElapsedTime=4,Duration=30",
            4: "#EXT-X-CUE-IN",
          ],
          fmp4: fmp4))
      XCTAssertEqual(
        list.periods,
        [
          AdPeriod(
            id: "cue-2", source: .cueOut, start: time(8), duration: time(8),
            durationSource: .endMarker, segments: 2..<4, isComplete: true)
        ], "fmp4: \(fmp4)")
      XCTAssertEqual(list.notes, [])
    }
  }

  func testCueOutDurationWithoutCueIn_coversTheSegmentsByTheirMiddles() throws {
    let vod = try P.periods(P.text(count: 6, markers: [2: "#EXT-X-CUE-OUT:DURATION=8.000"]))
    XCTAssertEqual(vod.periods.first?.segments, 2..<4)
    XCTAssertEqual(vod.periods.first?.duration, time(8))
    XCTAssertEqual(vod.periods.first?.durationSource, .markerDuration)
    XCTAssertEqual(vod.periods.first?.isComplete, true)
    // 3 × 10.01 s and 3 × 9.99 s both make a 30 s break of three segments.
    for seconds in ["10.01", "9.99"] {
      let list = try P.periods(
        P.text(count: 8, seconds: seconds, markers: [1: "#EXT-X-CUE-OUT:30"], live: true))
      XCTAssertEqual(list.periods.first?.segments, 1..<4, seconds)
      XCTAssertEqual(list.periods.first?.isComplete, true, "a segment after the break is in")
    }
  }

  func testOatclsBesideCueOut_givesTheSCTE35IdAndBreakDuration() throws {
    let out = B.base64(B.outSection(eventID: 0x1234, seconds: 12))
    let list = try P.periods(
      P.text(count: 8, markers: [2: "#EXT-OATCLS-SCTE35:\(out)\n#EXT-X-CUE-OUT"]))
    let period = try XCTUnwrap(list.periods.first)
    XCTAssertEqual(period.id, "4660")
    XCTAssertEqual(period.source, .cueOut)
    XCTAssertEqual(period.duration, time(12))
    XCTAssertEqual(period.durationSource, .scte35BreakDuration)
    XCTAssertEqual(period.segments, 2..<5)
    XCTAssertEqual(period.scte35?.eventID, 0x1234)
  }

  func testOatclsAlone_outThenIn() throws {
    let out = B.base64(B.outSection(eventID: 7, seconds: 60))
    let back = B.base64(B.inSection(eventID: 7))
    let list = try P.periods(
      P.text(
        count: 8, markers: [1: "#EXT-OATCLS-SCTE35:\(out)", 3: "#EXT-OATCLS-SCTE35:\(back)"]))
    XCTAssertEqual(list.periods.count, 1)
    XCTAssertEqual(list.periods[0].source, .oatclsSCTE35)
    XCTAssertEqual(list.periods[0].segments, 1..<3)
    XCTAssertEqual(list.periods[0].durationSource, .endMarker, "the end signal wins over 60 s")
    XCTAssertEqual(list.periods[0].duration, time(8))
  }

  func testScte35TagAlone_timeSignalWithSegmentation() throws {
    let start = B.base64(
      B.section(
        commandType: 0x06, command: B.timeSignal(pts: 1),
        descriptors: [B.segmentationDescriptor(eventID: 99, type: 0x30, duration: 720_000)]))
    let list = try P.periods(
      P.text(count: 6, markers: [3: "#EXT-X-SCTE35:CUE=\"\(start)\""], fmp4: true))
    let period = try XCTUnwrap(list.periods.first)
    XCTAssertEqual(period.source, .scte35Tag)
    XCTAssertEqual(period.id, "99")
    XCTAssertEqual(period.duration, time(8))
    XCTAssertEqual(period.durationSource, .scte35SegmentationDuration)
    XCTAssertEqual(period.segments, 3..<5)
  }

  func testDateRange_outThenInWithTheSameID() throws {
    let out = B.hex(B.outSection(eventID: 3, seconds: 20))
    let back = B.hex(B.inSection(eventID: 3))
    let markers = [
      1:
        "#EXT-X-DATERANGE:ID=\"b1\",START-DATE=\"2024-01-01T00:00:08Z\",PLANNED-DURATION=20,SCTE35-OUT=\(out)",
      4: "#EXT-X-DATERANGE:ID=\"b1\",SCTE35-IN=\(back)",
    ]
    let list = try P.periods(P.text(count: 8, markers: markers, date: "2024-01-01T00:00:00Z"))
    XCTAssertEqual(
      list.periods,
      [
        AdPeriod(
          id: "b1", source: .dateRange, start: time(8), duration: time(8),
          durationSource: .endMarker, segments: 2..<4, isComplete: true,
          scte35: try SpliceInfoSection(text: out))
      ])
    // DURATION wins over the position of SCTE35-IN.
    var withDuration = markers
    withDuration[6] = "#EXT-X-DATERANGE:ID=\"b1\",DURATION=12.0"
    let timed = try P.periods(P.text(count: 8, markers: withDuration, date: "2024-01-01T00:00:00Z"))
    XCTAssertEqual(timed.periods.first?.duration, time(12))
    XCTAssertEqual(timed.periods.first?.durationSource, .dateRangeDuration)
    XCTAssertEqual(timed.periods.first?.segments, 2..<5)
    // END-DATE alone.
    let ended = try P.periods(
      P.text(
        count: 8,
        markers: [
          0:
            "#EXT-X-DATERANGE:ID=\"e\",START-DATE=\"2024-01-01T00:00:04Z\",END-DATE=\"2024-01-01T00:00:08Z\",SCTE35-OUT=\(out)"
        ], date: "2024-01-01T00:00:00Z"))
    XCTAssertEqual(ended.periods.first?.durationSource, .dateRangeEndDate)
    XCTAssertEqual(ended.periods.first?.segments, 1..<2)
  }

  func testLiveWindow_breakThatBeganBeforeTheWindow() throws {
    let list = try P.periods(
      P.text(
        count: 5, seconds: "6",
        markers: [
          0: "#EXT-X-CUE-OUT-CONT:ElapsedTime=12.0,Duration=30", 1: "#EXT-X-CUE-OUT-CONT:18/30",
          3: "#EXT-X-CUE-IN",
        ],
        live: true, mediaSequence: 100))
    XCTAssertEqual(
      list.periods,
      [
        AdPeriod(
          id: "cue-100", source: .cueOutCont, start: time(-12), duration: time(30),
          durationSource: .endMarker, segments: 0..<3, isComplete: true, startsBeforeWindow: true)
      ])
    XCTAssertEqual(list.periods[0].end, time(18))
  }

  func testLiveWindow_breakOpenAtTheEnd() throws {
    let declared = try P.periods(
      P.text(count: 4, seconds: "6", markers: [3: "#EXT-X-CUE-OUT:30"], live: true))
    XCTAssertEqual(declared.periods.first?.segments, 3..<4)
    XCTAssertEqual(declared.periods.first?.duration, time(30))
    XCTAssertEqual(declared.periods.first?.isComplete, false)
    let bare = try P.periods(
      P.text(count: 4, seconds: "6", markers: [2: "#EXT-X-CUE-OUT"], live: true))
    XCTAssertEqual(bare.periods.first?.segments, 2..<4)
    XCTAssertNil(bare.periods.first?.duration)
    XCTAssertNil(bare.periods.first?.durationSource)
    XCTAssertEqual(bare.periods.first?.isComplete, false)
    let atTheEdge = try P.periods(
      P.text(count: 4, seconds: "6", markers: [4: "#EXT-X-CUE-OUT:30"], live: true))
    XCTAssertEqual(atTheEdge.periods.first?.segments, 4..<4)
    XCTAssertEqual(atTheEdge.periods.first?.start, time(24))
    // VOD: a bare CUE-OUT runs to the end.
    let vod = try P.periods(P.text(count: 4, markers: [2: "#EXT-X-CUE-OUT"]))
    XCTAssertEqual(vod.periods.first?.duration, time(8))
    XCTAssertEqual(vod.periods.first?.durationSource, .playlistEnd)
    XCTAssertEqual(vod.periods.first?.isComplete, true)
  }

  func testSyntheticIDs_areStableAcrossLiveReloads() throws {
    let first = try P.periods(
      P.text(count: 5, markers: [2: "#EXT-X-CUE-OUT:8"], live: true, mediaSequence: 100))
    let second = try P.periods(
      P.text(count: 5, markers: [1: "#EXT-X-CUE-OUT:8"], live: true, mediaSequence: 101))
    XCTAssertEqual(first.periods.first?.id, "cue-102")
    XCTAssertEqual(second.periods.first?.id, "cue-102")
  }

  func testNestedCueOutAndStrayCueIn_areIgnoredWithNotes() throws {
    let list = try P.periods(
      P.text(
        count: 8,
        markers: [
          0: "#EXT-X-CUE-IN", 1: "#EXT-X-CUE-OUT:20", 2: "#EXT-X-CUE-OUT:20",
          3: "#EXT-X-CUE-IN",
        ]))
    XCTAssertEqual(list.periods.map(\.segments), [1..<3])
    XCTAssertEqual(list.notes.count, 2, "\(list.notes)")
    XCTAssertTrue(list.notes[0].contains("ends no open break"), list.notes[0])
    XCTAssertTrue(list.notes[1].contains("inside the break"), list.notes[1])
  }

  func testASecondCueOutAfterTheFirstBreaksDuration_startsANewBreak() throws {
    let list = try P.periods(
      P.text(count: 8, markers: [1: "#EXT-X-CUE-OUT:4", 4: "#EXT-X-CUE-OUT:8"]))
    XCTAssertEqual(list.periods.map(\.segments), [1..<2, 4..<6])
    XCTAssertEqual(list.notes, [])
  }

  func testCueMarkersBesideADateRange_keepTheDateRangeOnly() throws {
    let out = B.hex(B.outSection(eventID: 3, seconds: 8))
    let list = try P.periods(
      P.text(
        count: 8,
        markers: [
          2:
            "#EXT-X-DATERANGE:ID=\"d\",START-DATE=\"2024-01-01T00:00:08Z\",DURATION=8,SCTE35-OUT=\(out)\n#EXT-X-CUE-OUT:8",
          4: "#EXT-X-CUE-IN", 6: "#EXT-X-CUE-OUT:4",
        ], date: "2024-01-01T00:00:00Z"))
    XCTAssertEqual(list.periods.map(\.id), ["d", "cue-6"])
    XCTAssertEqual(list.notes.count, 1)
  }

  func testUnreadableMarkers_leaveNotesNotFailures() throws {
    let list = try P.periods(
      P.text(
        count: 6,
        markers: [
          1:
            "#EXT-OATCLS-SCTE35:\(B.base64(B.section(commandType: 5, command: [1], corruptCRC: true)))\n#EXT-X-CUE-OUT:4",
          3: "#EXT-X-DATERANGE:ID=\"n\",SCTE35-OUT=0xFC00",
        ]))
    XCTAssertEqual(list.periods.map(\.id), ["cue-1", "n"])
    XCTAssertTrue(list.notes.contains { $0.contains("CRC") }, "\(list.notes)")
    XCTAssertTrue(list.notes.contains { $0.contains("'n' SCTE-35") }, "\(list.notes)")
    XCTAssertTrue(
      list.notes.contains { $0.contains("no segment has a program date-time") } == false)
    XCTAssertEqual(list.periods[1].segments, 3..<6, "no duration: to the end")
  }

  func testEveryMarkerStyle_givesTheSameBreaksInTSAndFMP4_VODAndLive() throws {
    let out = B.base64(B.outSection(eventID: 11, seconds: 8))
    let back = B.base64(B.inSection(eventID: 11))
    let hexOut = B.hex(B.outSection(eventID: 12, seconds: 8))
    let styles: [[Int: String]] = [
      [1: "#EXT-X-CUE-OUT:8", 2: "#EXT-X-CUE-OUT-CONT:4/8", 3: "#EXT-X-CUE-IN"],
      [1: "#EXT-OATCLS-SCTE35:\(out)\n#EXT-X-CUE-OUT:8", 3: "#EXT-X-CUE-IN"],
      [1: "#EXT-OATCLS-SCTE35:\(out)", 3: "#EXT-OATCLS-SCTE35:\(back)"],
      [1: "#EXT-X-SCTE35:CUE=\"\(out)\"", 3: "#EXT-X-SCTE35:CUE=\"\(back)\""],
      [0: "#EXT-X-CUE-OUT-CONT:ElapsedTime=4,Duration=8", 1: "#EXT-X-CUE-IN"],
      [
        1: "#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2024-01-01T00:00:04Z\",SCTE35-OUT=\(hexOut)",
        3: "#EXT-X-DATERANGE:ID=\"x\",SCTE35-IN=0xFC",
      ],
      [3: "#EXT-X-CUE-OUT:30"],
    ]
    for (index, markers) in styles.enumerated() {
      for live in [false, true] {
        let ts = try P.periods(
          P.text(count: 4, markers: markers, live: live, date: "2024-01-01T00:00:00Z"))
        let fmp4 = try P.periods(
          P.text(count: 4, markers: markers, live: live, fmp4: true, date: "2024-01-01T00:00:00Z"))
        XCTAssertEqual(ts.periods.count, 1, "style \(index) live \(live): \(ts)")
        XCTAssertEqual(ts, fmp4, "style \(index) live \(live)")
        XCTAssertEqual(ts.periods.first?.isComplete, index == 6 ? !live : true, "style \(index)")
      }
    }
  }

  func testManyMarkers_takeLinearTime() throws {
    // 20,000 breaks: quadratic work would take minutes.
    var markers: [Int: String] = [:]
    for index in stride(from: 0, to: 40_000, by: 2) { markers[index] = "#EXT-X-CUE-OUT:1" }
    let list = try P.periods(P.text(count: 40_000, seconds: "1", markers: markers))
    XCTAssertEqual(list.periods.count, 20_000)
    XCTAssertEqual(list.periods.last?.segments, 39_998..<39_999)
  }
}
