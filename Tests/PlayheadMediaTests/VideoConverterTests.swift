import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class VideoConverterTests: XCTestCase {
  private var frame: VideoFrame!
  private let converter = VideoConverter()

  override func setUpWithError() throws {
    frame = try firstVideoFrame(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
  }

  func testNaturalSize_isTheFrameSizeAndOpaque() throws {
    let image = try converter.convert(frame, width: nil, height: nil)
    XCTAssertEqual(image.width, 320)
    XCTAssertEqual(image.height, 240)
    XCTAssertTrue(image.isWellFormed)
    XCTAssertTrue(
      stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    XCTAssertFalse(image.rowIsUniform(120, .black), "the picture should not be blank")
  }

  func testOneSide_keepsTheAspectRatio() throws {
    let image = try converter.convert(frame, width: 160, height: nil)
    XCTAssertEqual(image.width, 160)
    XCTAssertEqual(image.height, 120)
    let tall = try converter.convert(frame, width: nil, height: 60)
    XCTAssertEqual(tall.width, 80)
  }

  func testFit_squareOutput_hasBlackBarsTopAndBottom() throws {
    let image = try converter.convert(frame, width: 200, height: 200, gravity: .fit)
    XCTAssertEqual(image.width, 200)
    XCTAssertEqual(image.height, 200)
    // 320x240 scaled to 200x150, centred: 25 rows of bars above and below.
    for y in [0, 12, 24, 175, 190, 199] {
      XCTAssertTrue(image.rowIsUniform(y, .black), "row \(y) should be a black bar")
    }
    for y in [26, 100, 173] {
      XCTAssertFalse(image.rowIsUniform(y, .black), "row \(y) should be picture")
    }
    XCTAssertFalse(image.columnIsUniform(0, .black), "no bars left or right")
  }

  func testFit_tallerOutputAtNaturalWidth_keepsThePictureUnscaled() throws {
    let natural = try converter.convert(frame, width: nil, height: nil)
    let image = try converter.convert(
      frame, width: 320, height: 320, gravity: .fit, background: .clear)
    for y in [0, 39, 280, 319] {
      XCTAssertTrue(image.rowIsUniform(y, .clear), "row \(y) should be a clear bar")
    }
    XCTAssertEqual(
      image.maximumDifference(to: natural, offsetY: -40, width: 320, height: 240), 0)
  }

  func testFit_widerOutput_hasPillarbox() throws {
    let image = try converter.convert(frame, width: 400, height: 240, gravity: .fit)
    XCTAssertTrue(image.columnIsUniform(0, .black))
    XCTAssertTrue(image.columnIsUniform(39, .black))
    XCTAssertTrue(image.columnIsUniform(360, .black))
    XCTAssertFalse(image.columnIsUniform(41, .black))
  }

  func testFill_squareOutput_hasNoBarsAndCropsTheCentre() throws {
    let image = try converter.convert(frame, width: 240, height: 240, gravity: .fill)
    XCTAssertEqual(image.width, 240)
    XCTAssertEqual(image.height, 240)
    for y in [0, 239] { XCTAssertFalse(image.rowIsUniform(y, .black)) }
    for x in [0, 239] { XCTAssertFalse(image.columnIsUniform(x, .black)) }
    // Same scale as the source: the output is the source's columns 40..<280.
    let natural = try converter.convert(frame, width: nil, height: nil)
    let inner = image.maximumDifference(to: natural, offsetX: 40, width: 240, height: 240)
    XCTAssertLessThanOrEqual(inner, 8)
  }

  func testFill_scaledDown_coversTheOutput() throws {
    let image = try converter.convert(frame, width: 200, height: 200, gravity: .fill)
    XCTAssertEqual(image.width, 200)
    XCTAssertEqual(image.height, 200)
    for y in [0, 199] { XCTAssertFalse(image.rowIsUniform(y, .black)) }
  }

  func testStretch_ignoresAspect() throws {
    let image = try converter.convert(frame, width: 200, height: 200, gravity: .stretch)
    XCTAssertEqual(image.width, 200)
    XCTAssertEqual(image.height, 200)
    for y in [0, 199] { XCTAssertFalse(image.rowIsUniform(y, .black)) }
    let fill = try converter.convert(frame, width: 200, height: 200, gravity: .fill)
    XCTAssertNotEqual(image, fill, "stretch keeps the sides that fill crops away")
  }

  func testInvalidSizes_throwInvalidArgument() {
    assertThrows(.invalidArgument) { try self.converter.convert(self.frame, width: 0, height: 10) }
    assertThrows(.invalidArgument) {
      try self.converter.convert(self.frame, width: 20_000, height: 10)
    }
  }

  func testAlphaLeft_outputsTheColourHalfWithMaskAlpha() throws {
    let alphaFrame = try firstVideoFrame(try MediaFixtures.demuxer("alpha-left.mp4"))
    let image = try converter.convert(alphaFrame, width: nil, height: nil, alphaMode: .alphaLeft)
    XCTAssertEqual(image.width, alphaFrame.width / 2)
    XCTAssertEqual(image.height, alphaFrame.height)
    let centre = image.pixel(x: image.width / 2, y: image.height / 2)
    XCTAssertGreaterThan(centre.a, 240, "inside the circle the mask is white: opaque")
    for (x, y) in [(1, 1), (image.width - 2, 1), (1, image.height - 2)] {
      XCTAssertLessThan(image.pixel(x: x, y: y).a, 16, "corner (\(x), \(y)) should be transparent")
    }
    let scaled = try converter.convert(
      alphaFrame, width: image.width * 2, height: image.height * 2, alphaMode: .alphaLeft)
    XCTAssertGreaterThan(scaled.pixel(x: scaled.width / 2, y: scaled.height / 2).a, 240)
    XCTAssertLessThan(scaled.pixel(x: 1, y: 1).a, 16)
  }

  func testAlphaModes_outputHalfTheFrame() throws {
    let expectations: [(AlphaRenderMode, Int, Int)] = [
      (.alphaRight, 160, 240), (.alphaTop, 320, 120), (.alphaBottom, 320, 120), (.none, 320, 240),
    ]
    for (mode, width, height) in expectations {
      let image = try converter.convert(frame, width: nil, height: nil, alphaMode: mode)
      XCTAssertEqual(image.width, width, mode.rawValue)
      XCTAssertEqual(image.height, height, mode.rawValue)
    }
  }

  func testRGBAImage_pixelOutsideIsTransparentBlack() {
    let image = RGBAImage(width: 2, height: 2, color: RGBAColor(r: 1, g: 2, b: 3, a: 4))
    XCTAssertTrue(image.pixel(x: 1, y: 1) == (1, 2, 3, 4))
    XCTAssertTrue(image.pixel(x: 2, y: 0) == (0, 0, 0, 0))
    XCTAssertTrue(image.pixel(x: -1, y: 0) == (0, 0, 0, 0))
  }
}
