import Foundation
import PlayheadDASH
import XCTest

/// Where and when a live MPD is reloaded.
final class MPDReloadTests: XCTestCase {
  private let remote = URL(string: "https://live.example/a/manifest.mpd")!

  private func mpd(_ attributes: String, _ body: String = "", url: URL? = nil) throws -> MPD {
    try MPDParser.parse(
      Data("<MPD \(attributes)>\(body)</MPD>".utf8), url: url ?? remote)
  }

  func testLocationWins_andARemoteMPDNeverMovesToAFile() throws {
    let dynamic = "type=\"dynamic\" availabilityStartTime=\"2024-01-01T00:00:00Z\""
    XCTAssertEqual(try mpd(dynamic).reloadURL, remote)
    XCTAssertEqual(
      try mpd(dynamic, "<Location>../b/next.mpd</Location>").reloadURL,
      URL(string: "https://live.example/b/next.mpd")!)
    XCTAssertThrowsError(try mpd(dynamic, "<Location>file:///etc/passwd</Location>")) { error in
      XCTAssertEqual((error as? MPDError)?.path, "MPD/Location[1]")
    }
    let local = URL(fileURLWithPath: "/tmp/live/manifest.mpd")
    XCTAssertEqual(
      try mpd(dynamic, "<Location>next.mpd</Location>", url: local).reloadURL,
      URL(fileURLWithPath: "/tmp/live/next.mpd"))
  }

  func testNextReloadTime() throws {
    let fetched = Date(timeIntervalSince1970: 1_704_067_230)
    let dynamic = "type=\"dynamic\" availabilityStartTime=\"2024-01-01T00:00:00Z\""
    let updating = try mpd(dynamic + " minimumUpdatePeriod=\"PT5S\"")
    XCTAssertTrue(updating.needsReload)
    XCTAssertEqual(updating.nextReloadTime(fetchedAt: fetched), fetched.addingTimeInterval(5))
    let zero = try mpd(dynamic + " minimumUpdatePeriod=\"PT0S\"")
    XCTAssertEqual(
      zero.nextReloadTime(fetchedAt: fetched, minimumInterval: 2), fetched.addingTimeInterval(2))
    XCTAssertNil(try mpd(dynamic).nextReloadTime(fetchedAt: fetched), "no update period")
    XCTAssertNil(
      try mpd("type=\"static\" minimumUpdatePeriod=\"PT5S\"").nextReloadTime(fetchedAt: fetched))
    let ending = try mpd(
      dynamic + " minimumUpdatePeriod=\"PT5S\" availabilityEndTime=\"2024-01-01T00:00:32Z\"")
    XCTAssertNil(ending.nextReloadTime(fetchedAt: fetched), "availability ends first")
  }

  func testAnOlderPublishTimeDoesNotReplace() throws {
    let dynamic = "type=\"dynamic\" availabilityStartTime=\"2024-01-01T00:00:00Z\""
    let newer = try mpd(dynamic + " publishTime=\"2024-01-01T00:01:00Z\"")
    let older = try mpd(dynamic + " publishTime=\"2024-01-01T00:00:30Z\"")
    XCTAssertFalse(newer.isSuperseded(by: older))
    XCTAssertTrue(older.isSuperseded(by: newer))
    XCTAssertTrue(newer.isSuperseded(by: try mpd(dynamic)))
  }
}
