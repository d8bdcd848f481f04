import Foundation
import PlayheadCore
import PlayheadDASH
import XCTest

/// The MPD reader: attributes, BaseURL resolution, inheritance of segment information,
/// Period chaining, protection, events, and errors that name their element path.
final class MPDParserTests: XCTestCase {
  private let url = URL(string: "https://cdn.example/content/manifest.mpd")!

  private func parse(_ text: String) throws -> MPD {
    try MPDParser.parse(Data(text.utf8), url: url)
  }

  private func refusal(_ text: String) -> MPDError? {
    do {
      _ = try MPDParser.parse(Data(text.utf8), url: url)
      return nil
    } catch {
      return error
    }
  }

  private let twoPeriods = """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" type="static"
      mediaPresentationDuration="PT20S" minBufferTime="PT2S" profiles="a, b">
      <BaseURL>media/</BaseURL>
      <Period id="p1" duration="PT8S">
        <SegmentTemplate timescale="1000" duration="2000" startNumber="1"
          media="$RepresentationID$/$Number%03d$.m4s" initialization="$RepresentationID$/init.mp4"/>
        <AdaptationSet mimeType="video/mp4" codecs="avc1.64001f" segmentAlignment="true">
          <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"
            cenc:default_KID="10000000-1000-1000-1000-100000000001"/>
          <ContentProtection schemeIdUri="urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e">
            <clearkey:Laurl xmlns:clearkey="http://dashif.org/guidelines/clearKey">https://license.example/ck</clearkey:Laurl>
          </ContentProtection>
          <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
          <Representation id="v1" bandwidth="500000" width="640" height="360"/>
          <Representation id="v2" bandwidth="1500000" width="1280" height="720">
            <BaseURL>https://other.example/hd/</BaseURL>
          </Representation>
        </AdaptationSet>
      </Period>
      <Period id="p2">
        <EventStream schemeIdUri="urn:example:events" timescale="10">
          <Event presentationTime="30" duration="20" id="e1">hello</Event>
        </EventStream>
        <AdaptationSet mimeType="audio/mp4" lang="fr">
          <SegmentTemplate timescale="48000" media="a-$Time$.m4s" presentationTimeOffset="96000">
            <SegmentTimeline><S t="96000" d="96000" r="2"/><S d="48000"/></SegmentTimeline>
          </SegmentTemplate>
          <Representation id="a1" bandwidth="128000"/>
        </AdaptationSet>
      </Period>
    </MPD>
    """

  func testAttributesPeriodsAndInheritance() throws {
    let mpd = try parse(twoPeriods)
    XCTAssertEqual(mpd.type, .static)
    XCTAssertEqual(mpd.profiles, ["a", "b"])
    XCTAssertEqual(mpd.mediaPresentationDuration?.seconds, 20)
    XCTAssertEqual(mpd.baseURLs, [URL(string: "https://cdn.example/content/media/")!])
    XCTAssertEqual(mpd.periods.map(\.start.seconds), [0, 8])
    XCTAssertEqual(mpd.periods.map { $0.duration?.seconds }, [8, 12])

    let video = mpd.periods[0].adaptationSets[0]
    XCTAssertEqual(video.contentType, "video")
    XCTAssertTrue(video.segmentAlignment)
    XCTAssertEqual(
      video.roles, [MPDDescriptor(schemeIDURI: "urn:mpeg:dash:role:2011", value: "main")])
    XCTAssertEqual(
      video.contentProtections.map(\.defaultKID),
      ["10000000100010001000100000000001", "10000000100010001000100000000001"],
      "the default key ID applies to the set")
    XCTAssertEqual(
      video.contentProtections[1].licenseURL, URL(string: "https://license.example/ck"))

    let low = video.representations[0]
    XCTAssertEqual(
      low.initialization?.url.absoluteString, "https://cdn.example/content/media/v1/init.mp4")
    let segments = low.segments(in: mpd.periods[0])
    XCTAssertEqual(segments.count, 4)
    XCTAssertEqual(
      segments.map(\.url.absoluteString).first, "https://cdn.example/content/media/v1/001.m4s")
    XCTAssertEqual(segments.map(\.start.seconds), [0, 2, 4, 6])
    let high = video.representations[1]
    XCTAssertEqual(
      high.segments(in: mpd.periods[0]).last?.url.absoluteString,
      "https://other.example/hd/v2/004.m4s", "its own absolute BaseURL")

    let audio = mpd.periods[1].adaptationSets[0].representations[0]
    let timeline = audio.segments(in: mpd.periods[1])
    XCTAssertEqual(timeline.map(\.time), [96_000, 192_000, 288_000, 384_000])
    XCTAssertEqual(timeline.map(\.start.seconds), [8, 10, 12, 14], "Period start + (t - pto)")
    XCTAssertEqual(timeline.first?.url.lastPathComponent, "a-96000.m4s")
    let event = try XCTUnwrap(mpd.periods[1].eventStreams.first?.events.first)
    XCTAssertEqual(event.presentationTime.seconds, 3)
    XCTAssertEqual(event.duration?.seconds, 2)
    XCTAssertEqual(event.message, "hello")
  }

