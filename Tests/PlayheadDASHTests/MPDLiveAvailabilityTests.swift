import Foundation
import PlayheadCore
import PlayheadDASH
import XCTest

/// Live availability on hand-written dynamic MPDs with a fixed availabilityStartTime and a
/// fixed `now`: numbers from the clock, timelines up to now, the time-shift buffer, the
/// availability time offset, several Periods, the end of availability, and static MPDs
/// through the same call.
final class MPDLiveAvailabilityTests: XCTestCase {
  private let url = URL(string: "https://live.example/channel/manifest.mpd")!
  /// 2024-01-01T00:00:00Z.
  private let start = Date(timeIntervalSince1970: 1_704_067_200)

  private func parse(_ text: String) throws -> MPD {
    try MPDParser.parse(Data(text.utf8), url: url)
  }

  private func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

  private func seconds(_ time: MediaTime?) -> Double? { time.map(\.seconds) }

  private func live(
    _ body: String, extra: String = "", depth: String = "PT30S"
  ) -> String {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" minBufferTime="PT4S"
      availabilityStartTime="2024-01-01T00:00:00Z" timeShiftBufferDepth="\(depth)"
      minimumUpdatePeriod="PT6S" \(extra)>
    \(body)
    </MPD>
    """
  }

  private func numbered(ato: String = "") -> String {
    live(
      """
      <Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4">
        <SegmentTemplate timescale="1000" duration="2000" startNumber="10" \(ato)
          media="v-$Number$.m4s" initialization="v-init.mp4"/>
        <Representation id="v" bandwidth="1000"/>
      </AdaptationSet></Period>
      """)
  }

  func testTemplateDuration_numbersComeFromTheClock() throws {
    let mpd = try parse(numbered())
    let representation = mpd.periods[0].adaptationSets[0].representations[0]
    let available = representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(100.5))
    // Segment k is [2k, 2k + 2): available once it ends (k <= 49), kept while its end plus
    // its duration plus the 30 s depth reaches now (k >= 34).
    XCTAssertEqual(available.segments.map(\.number), Array(44...59))
    XCTAssertEqual(available.segments.first?.url.lastPathComponent, "v-44.m4s")
    XCTAssertEqual(seconds(available.earliest), 68)
    XCTAssertEqual(seconds(available.edge), 100)
    XCTAssertEqual(available.segments.last?.time, 98_000)
    XCTAssertFalse(available.isTruncated)
    XCTAssertEqual(available.nextAvailabilityTime, at(102))

    let window = mpd.availabilityWindow(at: at(100.5))
    XCTAssertTrue(window.isDynamic)
    XCTAssertEqual(seconds(window.now), 100.5)
    XCTAssertEqual(seconds(window.earliest), 70.5)
    XCTAssertEqual(seconds(window.presentationDelay), 4, "minBufferTime without a suggestion")
    XCTAssertEqual(seconds(window.liveEdge), 96.5)
    XCTAssertFalse(window.hasEnded)

    let newest = representation.availableSegments(
      in: mpd.periods[0], of: mpd, at: at(100.5), maxCount: 5)
    XCTAssertEqual(newest.segments.map(\.number), Array(55...59), "the newest are kept")
    XCTAssertTrue(newest.isTruncated)

    let before = representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(1.9))
    XCTAssertEqual(before.segments.count, 0)
    XCTAssertEqual(before.nextAvailabilityTime, at(2))
  }

  func testNumbersAreStableAcrossReloads_andTheWindowSlides() throws {
    let mpd = try parse(numbered())
    let representation = mpd.periods[0].adaptationSets[0].representations[0]
    let first = representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(100.5))
    let reloaded = try parse(numbered())
    let later = reloaded.periods[0].adaptationSets[0].representations[0].availableSegments(
      in: reloaded.periods[0], of: reloaded, at: at(106.5))
    XCTAssertEqual(later.segments.map(\.number), Array(47...62))
    for segment in later.segments {
      if let same = first.segments.first(where: { $0.number == segment.number }) {
        XCTAssertEqual(same, segment, "number \(segment.number) means the same segment")
      }
    }
  }

  func testAvailabilityTimeOffset_makesTheSegmentInProgressAvailable() throws {
    let mpd = try parse(numbered(ato: "availabilityTimeOffset=\"1.5\""))
    let representation = mpd.periods[0].adaptationSets[0].representations[0]
    guard case .template(let template) = representation.addressing else {
      return XCTFail("a template")
    }
    XCTAssertEqual(template.availabilityTimeOffset?.seconds, 1.5)
    let available = representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(100.5))
    XCTAssertEqual(available.segments.last?.number, 60, "[100, 102) is available from 100.5")
    XCTAssertEqual(available.nextAvailabilityTime, at(102.5))
    XCTAssertThrowsError(try parse(numbered(ato: "availabilityTimeOffset=\"soon\"")))
    let infinite = try parse(numbered(ato: "availabilityTimeOffset=\"INF\""))
    let open = infinite.periods[0].adaptationSets[0].representations[0].availableSegments(
      in: infinite.periods[0], of: infinite, at: at(100.5))
    XCTAssertEqual(open.segments.last?.number, 59, "INF on an open Period counts as none")
  }

  func testTimeline_openRepeatRunsUpToNow() throws {
    let mpd = try parse(
      live(
        """
        <Period start="PT0S"><AdaptationSet mimeType="audio/mp4">
          <SegmentTemplate timescale="1000" presentationTimeOffset="90000" media="a-$Time$.m4s">
            <SegmentTimeline><S t="90000" d="2000" r="-1"/></SegmentTimeline>
          </SegmentTemplate>
          <Representation id="a" bandwidth="1"/>
        </AdaptationSet></Period>
        """, depth: "PT6S"))
    let period = mpd.periods[0]
    let representation = period.adaptationSets[0].representations[0]
    let available = representation.availableSegments(in: period, of: mpd, at: at(11))
    // [0, 2) … [8, 10) have ended; the 6 s depth keeps those whose end + 2 s + 6 s >= 11.
    XCTAssertEqual(available.segments.map(\.time), [92_000, 94_000, 96_000, 98_000])
    XCTAssertEqual(available.segments.map(\.number), [2, 3, 4, 5])
    XCTAssertEqual(seconds(available.earliest), 2)
    XCTAssertEqual(seconds(available.edge), 10)
    XCTAssertEqual(available.segments.last?.url.lastPathComponent, "a-98000.m4s")
    XCTAssertEqual(available.nextAvailabilityTime, at(12))
    // A day later the walk costs the same: the open repeat is worked out, not walked.
    let dayLater = representation.availableSegments(in: period, of: mpd, at: at(86_400 + 11))
    XCTAssertEqual(dayLater.segments.count, 4)
    XCTAssertEqual(dayLater.segments.last?.number, 43_205)
  }

  func testTimeline_explicitEntriesAheadOfNowAreNotYetAvailable() throws {
    let mpd = try parse(
      live(
        """
        <Period start="PT0S"><AdaptationSet mimeType="video/mp4">
          <SegmentTemplate timescale="1000" startNumber="100" media="v-$Number$.m4s">
            <SegmentTimeline><S t="0" d="2000" r="4"/><S d="1000" r="9"/></SegmentTimeline>
          </SegmentTemplate>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period>
        """))
    let period = mpd.periods[0]
    let representation = period.adaptationSets[0].representations[0]
    let available = representation.availableSegments(in: period, of: mpd, at: at(12.5))
    XCTAssertEqual(available.segments.map(\.number), Array(100...106))
    XCTAssertEqual(available.segments.last.map { seconds($0.start) }, 11)
    XCTAssertEqual(available.nextAvailabilityTime, at(13))
    let past = representation.availableSegments(in: period, of: mpd, at: at(25))
    XCTAssertEqual(past.segments.last?.number, 114)
    XCTAssertNil(past.nextAvailabilityTime, "a timeline that ended: only a reload tells more")
  }

  func testSeveralPeriods_eachWithItsOwnSegments() throws {
    let mpd = try parse(
      live(
        """
        <Period id="one" start="PT0S"><AdaptationSet mimeType="video/mp4">
          <SegmentTemplate timescale="1" duration="2" media="one-$Number$.m4s"/>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period>
        <Period id="two" start="PT20S"><AdaptationSet mimeType="video/mp4">
          <SegmentTemplate timescale="1" duration="2" startNumber="1" media="two-$Number$.m4s"/>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period>
        """, depth: "PT15S"))
    XCTAssertEqual(mpd.periods[0].duration?.seconds, 20, "closed by the next start")
    XCTAssertNil(mpd.periods[1].duration, "the last Period is open")
    XCTAssertEqual(mpd.periodIndices(availableAt: at(31)), [0, 1])
    XCTAssertEqual(mpd.periodIndices(availableAt: at(60)), [1])
    XCTAssertEqual(mpd.periodIndices(availableAt: at(10)), [0])
    let first = mpd.periods[0].adaptationSets[0].representations[0].availableSegments(
      in: mpd.periods[0], of: mpd, at: at(31))
    XCTAssertEqual(first.segments.map(\.number), [7, 8, 9, 10], "[12, 20): kept by the depth")
    XCTAssertNil(first.nextAvailabilityTime, "the Period has ended")
    let second = mpd.periods[1].adaptationSets[0].representations[0].availableSegments(
      in: mpd.periods[1], of: mpd, at: at(31))
    XCTAssertEqual(second.segments.map(\.number), [1, 2, 3, 4, 5])
    XCTAssertEqual(second.segments.map { $0.start.seconds }, [20, 22, 24, 26, 28])
    XCTAssertEqual(second.nextAvailabilityTime, at(32))
    let notYet = mpd.periods[1].adaptationSets[0].representations[0].availableSegments(
      in: mpd.periods[1], of: mpd, at: at(15))
    XCTAssertEqual(notYet.segments.count, 0, "the Period has not started")
    XCTAssertEqual(notYet.nextAvailabilityTime, at(22), "its first segment's end")
  }

  func testAvailabilityEndTime_endsEverything() throws {
    let mpd = try parse(
      numbered().replacingOccurrences(
        of: "minimumUpdatePeriod", with: "availabilityEndTime=\"2024-01-01T00:01:00Z\" x"))
    let representation = mpd.periods[0].adaptationSets[0].representations[0]
    let before = representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(59))
    XCTAssertEqual(before.segments.last?.number, 38)
    XCTAssertTrue(mpd.availabilityWindow(at: at(61)).hasEnded)
    XCTAssertEqual(
      representation.availableSegments(in: mpd.periods[0], of: mpd, at: at(61)).segments.count, 0)
  }

  func testSegmentList_isCheckedSegmentBySegment() throws {
    let mpd = try parse(
      live(
        """
        <Period start="PT0S"><AdaptationSet mimeType="video/mp4">
          <SegmentList timescale="10" duration="20" startNumber="3">
            <SegmentURL media="a.m4s"/><SegmentURL media="b.m4s"/><SegmentURL media="c.m4s"/>
            <SegmentURL media="d.m4s"/><SegmentURL media="e.m4s"/>
          </SegmentList>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period>
        """))
    let period = mpd.periods[0]
    let available = period.adaptationSets[0].representations[0].availableSegments(
      in: period, of: mpd, at: at(7))
    XCTAssertEqual(available.segments.map(\.url.lastPathComponent), ["a.m4s", "b.m4s", "c.m4s"])
    XCTAssertEqual(available.segments.map(\.number), [3, 4, 5])
    XCTAssertEqual(available.nextAvailabilityTime, at(8))
  }

  func testStaticMPD_givesEverySegmentThroughTheSamePath() throws {
    let mpd = try parse(
      """
      <MPD type="static" mediaPresentationDuration="PT9S"><Period>
        <AdaptationSet mimeType="video/mp4">
          <SegmentTemplate timescale="1000" duration="2000" media="s-$Number$.m4s"/>
          <Representation id="v" bandwidth="1"/>
        </AdaptationSet></Period></MPD>
      """)
    let period = mpd.periods[0]
    let representation = period.adaptationSets[0].representations[0]
    let available = representation.availableSegments(
      in: period, of: mpd, at: Date(timeIntervalSince1970: 0))
    XCTAssertEqual(available.segments, representation.segments(in: period))
    XCTAssertEqual(available.segments.count, 5)
    XCTAssertNil(available.nextAvailabilityTime)
    let window = mpd.availabilityWindow(at: Date())
    XCTAssertFalse(window.isDynamic)
    XCTAssertTrue(window.hasEnded)
    XCTAssertEqual(seconds(window.earliest), 0)
    XCTAssertEqual(seconds(window.now), 9)
    let firstTwo = representation.availableSegments(in: period, of: mpd, at: Date(), maxCount: 2)
    XCTAssertEqual(firstTwo.segments.map(\.number), [1, 2], "a static MPD keeps the first")
    XCTAssertTrue(firstTwo.isTruncated)
  }

  func testPresentationDelay_defaults() throws {
    var mpd = try parse(numbered())
    mpd.suggestedPresentationDelay = MediaTime(value: 7, timescale: 1)
    XCTAssertEqual(mpd.presentationDelay.seconds, 7)
    mpd.suggestedPresentationDelay = nil
    mpd.maxSegmentDuration = MediaTime(value: 3, timescale: 1)
    XCTAssertEqual(mpd.presentationDelay.seconds, 6, "two of the longest segments")
    mpd.maxSegmentDuration = nil
    mpd.minBufferTime = nil
    XCTAssertEqual(mpd.presentationDelay, MPD.defaultPresentationDelay)
    XCTAssertEqual(mpd.presentationTime(at: at(12.25))?.seconds, 12.25)
    XCTAssertEqual(mpd.wallClockTime(of: MediaTime(value: 5, timescale: 1)), at(5))
  }
}
