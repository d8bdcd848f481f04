import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class PNGCodecTests: XCTestCase {
  func testRoundTrip_givesTheSameImage() throws {
    var pixels: [UInt8] = []
    for y in 0..<37 {
      for x in 0..<53 {
        pixels += [UInt8(x * 4), UInt8(y * 6), UInt8((x * y) % 256), UInt8((x + y) * 3 % 256)]
      }
    }
    let image = RGBAImage(width: 53, height: 37, pixels: pixels)
    let data = try PNGCodec.encode(image)
    XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    XCTAssertEqual(try PNGCodec.decode(data), image)
  }

  func testRoundTrip_ofAConvertedFrame() throws {
    let frame = try firstVideoFrame(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    let image = try VideoConverter().convert(frame, width: 160, height: 90, gravity: .fit)
    XCTAssertEqual(try PNGCodec.decode(try PNGCodec.encode(image)), image)
  }

  func testEncode_malformedImage_throwsInvalidArgument() {
    assertThrows(.invalidArgument) {
      try PNGCodec.encode(RGBAImage(width: 4, height: 4, pixels: [1, 2, 3]))
    }
    assertThrows(.invalidArgument) {
      try PNGCodec.encode(RGBAImage(width: 0, height: 0, pixels: []))
    }
  }

  func testDecode_badBytes_throw() {
    assertThrows(.emptySource) { try PNGCodec.decode(Data()) }
    let error = assertThrows(.unsupportedFormat) {
      try PNGCodec.decode(Data("definitely not a png".utf8))
    }
    XCTAssertNotNil(error)
  }
}