  func testErrorsNameTheirElementPath() {
    func mpd(_ body: String, _ attributes: String = "type=\"static\"") -> String {
      "<MPD \(attributes)>\(body)</MPD>"
    }
    let cases: [(String, String)] = [
      (
        mpd(
          "<Period><AdaptationSet mimeType=\"video/mp4\"><Representation id=\"a\" bandwidth=\"1\"><SegmentTemplate media=\"$Nmber$.m4s\" duration=\"2\"/></Representation></AdaptationSet></Period>"
        ),
        "MPD/Period[1]/AdaptationSet[1]/Representation[1]/SegmentTemplate/@media"
      ),
      (mpd("<Period duration=\"PT1X\"/>"), "MPD/Period[1]/@duration"),
      (mpd("<Period><AdaptationSet/></Period>"), "MPD/Period[1]/AdaptationSet[1]"),
      (
        mpd("<Period><AdaptationSet><Representation bandwidth=\"x\"/></AdaptationSet></Period>"),
        "MPD/Period[1]/AdaptationSet[1]/Representation[1]/@bandwidth"
      ),
      (
        mpd(
          "<Period><AdaptationSet><SegmentTemplate media=\"a\"><SegmentTimeline><S d=\"0\"/></SegmentTimeline></SegmentTemplate><Representation id=\"a\"/></AdaptationSet></Period>"
        ),
        "MPD/Period[1]/AdaptationSet[1]/SegmentTemplate/SegmentTimeline/S[1]/@d"
      ),
      (mpd("<Period/>", "type=\"dynamic\""), "MPD/@availabilityStartTime"),
      (mpd("<BaseURL>file:///etc/</BaseURL><Period/>"), "MPD/BaseURL[1]"),
      (mpd("<EssentialProperty schemeIdUri=\"urn:x\"/><Period/>"), "MPD/EssentialProperty"),
      ("<NotMPD/>", "NotMPD"),
    ]
    for (text, path) in cases {
      XCTAssertEqual(refusal(text)?.path, path, text)
    }
    XCTAssertEqual(
      refusal(mpd("<Period><AdaptationSet/></Period>"))?.description,
      "MPD/Period[1]/AdaptationSet[1]: no Representation (ISO/IEC 23009-1 5.3.3)")
    XCTAssertTrue(
      refusal("<!DOCTYPE MPD [<!ENTITY a \"b\">]><MPD/>")?.message.contains("DOCTYPE") ?? false,
      "an XML bomb never expands")
    // Found by the mpd fuzz target: a quoted value with a line break stays on one line.
    let quoted = refusal(
      mpd("<Period><AdaptationSet><SegmentTemplate media=\"v_$Number%&#10;05d$\"/><Representation id=\"a\"/></AdaptationSet></Period>"))
    XCTAssertFalse(quoted?.description.contains("\n") ?? true, String(describing: quoted))
  }

  func testIncompleteSegmentInformation_isReadButUnusable() throws {
    let text = """
      <MPD type="static"><Period duration="PT10S">
        <AdaptationSet mimeType="video/mp4"><SegmentBase/><Representation id="a" bandwidth="1"/></AdaptationSet>
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate duration="2"/><Representation/></AdaptationSet>
        <AdaptationSet mimeType="text/vtt"><Representation id="c" bandwidth="1"><BaseURL>subs.vtt</BaseURL></Representation></AdaptationSet>
      </Period><Period/></MPD>
      """
    let mpd = try parse(text)
    let sets = mpd.periods[0].adaptationSets
    guard case .unusable(let reason) = sets[0].representations[0].addressing else {
      return XCTFail("a SegmentBase without an index is unusable")
    }
    XCTAssertEqual(
      reason,
      "MPD/Period[1]/AdaptationSet[1]/SegmentBase/@indexRange: missing, no index of the segments"
        + " (ISO/IEC 23009-1 5.3.9.2)")
    guard case .unusable = sets[1].representations[0].addressing else {
      return XCTFail("a template without @media is unusable")
    }
    XCTAssertEqual(sets[1].representations[0].bandwidth, 0, "a missing bandwidth is 0")
    XCTAssertEqual(sets[1].representations[0].id, "AdaptationSet[2]/Representation[1]")
    XCTAssertEqual(
      sets[2].representations[0].segments(in: mpd.periods[0]).count, 0,
      "a text file is one file, fetched whole (no media segments to list)")
    XCTAssertEqual(mpd.periods.count, 2, "a Period without AdaptationSets is read")
  }
}
