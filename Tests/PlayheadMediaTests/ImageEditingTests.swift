import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// Cropping, scaling, pasting and comparing RGBA images.
final class ImageEditingTests: XCTestCase {
  /// A `width` x `height` image whose pixel (x, y) is (x, y, x + y, 255).
  private func coordinates(width: Int, height: Int) -> RGBAImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        pixels += [UInt8(x), UInt8(y), UInt8((x + y) % 256), 255]
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  func testCrop_insideTheImage_copiesTheRegion() throws {
    let image = coordinates(width: 40, height: 30)
    let crop = try image.cropped(x: 10, y: 5, width: 20, height: 8)
    XCTAssertEqual(crop.width, 20)
    XCTAssertEqual(crop.height, 8)
    XCTAssertTrue(crop.isWellFormed)
    XCTAssertEqual(crop.pixel(x: 0, y: 0).r, 10)
    XCTAssertEqual(crop.pixel(x: 0, y: 0).g, 5)
    XCTAssertEqual(crop.pixel(x: 19, y: 7).r, 29)
    XCTAssertEqual(crop.pixel(x: 19, y: 7).g, 12)
    XCTAssertEqual(try image.cropped(x: 0, y: 0, width: 40, height: 30), image)
    XCTAssertEqual(try image.cropped(x: 39, y: 29, width: 1, height: 1).pixel(x: 0, y: 0).b, 68)
  }

  func testCrop_zeroSize_throwsInvalidArgument() {
    let image = coordinates(width: 40, height: 30)
    let error = assertThrows(.invalidArgument) {
      try image.cropped(x: 0, y: 0, width: 0, height: 10)
    }
    XCTAssertEqual(error?.message.contains("empty"), true)
    assertThrows(.invalidArgument) { try image.cropped(x: 0, y: 0, width: 10, height: 0) }
    assertThrows(.invalidArgument) { try image.cropped(x: 0, y: 0, width: -5, height: 10) }
  }

  func testCrop_outsideTheImage_throwsInvalidArgument() {
    let image = coordinates(width: 40, height: 30)
    let cases: [(Int, Int, Int, Int)] = [
      (40, 0, 1, 1), (0, 30, 1, 1), (100, 100, 10, 10), (35, 0, 10, 10), (0, 25, 10, 10),
      (-1, 0, 10, 10), (0, -1, 10, 10), (Int.max, 0, 10, 10), (1, 1, Int.max, 1),
      (1, 1, 1, Int.max),
    ]
    for (x, y, width, height) in cases {
      let error = assertThrows(.invalidArgument) {
        try image.cropped(x: x, y: y, width: width, height: height)
      }
      XCTAssertEqual(error?.message.contains("not inside"), true, "\(x),\(y),\(width),\(height)")
    }
  }

  func testCrop_malformedImage_throwsInvalidArgument() {
    assertThrows(.invalidArgument) {
      try RGBAImage(width: 4, height: 4, pixels: [0]).cropped(x: 0, y: 0, width: 1, height: 1)
    }
  }

  func testScale_givesTheSizeAsked_andKeepsTheAspectWithOneSide() throws {
    let image = ImageCodecTests.pattern(width: 64, height: 48)
    let half = try image.scaled(width: 32, height: 24)
    XCTAssertEqual([half.width, half.height], [32, 24])
    let byWidth = try image.scaled(width: 16, height: nil)
    XCTAssertEqual([byWidth.width, byWidth.height], [16, 12])
    let byHeight = try image.scaled(width: nil, height: 96)
    XCTAssertEqual([byHeight.width, byHeight.height], [128, 96])
    XCTAssertEqual(try image.scaled(width: nil, height: nil), image)
    // A uniform image stays uniform.
    let grey = RGBAImage(width: 10, height: 10, color: RGBAColor(r: 90, g: 90, b: 90))
    let scaledGrey = try grey.scaled(width: 37, height: 3)
    XCTAssertLessThan(
      try XCTUnwrap(
        scaledGrey.meanAbsoluteDifference(
          to: RGBAImage(width: 37, height: 3, color: RGBAColor(r: 90, g: 90, b: 90)))), 1)
  }

  func testScale_badSizes_throwInvalidArgument() {
    let image = ImageCodecTests.pattern(width: 8, height: 8)
    assertThrows(.invalidArgument) { try image.scaled(width: 0, height: 8) }
    assertThrows(.invalidArgument) { try image.scaled(width: -3, height: nil) }
    assertThrows(.invalidArgument) { try image.scaled(width: 100_000, height: 8) }
    assertThrows(.invalidArgument) {
      try RGBAImage(width: 2, height: 2, pixels: []).scaled(width: 1, height: 1)
    }
  }

  func testPaste_copiesAndClipsAtTheEdges() {
    var canvas = RGBAImage(width: 10, height: 10, color: .black)
    let red = RGBAImage(width: 4, height: 4, color: RGBAColor(r: 255, g: 0, b: 0))
    canvas.paste(red, x: 2, y: 3)
    XCTAssertEqual(canvas.pixel(x: 2, y: 3).r, 255)
    XCTAssertEqual(canvas.pixel(x: 5, y: 6).r, 255)
    XCTAssertEqual(canvas.pixel(x: 6, y: 6).r, 0)
    XCTAssertEqual(canvas.pixel(x: 1, y: 3).r, 0)
    canvas.paste(red, x: 8, y: -2)
    XCTAssertEqual(canvas.pixel(x: 9, y: 0).r, 255)
    XCTAssertEqual(canvas.pixel(x: 9, y: 1).r, 255)
    XCTAssertEqual(canvas.pixel(x: 9, y: 2).r, 0)
    let before = canvas
    canvas.paste(red, x: 100, y: 0)
    canvas.paste(red, x: Int.min, y: Int.max)
    canvas.paste(RGBAImage(width: 3, height: 3, pixels: []), x: 0, y: 0)
    XCTAssertEqual(canvas, before)
    XCTAssertTrue(canvas.isWellFormed)
  }

  func testMeanAbsoluteDifference() {
    let a = RGBAImage(width: 2, height: 1, color: RGBAColor(r: 10, g: 10, b: 10, a: 10))
    let b = RGBAImage(width: 2, height: 1, color: RGBAColor(r: 14, g: 10, b: 10, a: 10))
    XCTAssertEqual(a.meanAbsoluteDifference(to: a), 0)
    XCTAssertEqual(a.meanAbsoluteDifference(to: b), 1)
    XCTAssertNil(a.meanAbsoluteDifference(to: RGBAImage(width: 1, height: 2, color: .black)))
  }
}
