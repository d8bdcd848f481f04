import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

/// JPEG and PNG decoding and encoding through `ImageCodec`, with bad input.
final class ImageCodecTests: XCTestCase {
  /// An opaque picture of smooth gradients and a few hard-edged blocks.
  static func pattern(width: Int, height: Int) -> RGBAImage {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let block = (x / 16 + y / 16) % 2 == 0
        pixels += [
          UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
          block ? 200 : 40, 255,
        ]
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  func testDetect_bySignature() {
    XCTAssertEqual(ImageFormat.detect(Data([0xFF, 0xD8, 0xFF, 0xE0, 0])), .jpeg)
    XCTAssertEqual(
      ImageFormat.detect(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])), .png)
    XCTAssertNil(ImageFormat.detect(Data("WEBVTT\n".utf8)))
    XCTAssertNil(ImageFormat.detect(Data([0xFF, 0xD8])))
    XCTAssertNil(ImageFormat.detect(Data()))
  }

  func testJPEGRoundTrip_isCloseToTheOriginal() throws {
    let image = Self.pattern(width: 96, height: 64)
    let jpeg = try ImageCodec.encode(image, as: .jpeg)
    XCTAssertEqual(ImageFormat.detect(jpeg), .jpeg)
    XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9], "ends with the end-of-image marker")
    let decoded = try ImageCodec.decode(jpeg)
    XCTAssertEqual(decoded.width, 96)
    XCTAssertEqual(decoded.height, 64)
    XCTAssertEqual(decoded.pixel(x: 10, y: 10).a, 255)
    let difference = try XCTUnwrap(decoded.meanAbsoluteDifference(to: image))
    XCTAssertLessThan(difference, 6, "mean absolute difference of a quality 0.85 JPEG")
  }

  func testJPEG_oddSizes_roundTrip() throws {
    for (width, height) in [(1, 1), (33, 17), (7, 100)] {
      let image = Self.pattern(width: width, height: height)
      let decoded = try ImageCodec.decode(try ImageCodec.encode(image, as: .jpeg, quality: 1))
      XCTAssertEqual(decoded.width, width)
      XCTAssertEqual(decoded.height, height)
    }
  }

  func testJPEGQuality_higherIsLargerAndCloser() throws {
    let image = Self.pattern(width: 128, height: 96)
    let low = try ImageCodec.encode(image, as: .jpeg, quality: 0)
    let high = try ImageCodec.encode(image, as: .jpeg, quality: 1)
    XCTAssertLessThan(low.count, high.count)
    let lowError = try XCTUnwrap(ImageCodec.decode(low).meanAbsoluteDifference(to: image))
    let highError = try XCTUnwrap(ImageCodec.decode(high).meanAbsoluteDifference(to: image))
    XCTAssertLessThan(highError, lowError)
    // Out-of-range and NaN qualities are clamped or defaulted, never rejected.
    XCTAssertNoThrow(try ImageCodec.encode(image, as: .jpeg, quality: 7))
    XCTAssertNoThrow(try ImageCodec.encode(image, as: .jpeg, quality: -1))
    XCTAssertNoThrow(try ImageCodec.encode(image, as: .jpeg, quality: .nan))
  }

  func testPNGRoundTrip_isExact_withAlpha() throws {
    var image = Self.pattern(width: 21, height: 13)
    for index in stride(from: 3, to: image.pixels.count, by: 4) {
      image.pixels[index] = UInt8(index % 256)
    }
    let png = try ImageCodec.encode(image, as: .png)
    XCTAssertEqual(ImageFormat.detect(png), .png)
    XCTAssertEqual(try ImageCodec.decode(png), image)
  }

  func testTruncatedJPEG_throwsDecodeFailed() throws {
    let jpeg = try ImageCodec.encode(Self.pattern(width: 160, height: 120), as: .jpeg)
    for fraction in [0.3, 0.6, 0.95] {
      let cut = jpeg.prefix(Int(Double(jpeg.count) * fraction))
      let error = assertThrows(.decodeFailed) { try ImageCodec.decode(Data(cut)) }
      XCTAssertEqual(error?.category, .media)
    }
  }

  func testJPEGHeaderOnly_throwsAMediaError() throws {
    let jpeg = try ImageCodec.encode(Self.pattern(width: 16, height: 16), as: .jpeg)
    for length in [3, 10, 40] {
      do {
        _ = try ImageCodec.decode(Data(jpeg.prefix(length)))
        XCTFail("\(length) bytes of a JPEG decoded")
      } catch {
        XCTAssertEqual(error.category, .media, "\(length) bytes: \(error.code) \(error.message)")
      }
    }
  }

  func testTruncatedPNG_throwsDecodeFailed() throws {
    let png = try ImageCodec.encode(Self.pattern(width: 64, height: 64), as: .png)
    assertThrows(.decodeFailed) { try ImageCodec.decode(Data(png.prefix(png.count / 2))) }
  }

  func testTextFile_throwsUnsupportedFormat() {
    let error = assertThrows(.unsupportedFormat) {
      try ImageCodec.decode(Data("WEBVTT\n\n00:00.000 --> 00:01.000\nsprite.jpg\n".utf8))
    }
    XCTAssertEqual(error?.message.contains("neither a JPEG nor a PNG"), true)
  }

  func testEmptyData_throwsEmptySource() {
    assertThrows(.emptySource) { try ImageCodec.decode(Data()) }
    assertThrows(.emptySource) { try ImageCodec.decode(Data(), as: .jpeg) }
  }

  func testGarbageAfterAJPEGSignature_throwsAMediaError() {
    var bytes = Data([0xFF, 0xD8, 0xFF, 0xE0])
    bytes.append(Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
    do {
      _ = try ImageCodec.decode(bytes)
      XCTFail("garbage decoded")
    } catch {
      XCTAssertEqual(error.category, .media, "\(error.code) \(error.message)")
    }
  }

  func testJPEGDeclaringAHugeSize_isRefusedBeforeDecoding() throws {
    var bytes = [UInt8](try ImageCodec.encode(Self.pattern(width: 16, height: 16), as: .jpeg))
    let start = try XCTUnwrap(
      (0..<bytes.count - 1).first {
        bytes[$0] == 0xFF && (bytes[$0 + 1] & 0xF0) == 0xC0 && bytes[$0 + 1] != 0xC4
      },
      "a start-of-frame marker")
    // FF Cn, length (2), precision (1), height (2), width (2): 60000 x 60000.
    bytes.replaceSubrange(start + 5..<start + 9, with: [0xEA, 0x60, 0xEA, 0x60])
    assertThrows(.decodeFailed) { try ImageCodec.decode(Data(bytes)) }
  }

  func testEncode_malformedImage_throwsInvalidArgument() {
    assertThrows(.invalidArgument) {
      try ImageCodec.encode(RGBAImage(width: 4, height: 4, pixels: [1]), as: .jpeg)
    }
    assertThrows(.invalidArgument) {
      try ImageCodec.encode(RGBAImage(width: 0, height: 0, pixels: []), as: .png)
    }
  }

  func testDecodeEncodeManyTimes_doesNotGrowResidentMemory() throws {
    let jpeg = try ImageCodec.encode(Self.pattern(width: 320, height: 240), as: .jpeg)
    let truncated = Data(jpeg.prefix(jpeg.count / 2))
    func pass() throws {
      let image = try ImageCodec.decode(jpeg)
      _ = try ImageCodec.encode(image.scaled(width: 100, height: nil), as: .jpeg)
      _ = try? ImageCodec.decode(truncated)
    }
    for _ in 0..<5 { try pass() }
    let before = try XCTUnwrap(ProcessMemory.residentBytes())
    for _ in 0..<200 { try pass() }
    let after = try XCTUnwrap(ProcessMemory.residentBytes())
    XCTAssertLessThan(after - before, 8 * 1024 * 1024, "resident memory grew by \(after - before)")
  }
}
