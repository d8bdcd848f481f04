import CFFmpeg
import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadMedia

final class PlanarFrameRangeTests: XCTestCase {
  func testAFullRangeFrame_isNotUploadable_andConvertsToLimitedRange() throws {
    let frame = try VideoFrame.solid(
      width: 16, height: 16, color: RGBAColor(r: 255, g: 255, b: 255))
    frame.withPlanes { XCTAssertEqual(Int($0[0].baseAddress[0]), 235, accuracy: 1) }
    frame.raw.pointee.color_range = AVCOL_RANGE_JPEG
    XCTAssertEqual(frame.planeLayout, .other, "full range is not what a YUV texture shows")
    let limited = try PlanarFrameConverter().convert(frame, to: .yuv420p)
    XCTAssertEqual(limited.planeLayout, .yuv420p)
    // Y 235 read as full range is 16 + 235 * 219 / 255 = 218 in limited range.
    limited.withPlanes { XCTAssertEqual(Int($0[0].baseAddress[0]), 218, accuracy: 2) }
  }
}
