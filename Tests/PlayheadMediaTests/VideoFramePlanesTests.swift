import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class VideoFramePlanesTests: XCTestCase {
  func testDecodedH264_isYUV420p_withThreePlanes() throws {
    let frame = try firstVideoFrame(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    XCTAssertEqual(frame.planeLayout, .yuv420p)
    XCTAssertEqual(frame.pixelAspectRatio, 1)
    frame.withPlanes { planes in
      XCTAssertEqual(planes.count, 3)
      XCTAssertGreaterThanOrEqual(planes[0].bytesPerRow, 320)
      XCTAssertGreaterThanOrEqual(planes[1].bytesPerRow, 160)
      XCTAssertGreaterThanOrEqual(planes[2].bytesPerRow, 160)
    }
  }

  func testSolidFrames_haveTheLayoutAskedFor_andTheColour() throws {
    let red = RGBAColor(r: 255, g: 0, b: 0)
    let yuv = try VideoFrame.solid(width: 33, height: 17, color: red)
    XCTAssertEqual(yuv.planeLayout, .yuv420p)
    XCTAssertEqual(yuv.width, 33)
    XCTAssertEqual(yuv.height, 17)
    // BT.601 limited range: red is Y 81, U 90, V 240.
    yuv.withPlanes { planes in
      XCTAssertEqual(Int(planes[0].baseAddress[0]), 81, accuracy: 2)
      XCTAssertEqual(Int(planes[1].baseAddress[0]), 90, accuracy: 2)
      XCTAssertEqual(Int(planes[2].baseAddress[0]), 240, accuracy: 2)
    }
    let nv12 = try VideoFrame.solid(width: 32, height: 16, color: red, layout: .nv12)
    XCTAssertEqual(nv12.planeLayout, .nv12)
    nv12.withPlanes { planes in
      XCTAssertEqual(planes.count, 2)
      XCTAssertEqual(Int(planes[1].baseAddress[0]), 90, accuracy: 2)
      XCTAssertEqual(Int(planes[1].baseAddress[1]), 240, accuracy: 2)
    }
    let rgba = try VideoFrame.solid(width: 8, height: 8, color: red, layout: .other)
    XCTAssertEqual(rgba.planeLayout, .other)
    XCTAssertEqual(rgba.pixelFormatName, "rgba")
    rgba.withPlanes { XCTAssertTrue($0.isEmpty) }
    let back = try VideoConverter().convert(yuv, width: nil, height: nil)
    let pixel = back.pixel(x: 16, y: 8)
    XCTAssertEqual(Int(pixel.r), 255, accuracy: 4)
    XCTAssertEqual(Int(pixel.g), 0, accuracy: 4)
    XCTAssertEqual(Int(pixel.b), 0, accuracy: 4)
  }

  func testPlanarConverter_keepsTimestampsAndAspect_otherReturnsTheFrame() throws {
    let frame = try firstVideoFrame(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    let converter = PlanarFrameConverter()
    let nv12 = try converter.convert(frame, to: .nv12)
    XCTAssertEqual(nv12.planeLayout, .nv12)
    XCTAssertEqual(nv12.pts, frame.pts)
    XCTAssertEqual(nv12.duration, frame.duration)
    XCTAssertEqual(nv12.width, 320)
    XCTAssertTrue(try converter.convert(frame, to: .other) === frame)
    let back = try converter.convert(nv12, to: .yuv420p)
    let original = try VideoConverter().convert(frame, width: nil, height: nil)
    let roundTrip = try VideoConverter().convert(back, width: nil, height: nil)
    XCTAssertLessThanOrEqual(original.maximumDifference(to: roundTrip, width: 320, height: 240), 24)
  }

  func testSolid_refusesAnEmptySize() {
    XCTAssertThrowsError(try VideoFrame.solid(width: 0, height: 4, color: .black)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
  }
}
