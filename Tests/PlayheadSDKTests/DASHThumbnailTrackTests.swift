import Foundation
import PlayheadCore
import PlayheadDASH
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// `ThumbnailTrack(mpd:)`: DASH-IF thumbnail tile sets as seek thumbnails (cue times and
/// regions, Periods, the choice of Representation, bad sets, bounds).
final class DASHThumbnailTrackTests: XCTestCase {
  private func seconds(_ value: Double) -> MediaTime {
    MediaTime(seconds: value, preferredTimescale: 1000)
  }

  private func parse(_ xml: String, url: String = "https://cdn.test/v/a.mpd") throws -> MPD {
    try MPDParser.parse(Data(xml.utf8), url: URL(string: url)!)
  }

  /// An MPD of Periods, each its attributes and body.
  private func mpd(_ bodies: [(String, String)], attributes: String = "") -> String {
    let periods = bodies.map { "<Period \($0.0)>\($0.1)</Period>" }
    return """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" \(attributes)>
      \(periods.joined(separator: "\n"))
      </MPD>
      """
  }

  private func imageSet(
    value: String, id: String = "t", width: Int = 320, height: Int = 72,
    media: String = "tile-$Number$.jpg", duration: String = "5"
  ) -> String {
    """
    <AdaptationSet contentType="image" mimeType="image/jpeg">
      <SegmentTemplate media="\(media)" duration="\(duration)" startNumber="1"/>
      <Representation id="\(id)" bandwidth="1000" width="\(width)" height="\(height)">
        <EssentialProperty schemeIdUri="http://dashif.org/thumbnail_tile" value="\(value)"/>
      </Representation>
    </AdaptationSet>
    """
  }

  func testFixture_givesTenCuesPerImage_ofHalfASecond_rowMajor() throws {
    let url = try Fixtures.url("dash-thumbs/manifest.mpd")
    let track = try ThumbnailTrack(mpd: try MPDParser.parse(Data(contentsOf: url), url: url))
    XCTAssertEqual(track.thumbnails.count, 20)
    XCTAssertEqual(track.warnings, [])
    XCTAssertEqual(track.end, seconds(10))
    let folder = url.deletingLastPathComponent()
    for (index, cue) in track.thumbnails.enumerated() {
      let tile = index % 10
      XCTAssertEqual(cue.start, seconds(Double(index) * 0.5), "cue \(index)")
      XCTAssertEqual(cue.end, seconds(Double(index + 1) * 0.5), "cue \(index)")
      XCTAssertEqual(
        cue.reference.imageURL, folder.appendingPathComponent("tile-\(index / 10 + 1).jpg"))
      XCTAssertEqual(
        cue.reference.region,
        ThumbnailRegion(x: (tile % 5) * 64, y: (tile / 5) * 36, width: 64, height: 36))
    }
    XCTAssertEqual(
      track.thumbnail(at: seconds(8.6))?.description,
      folder.appendingPathComponent("tile-2.jpg").absoluteString + "#xywh=128,36,64,36")
    XCTAssertNil(track.thumbnail(at: seconds(10)))
  }

  func testPeriods_areOffsetByTheirStart_andTilesStopAtThePeriodEnd() throws {
    let xml = mpd([
      (
        "id=\"a\" start=\"PT0S\" duration=\"PT4S\"",
        imageSet(value: "2x1", width: 200, height: 50, duration: "4")
      ),
      (
        "id=\"b\" start=\"PT4S\" duration=\"PT3S\"",
        imageSet(value: "2x1", width: 200, height: 50, media: "b-$Number$.jpg", duration: "2")
      ),
    ])
    let track = try ThumbnailTrack(mpd: try parse(xml))
    let spans = track.thumbnails.map { [$0.start.seconds, $0.end.seconds] }
    // Period b: segments [4, 6) and [6, 8) cut at 7; the last tile [7, 8) is dropped.
    XCTAssertEqual(spans, [[0, 2], [2, 4], [4, 5], [5, 6], [6, 7]])
    XCTAssertEqual(
      track.thumbnails.map { $0.reference.imageURL.lastPathComponent },
      ["tile-1.jpg", "tile-1.jpg", "b-1.jpg", "b-1.jpg", "b-2.jpg"])
    XCTAssertEqual(track.thumbnails[3].reference.region?.x, 100)
  }

