import Foundation
import PlayheadCore
import XCTest

@testable import PlayheadMedia

/// The SAMPLE-AES frame walkers on hand-made bytes: AC-3 and E-AC-3 (no fixture has them),
/// malformed ADTS and H.264 input, short NAL units.
final class SampleAESFormatTests: XCTestCase {
  private let key = [UInt8](0..<16)
  private let iv = [UInt8](repeating: 0xA5, count: 16)

  /// Encrypts whole blocks at `start` of `bytes` as one CBC chain from `iv`.
  private func encrypt(_ bytes: inout [UInt8], start: Int, blocks: Int) throws {
    let plain = Data(bytes[start..<start + 16 * blocks])
    let sealed = try AES128.encryptCBC(plain, key: key, iv: iv, addPadding: false)
    bytes.replaceSubrange(start..<start + 16 * blocks, with: sealed)
  }

  private func decryptAudio(_ bytes: inout [UInt8], codec: SampleAESCodec) throws(PlayheadError) {
    let cipher = try SampleAESCipher(key: key, iv: iv)
    try bytes.withUnsafeMutableBufferPointer { (buffer) throws(PlayheadError) in
      try SampleAESAudio.decrypt(buffer, codec: codec, cipher: cipher)
    }
  }

  func testAC3_frameAt44kHz_decryptsWholeBlocksAfter16ClearBytes() throws {
    // fscod 1 (44.1 kHz), frmsizecod 1 (32 kbit/s, odd): 70 words, 140 bytes; bsid 8.
    var frame = [UInt8](repeating: 0x3C, count: 140)
    frame[0...5] = [0x0B, 0x77, 0x12, 0x34, 0x41, 8 << 3]
    let clear = frame
    try encrypt(&frame, start: 16, blocks: 7)  // 124 bytes after the leader: 7 blocks
    try decryptAudio(&frame, codec: .ac3)
    XCTAssertEqual(frame, clear)
    XCTAssertEqual(SampleAESAudio.ac3FrameWords(code: 0x00), 64)
    XCTAssertEqual(SampleAESAudio.ac3FrameWords(code: 0x25), 1280)
    XCTAssertEqual(SampleAESAudio.ac3FrameWords(code: 0x40 | 37), 1394)
    XCTAssertEqual(SampleAESAudio.ac3FrameWords(code: 0x80 | 37), 1920)
    XCTAssertNil(SampleAESAudio.ac3FrameWords(code: 0xC0))
    XCTAssertNil(SampleAESAudio.ac3FrameWords(code: 38))
  }

  func testEAC3_twoFrames_eachRestartsTheChain() throws {
    // bsid 16, frmsiz 39: 40 words, 80 bytes each; 64 bytes after the leader: 4 blocks.
    var frame = [UInt8](repeating: 0x5A, count: 80)
    frame[0...5] = [0x0B, 0x77, 0x00, 39, 0x3F, 16 << 3]
    var packet = frame + frame
    let clear = packet
    try encrypt(&packet, start: 16, blocks: 4)
    try encrypt(&packet, start: 96, blocks: 4)
    try decryptAudio(&packet, codec: .eac3)
    XCTAssertEqual(packet, clear)
  }

  func testAudio_malformedFrames_throwDecryptionFailed() {
    var noSync: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]
    XCTAssertThrowsError(try decryptAudio(&noSync, codec: .aac))
    // An ADTS header (no CRC) claiming 200 bytes in a 40-byte packet: truncated.
    var truncated = [UInt8](repeating: 0, count: 40)
    truncated[0...6] = [0xFF, 0xF1, 0x50, 0x80, UInt8(200 >> 3), UInt8((200 & 7) << 5), 0xFC]
    XCTAssertThrowsError(try decryptAudio(&truncated, codec: .aac)) {
      XCTAssertEqual(($0 as? PlayheadError)?.code, .decryptionFailed)
      XCTAssertTrue(($0 as? PlayheadError)?.message.contains("truncated") ?? false)
    }
    // A length shorter than the header.
    var short = truncated
    short[4] = 0
    short[5] = 5 << 5
    XCTAssertThrowsError(try decryptAudio(&short, codec: .aac))
    var badAC3: [UInt8] = [0x0B, 0x77, 0, 0, 0xFF, 8 << 3, 0, 0]
    XCTAssertThrowsError(try decryptAudio(&badAC3, codec: .ac3))
    var cutAC3: [UInt8] = [0x0B, 0x77]
    XCTAssertThrowsError(try decryptAudio(&cutAC3, codec: .ac3))
  }

  func testH264_withoutStartCode_throwsAndShortUnitsStayClear() throws {
    let cipher = try SampleAESCipher(key: key, iv: iv)
    var notAnnexB: [UInt8] = [0x65, 1, 2, 3, 4, 5]
    XCTAssertThrowsError(
      try notAnnexB.withUnsafeMutableBufferPointer { (buffer) throws(PlayheadError) in
        try SampleAESH264.decrypt(buffer, cipher: cipher)
      })
    // A 48-byte IDR slice (with an emulation prevention byte) and an SPS stay as they are.
    var unit: [UInt8] = [0x65] + [UInt8](repeating: 0x11, count: 40) + [0, 0, 3, 1, 9, 9, 9]
    var packet: [UInt8] = [0, 0, 0, 1, 0x67, 0x42, 0, 0x1E, 0, 0, 1] + unit + [0, 0]
    let original = packet
    let length = try packet.withUnsafeMutableBufferPointer { (buffer) throws(PlayheadError) in
      try SampleAESH264.decrypt(buffer, cipher: cipher)
    }
    XCTAssertEqual(length, original.count)
    XCTAssertEqual(packet, original)
    // One byte longer: encrypted (17 bytes after the leader: one block), escaped again.
    unit.insert(0x22, at: 1)
    // Its own emulation prevention byte comes back: only the second escaping is undone.
    let clearUnit = unit
    var sealed = unit
    try encrypt(&sealed, start: 32, blocks: 1)
    var escaped: [UInt8] = []
    var zeros = 0
    for byte in sealed {
      if zeros >= 2 && byte <= 3 {
        escaped.append(3)
        zeros = 0
      }
      escaped.append(byte)
      zeros = byte == 0 ? zeros + 1 : 0
    }
    var encrypted: [UInt8] = [0, 0, 1] + escaped
    let newLength = try encrypted.withUnsafeMutableBufferPointer {
      (buffer) throws(PlayheadError) in try SampleAESH264.decrypt(buffer, cipher: cipher)
    }
    XCTAssertEqual(Array(encrypted.prefix(newLength)), [0, 0, 1] + clearUnit)
  }
}
