import Foundation
import PlayheadCore
import PlayheadDASH
import XCTest

/// DASH-IF thumbnail tiles: the grid of a `thumbnail_tile` descriptor, the tile size, and
/// which descriptor applies to a Representation.
final class MPDThumbnailTilingTests: XCTestCase {
  func testTiling_readsColumnsRowsAndTileSize_rowMajorOrigins() throws {
    let tiling = try MPDThumbnailTiling(value: " 5X2 ", width: 320, height: 72, path: "p")
    XCTAssertEqual(tiling.columns, 5)
    XCTAssertEqual(tiling.rows, 2)
    XCTAssertEqual(tiling.tileWidth, 64)
    XCTAssertEqual(tiling.tileHeight, 36)
    XCTAssertEqual(tiling.tileCount, 10)
    XCTAssertTrue(tiling.origin(ofTile: 0) == (0, 0))
    XCTAssertTrue(tiling.origin(ofTile: 4) == (256, 0))
    XCTAssertTrue(tiling.origin(ofTile: 7) == (128, 36))
  }

  func testTiling_withBadValuesOrSizes_throwsAtThePath() {
    let cases: [(String?, Int?, Int?)] = [
      (nil, 320, 72), ("", 320, 72), ("five-by-two", 320, 72), ("5x", 320, 72),
      ("5x2x1", 320, 72), ("-5x2", 320, 72), ("0x2", 320, 72), ("5x0", 320, 72),
      ("100000x100000", 320, 72), ("99999999999x1", 320, 72), ("٥x2", 320, 72),
      ("5x2", nil, 72), ("5x2", 320, nil), ("5x2", 0, 72), ("400x1", 320, 72),
      ("5x2", 1 << 25, 72),
    ]
    for (value, width, height) in cases {
      XCTAssertThrowsError(
        try MPDThumbnailTiling(value: value, width: width, height: height, path: "MPD/x"),
        "\(String(describing: value)) \(String(describing: width))x\(String(describing: height))"
      ) { error in
        XCTAssertEqual((error as? MPDError)?.path, "MPD/x")
      }
    }
  }

  func testDescriptor_onTheRepresentation_winsOverTheSet_andBothSchemesCount() throws {
    let xml = """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S">
        <Period>
          <AdaptationSet contentType="image" mimeType="image/jpeg">
            <EssentialProperty schemeIdUri="http://dashif.org/guidelines/thumbnail_tile" value="2x2"/>
            <SegmentTemplate media="t-$Number$.jpg" duration="10"/>
            <Representation id="own" bandwidth="1" width="320" height="180">
              <EssentialProperty schemeIdUri="http://dashif.org/thumbnail_tile" value="10x1"/>
            </Representation>
            <Representation id="inherited" bandwidth="1" width="320" height="180"/>
          </AdaptationSet>
          <AdaptationSet contentType="image" mimeType="image/png">
            <SegmentTemplate media="u-$Number$.png" duration="10"/>
            <Representation id="only-rep" bandwidth="1" width="100" height="100">
              <EssentialProperty schemeIdUri="http://dashif.org/thumbnail_tile" value="1x1"/>
            </Representation>
          </AdaptationSet>
        </Period>
      </MPD>
      """
    let mpd = try MPDParser.parse(Data(xml.utf8), url: URL(string: "https://cdn.test/a.mpd")!)
    let sets = mpd.periods[0].adaptationSets
    XCTAssertTrue(sets[0].isThumbnailTiles)
    XCTAssertTrue(sets[1].isThumbnailTiles, "a Representation's descriptor makes a tile set")
    let own = try sets[0].thumbnailTiling(of: sets[0].representations[0], path: "r")
    XCTAssertEqual(own.columns, 10)
    XCTAssertEqual(own.tileWidth, 32)
    let inherited = try sets[0].thumbnailTiling(of: sets[0].representations[1], path: "r")
    XCTAssertEqual(inherited.columns, 2)
    XCTAssertEqual(inherited.tileHeight, 90)
  }
}