  func testWidestTiles_areChosen_unlessTheCallerNamesARepresentation() throws {
    let sets =
      imageSet(value: "10x1", id: "small", width: 1600, height: 90)
      + imageSet(value: "5x2", id: "wide", width: 1600, height: 360, media: "w-$Number$.jpg")
    let mpd = try parse(mpd([("duration=\"PT5S\"", sets)]))
    let widest = try ThumbnailTrack(mpd: mpd)
    XCTAssertEqual(widest.thumbnails.count, 10)
    XCTAssertEqual(widest.thumbnails[0].reference.imageURL.lastPathComponent, "w-1.jpg")
    XCTAssertEqual(widest.thumbnails[0].reference.region?.width, 320)
    let chosen = try ThumbnailTrack(mpd: mpd, representationID: "small")
    XCTAssertEqual(
      chosen.thumbnails[1].reference.region, ThumbnailRegion(x: 160, y: 0, width: 160, height: 90))
    XCTAssertThrowsError(try ThumbnailTrack(mpd: mpd, representationID: "none")) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
  }

  func testBadSets_areLeftOutWithWarnings_andNoUsableSetThrows() throws {
    let bad = imageSet(value: "garbage") + imageSet(value: "0x2") + imageSet(value: "100000x100000")
    let onlyBad = try parse(mpd([("duration=\"PT10S\"", bad)]))
    XCTAssertThrowsError(try ThumbnailTrack(mpd: onlyBad)) { error in
      let error = error as? PlayheadError
      XCTAssertEqual(error?.code, .unsupportedFormat)
      XCTAssertTrue(
        error?.message.contains("no usable thumbnail set") == true, "\(String(describing: error))")
      XCTAssertTrue(error?.message.contains("'garbage'") == true)
    }
    let mixed = try parse(mpd([("duration=\"PT10S\"", bad + imageSet(value: "5x2", id: "good"))]))
    let track = try ThumbnailTrack(mpd: mixed)
    XCTAssertEqual(track.thumbnails.count, 20)
    XCTAssertEqual(track.warnings.count, 3, "\(track.warnings)")
    XCTAssertTrue(track.warnings[0].hasPrefix("MPD/Period[1]/AdaptationSet[1]/Representation[1]"))
    let none = try parse(mpd([("duration=\"PT10S\"", "")]))
    XCTAssertThrowsError(try ThumbnailTrack(mpd: none)) { error in
      XCTAssertEqual((error as? PlayheadError)?.message.hasSuffix("has no thumbnail set"), true)
    }
  }

  func testHugeSegmentCounts_areBoundedByMaximumCues() throws {
    // A day of 1 ms segments (86.4 million) of 100x100 tiles would be 864 billion cues.
    let xml = mpd([
      (
        "duration=\"P1D\"",
        imageSet(value: "100x100", width: 10_000, height: 10_000, duration: "1\" timescale=\"1000")
      )
    ])
    let started = Date()
    let track = try ThumbnailTrack(mpd: try parse(xml), maximumCues: 50_000)
    XCTAssertEqual(track.thumbnails.count, 50_000)
    XCTAssertTrue(
      track.warnings.contains { $0.contains("truncated at 50000") }, "\(track.warnings)")
    XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    XCTAssertEqual(track.thumbnails[1].start, MediaTime(value: 1, timescale: 10_000_000))
  }

  func testDynamicMPD_listsWhatIsAvailableAtNow_andNothingWithoutIt() throws {
    let xml = """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic"
        availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT30S">
        <Period start="PT0S">\(imageSet(value: "5x2", duration: "10"))</Period>
      </MPD>
      """
    let mpd = try parse(xml)
    XCTAssertThrowsError(try ThumbnailTrack(mpd: mpd))
    let now = Date(timeIntervalSince1970: 1_767_225_600 + 65)  // 65 s after the start
    let track = try ThumbnailTrack(mpd: mpd, at: now)
    // Available: segments that ended by 65 s and whose end + duration + the 30 s buffer
    // is still ahead: [20, 30), [30, 40), [40, 50), [50, 60).
    XCTAssertEqual(track.thumbnails.first?.start, seconds(20))
    XCTAssertEqual(track.end, seconds(60))
    XCTAssertEqual(track.thumbnails.count, 40)
  }
}
