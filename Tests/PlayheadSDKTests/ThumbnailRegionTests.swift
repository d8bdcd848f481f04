import Foundation
import PlayheadSDK
import XCTest

/// `#xywh=` fragments: what parses, what is refused, and percent conversion.
final class ThumbnailRegionTests: XCTestCase {
  func testParse_table() {
    let good: [(String, ThumbnailRegion?)] = [
      ("xywh=0,0,160,90", ThumbnailRegion(x: 0, y: 0, width: 160, height: 90)),
      ("xywh=pixel:320,180,160,90", ThumbnailRegion(x: 320, y: 180, width: 160, height: 90)),
      (
        "xywh=percent:25,25,50,50",
        ThumbnailRegion(x: 25, y: 25, width: 50, height: 50, unit: .percent)
      ),
      ("t=10&xywh=1,2,3,4", ThumbnailRegion(x: 1, y: 2, width: 3, height: 4)),
      ("xywh=1,2,3,4&t=10", ThumbnailRegion(x: 1, y: 2, width: 3, height: 4)),
      ("xywh=0016,0,1,1", ThumbnailRegion(x: 16, y: 0, width: 1, height: 1)),
      ("xywh=16777216,0,1,1", ThumbnailRegion(x: 16_777_216, y: 0, width: 1, height: 1)),
      ("t=10", nil),
      ("", nil),
      ("xywhx=1,2,3,4", nil),
    ]
    for (fragment, expected) in good {
      switch ThumbnailRegion.parse(fragment: fragment) {
      case .success(let region): XCTAssertEqual(region, expected, fragment)
      case .failure(let error): XCTFail("\(fragment): \(error)")
      }
    }
    let bad: [(String, String)] = [
      ("xywh=1,2,3", "four numbers"),
      ("xywh=1,2,3,4,5", "four numbers"),
      ("xywh=", "four numbers"),
      ("xywh=a,b,c,d", "whole numbers"),
      ("xywh=1,2,,4", "whole numbers"),
      ("xywh=-1,0,10,10", "whole numbers"),
      ("xywh=1.5,0,10,10", "whole numbers"),
      ("xywh=+1,0,10,10", "whole numbers"),
      ("xywh= 1,0,10,10", "whole numbers"),
      ("xywh=１,0,10,10", "whole numbers"),
      ("xywh=99999999999999999999,0,1,1", "whole numbers"),
      ("xywh=16777217,0,1,1", "whole numbers"),
      ("xywh=0,0,0,10", "at least 1"),
      ("xywh=0,0,10,0", "at least 1"),
      ("xywh=inch:1,2,3,4", "unknown unit"),
      ("xywh=percent:60,0,50,10", "past 100%"),
      ("xywh=percent:0,90,10,11", "past 100%"),
      ("xywh=1,2,3,4&xywh=1,2,3,4", "more than one"),
    ]
    for (fragment, reason) in bad {
      switch ThumbnailRegion.parse(fragment: fragment) {
      case .success(let region): XCTFail("\(fragment) parsed as \(String(describing: region))")
      case .failure(let error):
        XCTAssertTrue(error.message.contains(reason), "\(fragment): \(error.message)")
      }
    }
  }

  func testDescription_roundTrips() {
    for region in [
      ThumbnailRegion(x: 1, y: 2, width: 3, height: 4),
      ThumbnailRegion(x: 10, y: 0, width: 40, height: 100, unit: .percent),
    ] {
      XCTAssertEqual(try ThumbnailRegion.parse(fragment: region.description).get(), region)
    }
  }

  func testPercentToPixels_tilesMeetWithoutGaps() {
    let left = ThumbnailRegion(x: 0, y: 0, width: 33, height: 50, unit: .percent)
    let middle = ThumbnailRegion(x: 33, y: 0, width: 33, height: 50, unit: .percent)
    let a = left.pixels(imageWidth: 1000, imageHeight: 301)
    let b = middle.pixels(imageWidth: 1000, imageHeight: 301)
    XCTAssertEqual(a, ThumbnailRegion(x: 0, y: 0, width: 330, height: 150))
    XCTAssertEqual(b.x, a.x + a.width)
    XCTAssertEqual(
      ThumbnailRegion(x: 0, y: 0, width: 1, height: 1, unit: .percent).pixels(
        imageWidth: 10, imageHeight: 10),
      ThumbnailRegion(x: 0, y: 0, width: 1, height: 1), "at least one pixel")
    // Regions built by hand with absurd numbers never trap.
    let absurd = ThumbnailRegion(x: Int.max, y: Int.min, width: Int.max, height: 1, unit: .percent)
    _ = absurd.pixels(imageWidth: Int.max, imageHeight: 10)
    let pixels = ThumbnailRegion(x: 5, y: 6, width: 7, height: 8)
    XCTAssertEqual(pixels.pixels(imageWidth: 1, imageHeight: 1), pixels)
  }

  func testReferenceParse_fragmentErrorsAndSchemes() {
    let base = URL(string: "http://h/x/t.vtt")
    let schemes: Set<String> = ["http", "https"]
    let ok = ThumbnailReference.parse(
      payload: "s.jpg#xywh=1,2,3,4", relativeTo: base, allowedSchemes: schemes)
    XCTAssertEqual(
      try ok.get(),
      ThumbnailReference(
        imageURL: URL(string: "http://h/x/s.jpg")!,
        region: ThumbnailRegion(x: 1, y: 2, width: 3, height: 4)))
    let noBase = ThumbnailReference.parse(
      payload: "s.jpg", relativeTo: nil, allowedSchemes: schemes)
    XCTAssertThrowsError(try noBase.get(), "a relative URL without a base has no scheme")
    let ftp = ThumbnailReference.parse(
      payload: "ftp://h/s.jpg", relativeTo: base, allowedSchemes: schemes)
    XCTAssertThrowsError(try ftp.get())
    let long = String(repeating: "x", count: 10_000) + "#xywh=1"
    let huge = ThumbnailReference.parse(payload: long, relativeTo: base, allowedSchemes: schemes)
    XCTAssertThrowsError(try huge.get())
  }
}
