import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// AES-128-CBC against NIST SP 800-38A and vectors produced with
/// `openssl enc -aes-128-cbc -K <key> -iv <iv>` (PKCS#7 padding), pasted as hex.
final class AES128Tests: XCTestCase {
  private func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      result.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return result
  }

  private func data(_ hex: String) -> Data { Data(bytes(hex)) }

  private func error(_ body: () throws(PlayheadError) -> Data) -> PlayheadError? {
    do {
      _ = try body()
      XCTFail("expected a PlayheadError")
      return nil
    } catch {
      return error
    }
  }

  // NIST SP 800-38A, F.2.1 / F.2.2 (CBC-AES128), four blocks, no padding.
  private let nistKey = "2b7e151628aed2a6abf7158809cf4f3c"
  private let nistIV = "000102030405060708090a0b0c0d0e0f"
  private let nistPlain =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
  private let nistCipher =
    "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
    + "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"

  func testEncryptCBC_nistVector_matchesWithoutPadding() throws {
    let cipher = try AES128.encryptCBC(
      data(nistPlain), key: bytes(nistKey), iv: bytes(nistIV), addPadding: false)
    XCTAssertEqual(cipher, data(nistCipher))
  }

  func testDecryptCBC_nistVector_matchesWithoutPadding() throws {
    let plain = try AES128.decryptCBC(
      data(nistCipher), key: bytes(nistKey), iv: bytes(nistIV), removePadding: false)
    XCTAssertEqual(plain, data(nistPlain))
  }

  func testDecryptCBC_opensslVectorWithPartialBlock_removesPadding() throws {
    // printf 'Playhead HLS segment payload, 45 bytes long!!' |
    //   openssl enc -aes-128-cbc -K 000102030405060708090a0b0c0d0e0f -iv 0…07
    let cipher = data(
      "48457d8f452c6819337b476696f55f3ae3f0a08f37a6f7865a05ca9449fd"
        + "510fdd0347bd5c1bcbb0acf6308ea4d9c257")
    let key = bytes("000102030405060708090a0b0c0d0e0f")
    let plain = try AES128.decryptCBC(cipher, key: key, iv: AES128.iv(mediaSequence: 7))
    XCTAssertEqual(
      String(decoding: plain, as: UTF8.self), "Playhead HLS segment payload, 45 bytes long!!")
  }

  func testEncryptCBC_opensslVectorWithWholeBlocks_addsAFullPaddingBlock() throws {
    // printf '0123456789abcdef0123456789ABCDEF' | openssl enc -aes-128-cbc
    //   -K 00112233445566778899aabbccddeeff -iv 0f0e0d0c0b0a09080706050403020100
    let expected = data(
      "f04fa6de816345dc1914f6f04dc8fc39bbfbbce94ce2ae238c7e1af866b4f786"
        + "3a31c411100fe1af20d060599d1f6785")
    let key = bytes("00112233445566778899aabbccddeeff")
    let iv = bytes("0f0e0d0c0b0a09080706050403020100")
    let plain = Data("0123456789abcdef0123456789ABCDEF".utf8)
    XCTAssertEqual(try AES128.encryptCBC(plain, key: key, iv: iv), expected)
    XCTAssertEqual(try AES128.decryptCBC(expected, key: key, iv: iv), plain)
  }

  func testEncryptCBC_emptyInput_isOnePaddingBlockAsOpenSSLWritesIt() throws {
    let key = bytes("00112233445566778899aabbccddeeff")
    let iv = bytes("0f0e0d0c0b0a09080706050403020100")
    let cipher = try AES128.encryptCBC(Data(), key: key, iv: iv)
    XCTAssertEqual(cipher, data("d8f43fc6392d8dced3af48947afeeee4"))
    XCTAssertEqual(try AES128.decryptCBC(cipher, key: key, iv: iv), Data())
  }

  func testIV_mediaSequence_isBigEndianIn16Bytes() {
    XCTAssertEqual(AES128.iv(mediaSequence: 0), [UInt8](repeating: 0, count: 16))
    XCTAssertEqual(
      AES128.iv(mediaSequence: 0x0102_0304_0506_0708),
      [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
  }

  func testDecryptCBC_wrongKey_failsWithDecryptionFailed() throws {
    let key = bytes("000102030405060708090a0b0c0d0e0f")
    let plain = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let cipher = try AES128.encryptCBC(plain, key: key, iv: AES128.iv(mediaSequence: 3))
    // A wrong key passes the PKCS#7 check about once in 256 keys; this one is known to fail.
    var wrong = key
    wrong[0] ^= 0x01
    let failure = error { () throws(PlayheadError) in
      try AES128.decryptCBC(cipher, key: wrong, iv: AES128.iv(mediaSequence: 3))
    }
    XCTAssertEqual(failure?.code, .decryptionFailed)
    XCTAssertEqual(failure?.category, .media)
    XCTAssertEqual(
      failure?.message, "AES-128 padding is invalid after decryption (wrong key or IV?)")
  }

  func testDecryptCBC_badSizes_failWithClearMessages() {
    let key = [UInt8](repeating: 1, count: 16)
    let iv = [UInt8](repeating: 2, count: 16)
    let shortKey = error { () throws(PlayheadError) in
      try AES128.decryptCBC(Data(count: 32), key: Array(key.prefix(15)), iv: iv)
    }
    XCTAssertEqual(shortKey?.code, .decryptionFailed)
    XCTAssertEqual(shortKey?.message, "AES-128 key is 15 bytes, expected 16")
    let longIV = error { () throws(PlayheadError) in
      try AES128.decryptCBC(Data(count: 32), key: key, iv: iv + [0])
    }
    XCTAssertEqual(longIV?.message, "AES-128 IV is 17 bytes, expected 16")
    let ragged = error { () throws(PlayheadError) in
      try AES128.decryptCBC(Data(count: 33), key: key, iv: iv)
    }
    XCTAssertEqual(ragged?.code, .decryptionFailed)
    XCTAssertEqual(ragged?.message, "AES-128 data is 33 bytes, not a multiple of 16")
    let empty = error { () throws(PlayheadError) in
      try AES128.decryptCBC(Data(), key: key, iv: iv)
    }
    XCTAssertEqual(empty?.code, .decryptionFailed)
    XCTAssertEqual(try? AES128.decryptCBC(Data(), key: key, iv: iv, removePadding: false), Data())
    let unpadded = error { () throws(PlayheadError) in
      try AES128.encryptCBC(Data(count: 5), key: key, iv: iv, addPadding: false)
    }
    XCTAssertEqual(unpadded?.code, .decryptionFailed)
  }

  func testDecryptCBC_paddingBytesThatDisagree_failsEvenWhenTheLastByteIsPlausible() throws {
    let key = [UInt8](repeating: 9, count: 16)
    let iv = [UInt8](repeating: 4, count: 16)
    // Last block ends in …, 0x03, 0x02, 0x03: the last byte says 3 but the bytes disagree.
    var block = [UInt8](repeating: 0x41, count: 16)
    block[13] = 0x03
    block[14] = 0x02
    block[15] = 0x03
    let cipher = try AES128.encryptCBC(Data(block), key: key, iv: iv, addPadding: false)
    let failure = error { () throws(PlayheadError) in
      try AES128.decryptCBC(cipher, key: key, iv: iv)
    }
    XCTAssertEqual(failure?.code, .decryptionFailed)
    // A zero padding byte is invalid too.
    block[15] = 0x00
    let zero = try AES128.encryptCBC(Data(block), key: key, iv: iv, addPadding: false)
    XCTAssertEqual(
      error { () throws(PlayheadError) in try AES128.decryptCBC(zero, key: key, iv: iv) }?.code,
      .decryptionFailed)
  }

  func testCBC_largeInputProcessedInPieces_keepsTheChainAcrossPieces() throws {
    // More than 2^20 blocks, so the work is split; decrypting a suffix that starts at the
    // split with the previous cipher block as IV must give the plain suffix (true CBC).
    let key = [UInt8](repeating: 0x5a, count: 16)
    let iv = [UInt8](repeating: 0xa5, count: 16)
    let blocks = (1 << 20) + 8
    var plain = Data(count: blocks * 16)
    plain.withUnsafeMutableBytes { raw in
      for index in stride(from: 0, to: raw.count, by: 16) {
        raw.storeBytes(of: UInt64(index).bigEndian, toByteOffset: index, as: UInt64.self)
      }
    }
    let cipher = try AES128.encryptCBC(plain, key: key, iv: iv, addPadding: false)
    let split = (1 << 20) * 16
    let suffixIV = [UInt8](cipher[(split - 16)..<split])
    let suffix = try AES128.decryptCBC(
      cipher.subdata(in: split..<cipher.count), key: key, iv: suffixIV, removePadding: false)
    XCTAssertEqual(suffix, plain.subdata(in: split..<plain.count))
    XCTAssertEqual(try AES128.decryptCBC(cipher, key: key, iv: iv, removePadding: false), plain)
  }
}
