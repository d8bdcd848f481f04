import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// AES-128-CTR with random access (offline encryption at rest) and SHA-256, checked
/// against independent computations and published test vectors.
final class AESCTRTests: XCTestCase {
  private let key: [UInt8] = (0..<16).map { UInt8($0 * 7 + 3) }
  private let nonce: [UInt8] = [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7]

  /// The key stream block for `counter`, computed with AES-128 alone (one-block CBC with a
  /// zero IV is a plain AES encryption).
  private func keyStreamBlock(_ counter: UInt64) throws -> [UInt8] {
    let block = nonce + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) }
    return [UInt8](
      try AES128.encryptCBC(
        Data(block), key: key, iv: [UInt8](repeating: 0, count: 16), addPadding: false))
  }

  func testKeyStream_matchesAESOfTheCounterBlocks_atAnyOffset() throws {
    let cipher = try AESCTR(key: key, nonce: nonce)
    for (offset, length) in [(0, 16), (0, 50), (16, 16), (7, 40), (4_096 + 3, 29), (1 << 20, 1)] {
      var bytes = [UInt8](repeating: 0, count: length)
      cipher.apply(to: &bytes, atOffset: Int64(offset))
      var expected: [UInt8] = []
      var counter = UInt64(offset / 16)
      while expected.count < offset % 16 + length {
        expected += try keyStreamBlock(counter)
        counter += 1
      }
      XCTAssertEqual(bytes, Array(expected[(offset % 16)...].prefix(length)), "offset \(offset)")
    }
  }

  func testPiecesEncryptedApart_equalTheWholeEncryptedAtOnce_andDecryptBack() throws {
    let cipher = try AESCTR(key: key, nonce: nonce)
    let plain = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
    var whole = plain
    cipher.apply(to: &whole, atOffset: 0)
    XCTAssertNotEqual(whole, plain)
    var pieces: [UInt8] = []
    var offset = 0
    for size in [1, 15, 16, 17, 1_000, 4_096, 10_000] where offset < plain.count {
      var piece = Array(plain[offset..<min(plain.count, offset + size)])
      cipher.apply(to: &piece, atOffset: Int64(offset))
      pieces += piece
      offset += piece.count
    }
    XCTAssertEqual(pieces, Array(whole.prefix(pieces.count)))
    cipher.apply(to: &whole, atOffset: 0)
    XCTAssertEqual(whole, plain)
  }

  func testBadSizes_throwInvalidArgument() {
    XCTAssertThrowsError(try AESCTR(key: [1, 2, 3], nonce: nonce)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
    XCTAssertThrowsError(try AESCTR(key: key, nonce: [1])) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .invalidArgument)
    }
  }

  func testSHA256_matchesThePublishedVectors() throws {
    XCTAssertEqual(
      SHA256.hex(try SHA256.digest(Data("abc".utf8))),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(
      SHA256.hex(try SHA256.digest(Data())),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sha-\(UUID().uuidString)")
    let big = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
    try big.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    XCTAssertEqual(try SHA256.digest(ofFileAt: file), try SHA256.digest(big))
    XCTAssertThrowsError(try SHA256.digest(ofFileAt: file.appendingPathExtension("missing")))
  }
}
