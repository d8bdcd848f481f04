import Foundation
import PlayheadDASH
import XCTest

/// UTCTiming schemes read into their kinds, server answers turned into times, and the clock
/// offset from a round trip.
final class MPDUTCTimingTests: XCTestCase {
  private let base = URL(string: "https://live.example/a/manifest.mpd")!

  private func timing(_ scheme: String, _ value: String?, remote: Bool = true) -> MPDUTCTiming {
    MPDUTCTiming(MPDDescriptor(schemeIDURI: scheme, value: value), base: base, isRemote: remote)
  }

  func testSchemes() {
    XCTAssertEqual(
      timing("urn:mpeg:dash:utc:http-xsdate:2014", "https://time.example/xs /time"),
      .httpXSDate([
        URL(string: "https://time.example/xs")!, URL(string: "https://live.example/time")!,
      ]))
    XCTAssertEqual(
      timing("urn:mpeg:dash:utc:http-iso:2012", "t.txt"),
      .httpISO([URL(string: "https://live.example/a/t.txt")!]), ":2012 reads as :2014")
    let head = timing("urn:mpeg:dash:utc:http-head:2014", "https://time.example/")
    XCTAssertEqual(head.httpMethod, "HEAD")
    XCTAssertEqual(timing("urn:mpeg:dash:utc:http-iso:2014", "x").httpMethod, "GET")
    XCTAssertEqual(
      timing("urn:mpeg:dash:utc:direct:2014", "2024-01-01T00:00:05Z"),
      .direct(Date(timeIntervalSince1970: 1_704_067_205)))
    for unsupported in [
      timing("urn:mpeg:dash:utc:ntp:2014", "pool.ntp.org"),
      timing("urn:mpeg:dash:utc:http-ntp:2014", "https://ntp.example/"),
      timing("urn:mpeg:dash:utc:sntp:2014", "pool.ntp.org"),
      timing("urn:example:clock", "x"),
      timing("urn:mpeg:dash:utc:direct:2014", "noon"),
      timing("urn:mpeg:dash:utc:http-xsdate:2014", ""),
      timing("urn:mpeg:dash:utc:http-xsdate:2014", "file:///etc/passwd"),
    ] {
      XCTAssertFalse(unsupported.isSupported, "\(unsupported)")
      XCTAssertNil(unsupported.httpMethod)
      XCTAssertThrowsError(try unsupported.serverTime())
    }
    XCTAssertTrue(
      timing("urn:mpeg:dash:utc:http-xsdate:2014", "file:///tmp/t", remote: false).isSupported,
      "a local MPD may name a local file")
  }

  func testMPDSources_inDocumentOrder() throws {
    let mpd = try MPDParser.parse(
      Data(
        """
        <MPD type="dynamic" availabilityStartTime="2024-01-01T00:00:00Z">
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="ntp.example"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-head:2014" value="/clock"/>
        </MPD>
        """.utf8), url: base)
    let sources = mpd.utcTimingSources
    XCTAssertEqual(sources.count, 2)
    XCTAssertFalse(sources[0].isSupported)
    XCTAssertEqual(sources[1].urls, [URL(string: "https://live.example/clock")!])
  }

  func testResponseBodies() throws {
    let xs = timing("urn:mpeg:dash:utc:http-xsdate:2014", "https://t.example/")
    XCTAssertEqual(
      try xs.serverTime(body: Data("2024-01-01T00:00:01.250Z\r\n".utf8)),
      Date(timeIntervalSince1970: 1_704_067_201.25))
    let iso = timing("urn:mpeg:dash:utc:http-iso:2014", "https://t.example/")
    XCTAssertEqual(
      try iso.serverTime(body: Data(" 2024-01-01T01:00:00,5+01:00".utf8)),
      Date(timeIntervalSince1970: 1_704_067_200.5))
    for garbage in [
      Data(), Data("yesterday".utf8), Data([0xff, 0xfe, 0x00]),
      Data(repeating: 0x32, count: 5000), Data("2024-02-30T00:00:00Z".utf8),
    ] {
      XCTAssertThrowsError(try xs.serverTime(body: garbage)) { error in
        XCTAssertEqual((error as? MPDError)?.path, "UTCTiming")
      }
    }
  }

  func testDateHeaders() throws {
    let head = timing("urn:mpeg:dash:utc:http-head:2014", "https://t.example/")
    let expected = Date(timeIntervalSince1970: 784_111_777)
    XCTAssertEqual(try head.serverTime(dateHeader: "Sun, 06 Nov 1994 08:49:37 GMT"), expected)
    XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
    XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
    for bad in [
      "", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 1994 08:49:37 GMT",
      "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "1704067200",
    ] {
      XCTAssertNil(HTTPDate.parse(bad), bad)
    }
    XCTAssertThrowsError(try head.serverTime(dateHeader: nil))
    XCTAssertThrowsError(try head.serverTime(dateHeader: "soon"))
  }

  func testClockOffset_fromTheMiddleOfTheRoundTrip() {
    let sent = Date(timeIntervalSince1970: 1000)
    XCTAssertEqual(
      MPDUTCTiming.clockOffsetSeconds(
        serverTime: Date(timeIntervalSince1970: 1003), requestSentAt: sent,
        responseReceivedAt: Date(timeIntervalSince1970: 1002)), 2)
    XCTAssertEqual(
      MPDUTCTiming.clockOffsetSeconds(
        serverTime: Date(timeIntervalSince1970: 990), requestSentAt: sent,
        responseReceivedAt: Date(timeIntervalSince1970: 999)), -10, "a backwards round trip")
  }
}
