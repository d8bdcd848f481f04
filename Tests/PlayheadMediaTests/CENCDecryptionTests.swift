import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import XCTest

final class CENCDecryptionTests: XCTestCase {
  private func clearSignature() throws -> DecodedSignature {
    let signature = try decodeSignature(CENCFixture.inOrderDemuxer("cenc/clear.mp4"))
    XCTAssertEqual(signature.videoFrames.count, 75)
    XCTAssertGreaterThan(signature.audioSamples, 140_000)
    return signature
  }

  private func decryptingDemuxer(
    _ name: String, keys: any SampleKeySource, bytes: Data? = nil, inOrder: Bool = true
  ) throws -> Demuxer {
    let demuxer =
      inOrder
      ? try CENCFixture.inOrderDemuxer(name, bytes: bytes) : try MediaFixtures.demuxer(name)
    demuxer.packetDecryptor = CENCDecryptor(keys: keys, demuxer: demuxer)
    return demuxer
  }

  // MARK: - Right keys decode like the clear source

  func testDecrypt_cencMuxedByFFmpeg_decodesLikeClearSource() throws {
    // Not fragmented, so the demuxer may seek (read it as a file).
    let demuxer = try decryptingDemuxer(
      "cenc/cenc-ffmpeg.mp4", keys: CENCFixture.cencKeys, inOrder: false)
    XCTAssertEqual(try decodeSignature(demuxer), try clearSignature())
  }

  func testDecrypt_cencFragmentedWith8ByteIVs_decodesLikeClearSource() throws {
    let demuxer = try decryptingDemuxer("cenc/cenc.mp4", keys: CENCFixture.cencKeys)
    XCTAssertEqual(try decodeSignature(demuxer), try clearSignature())
  }

  func testDecrypt_cbcsFragmentedWithPatternAndConstantIV_decodesLikeClearSource() throws {
    let demuxer = try decryptingDemuxer("cenc/cbcs.mp4", keys: CENCFixture.cbcsKeys)
    XCTAssertEqual(try decodeSignature(demuxer), try clearSignature())
  }

  func testDecrypt_encryptedFixture_withoutDecryption_doesNotDecodeLikeClear() throws {
    // The fixtures are really encrypted: their bytes alone do not decode to the clear
    // source (the demuxer refuses them; see testRead_withoutDecryptor…).
    let clear = try Data(contentsOf: MediaFixtures.url("cenc/clear.mp4"))
    for name in ["cenc/cenc.mp4", "cenc/cbcs.mp4", "cenc/cenc-ffmpeg.mp4"] {
      let data = try Data(contentsOf: MediaFixtures.url(name))
      XCTAssertNotEqual(data, clear, name)
      XCTAssertGreaterThan(data.count, 20_000, name)
      XCTAssertLessThan(data.count, 300_000, name)
    }
  }

  func testDecrypt_afterSeekingBack_decodesLikeClearSource() throws {
    // Progressive, so seekable: read past the check's window, seek back to the start and
    // decode everything again.
    let demuxer = try decryptingDemuxer(
      "cenc/cenc-ffmpeg.mp4", keys: CENCFixture.cencKeys, inOrder: false)
    for _ in 0..<40 { _ = try demuxer.readPacket() }
    try demuxer.seek(to: .zero, streamIndex: nil)
    XCTAssertEqual(try decodeSignature(demuxer), try clearSignature())
  }

  func testDecrypt_asksTheKeySourceOncePerKeyID() throws {
    let source = CountingKeySource(CENCFixture.cbcsKeys)
    let demuxer = try decryptingDemuxer("cenc/cbcs.mp4", keys: source)
    _ = try decodeSignature(demuxer)
    XCTAssertEqual(source.asked.value, [CENCFixture.videoKID: 1, CENCFixture.audioKID: 1])
  }

  // MARK: - Missing and wrong keys

  func testDecrypt_missingAudioKey_throwsDecryptionFailedNamingTheKeyID() throws {
    let demuxer = try decryptingDemuxer(
      "cenc/cbcs.mp4", keys: SampleKeys([CENCFixture.videoKID: CENCFixture.videoKey]))
    let error = assertThrows(.decryptionFailed) { try decodeSignature(demuxer) }
    let message = try XCTUnwrap(error?.message)
    XCTAssertTrue(message.contains("f0e1d2c3b4a5968778695a4b3c2d1e0f"), message)
    XCTAssertTrue(message.contains("f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f"), message)
    XCTAssertTrue(message.hasPrefix("No key for key ID"), message)
  }

  func testDecrypt_wrongVideoKey_throwsNamingTheKeyID_beforeAnyVideoFrame() throws {
    var wrong = CENCFixture.videoKey
    wrong[0] ^= 0x01
    let demuxer = try decryptingDemuxer(
      "cenc/cbcs.mp4",
      keys: SampleKeys([CENCFixture.videoKID: wrong, CENCFixture.audioKID: CENCFixture.audioKey]))
    var decoded = DecodedSignature()
    let error = assertThrows(.decryptionFailed) {
      try decodeSignature(demuxer) { decoded = $0 }
    }
    let message = try XCTUnwrap(error?.message)
    XCTAssertTrue(message.contains("key ID a1b2c3d4e5f60718293a4b5c6d7e8f90"), message)
    XCTAssertTrue(message.hasPrefix("Video stream 0 (h264)"), message)
    XCTAssertEqual(decoded.videoFrames, [], "no wrongly decrypted frame reached a decoder")
  }

  func testDecrypt_wrongAudioKey_throwsNamingTheKeyID_beforeAnyAudio() throws {
    var wrong = CENCFixture.audioKey
    wrong[15] ^= 0x80
    let demuxer = try decryptingDemuxer(
      "cenc/cbcs.mp4",
      keys: SampleKeys([CENCFixture.videoKID: CENCFixture.videoKey, CENCFixture.audioKID: wrong]))
    var decoded = DecodedSignature()
    let error = assertThrows(.decryptionFailed) {
      try decodeSignature(demuxer) { decoded = $0 }
    }
    let message = try XCTUnwrap(error?.message)
    XCTAssertTrue(message.contains("key ID f0e1d2c3b4a5968778695a4b3c2d1e0f"), message)
    XCTAssertTrue(message.hasPrefix("Audio stream 1 (aac)"), message)
    XCTAssertEqual(decoded.audioSamples, 0, "no wrongly decrypted audio reached a decoder")
  }

  func testDecrypt_wrongCENCKey_throwsNamingTheKeyID() throws {
    for name in ["cenc/cenc.mp4", "cenc/cenc-ffmpeg.mp4"] {
      var wrong = CENCFixture.cencKey
      wrong[7] ^= 0x10
      let demuxer = try decryptingDemuxer(
        name, keys: SampleKeys([CENCFixture.cencKID: wrong]), inOrder: name == "cenc/cenc.mp4")
      let error = assertThrows(.decryptionFailed) { try decodeSignature(demuxer) }
      let message = try XCTUnwrap(error?.message)
      XCTAssertTrue(message.contains("0123456789abcdef0123456789abcdef"), "\(name): \(message)")
      XCTAssertTrue(message.contains("does not decode"), "\(name): \(message)")
    }
  }

  func testDecrypt_keyOfWrongSize_throwsDecryptionFailed() throws {
    let demuxer = try decryptingDemuxer(
      "cenc/cenc.mp4", keys: SampleKeys([CENCFixture.cencKID: [1, 2, 3]]))
    let error = assertThrows(.decryptionFailed) { try decodeSignature(demuxer) }
    XCTAssertTrue(
      error?.message.contains("is 3 bytes, expected 16") ?? false, "\(String(describing: error))")
  }

  // MARK: - Encrypted packets never reach a decoder undecrypted

  func testRead_withoutDecryptor_throwsDecryptionFailedNamingSchemeAndKeyID() throws {
    for name in ["cenc/cenc.mp4", "cenc/cbcs.mp4"] {
      let demuxer = try CENCFixture.inOrderDemuxer(name)
      let error = assertThrows(.decryptionFailed) { try demuxer.readPacket() }
      let message = try XCTUnwrap(error?.message)
      XCTAssertTrue(message.contains("no decryptor is set"), message)
      XCTAssertTrue(
        message.contains("cenc, key ID 0123456789abcdef0123456789abcdef")
          || message.contains("cbcs, key ID a1b2c3d4e5f60718293a4b5c6d7e8f90"), message)
    }
  }

  func testRead_clearFile_withDecryptor_passesPacketsUntouched() throws {
    let demuxer = try decryptingDemuxer("cenc/clear.mp4", keys: SampleKeys([:]))
    XCTAssertEqual(try decodeSignature(demuxer), try clearSignature())
  }

  // MARK: - Malformed encryption info

  func testDecrypt_subsampleTableLargerThanThePacket_throwsDecryptionFailed() throws {
    var data = try Data(contentsOf: MediaFixtures.url("cenc/cenc.mp4"))
    // The first senc entry: IV (8 bytes), subsample count (2), clear (2), protected (4).
    let senc = try XCTUnwrap(data.range(of: Data("senc".utf8))).lowerBound
    let protectedAt = senc + 4 + 4 + 4 + 8 + 2 + 2
    data.replaceSubrange(protectedAt..<protectedAt + 4, with: [0x00, 0xFF, 0xFF, 0xFF])
    let demuxer = try decryptingDemuxer("cenc/cenc.mp4", keys: CENCFixture.cencKeys, bytes: data)
    let error = assertThrows(.decryptionFailed) { try decodeSignature(demuxer) }
    XCTAssertTrue(
      error?.message.contains("does not belong to this sample") ?? false,
      "\(String(describing: error))")
  }

  func testDecrypt_seekableFragmentedFile_throwsTypedErrorNotGarbage() throws {
    // FFmpeg 5.1 reads every fragment of a seekable fragmented MP4 when it opens it and
    // then gives each packet the last fragment's encryption info (decision 0055): the
    // mismatch is caught, never decoded.
    let demuxer = try decryptingDemuxer(
      "cenc/cenc.mp4", keys: CENCFixture.cencKeys, inOrder: false)
    var decoded = DecodedSignature()
    do {
      _ = try decodeSignature(demuxer) { decoded = $0 }
      XCTFail("a seekable fragmented CENC file decrypted with the wrong per-sample info")
    } catch let error as PlayheadError {
      XCTAssertTrue([.decryptionFailed, .ioError].contains(error.code), "\(error)")
    }
    let clear = try clearSignature()
    for (index, frame) in decoded.videoFrames.enumerated() {
      XCTAssertEqual(frame, clear.videoFrames[index], "frame \(index) is garbage")
    }
  }

  func testDecrypt_unsupportedScheme_throwsUnsupportedEncryptionNamingIt() throws {
    var data = try Data(contentsOf: MediaFixtures.url("cenc/cbcs.mp4"))
    let schm = Data("schm".utf8) + Data([0, 0, 0, 0]) + Data("cbcs".utf8)
    var patched = 0
    while let range = data.range(of: schm) {
      data.replaceSubrange(range, with: Data("schm".utf8) + Data([0, 0, 0, 0]) + Data("cens".utf8))
      patched += 1
    }
    XCTAssertEqual(patched, 2)
    let demuxer = try decryptingDemuxer("cenc/cbcs.mp4", keys: CENCFixture.cbcsKeys, bytes: data)
    let error = assertThrows(.unsupportedEncryption) { try demuxer.readPacket() }
    XCTAssertTrue(error?.message.contains("'cens'") ?? false, "\(String(describing: error))")
  }

  // MARK: - Key IDs

  func testSampleKeyID_describe_givesHexAndUUID() {
    XCTAssertEqual(
      SampleKeyID.describe(CENCFixture.cencKID),
      "0123456789abcdef0123456789abcdef (01234567-89ab-cdef-0123-456789abcdef)")
    XCTAssertEqual(SampleKeyID.describe([0xAB]), "ab")
  }

  func testSampleKeys_hex_acceptsUUIDFormAndRefusesOtherText() throws {
    let keys = try SampleKeys(hex: [
      "A1B2C3D4-E5F6-0718-293A-4B5C6D7E8F90": "0x3c4fcfd8a1b6e2a7d1e0f9c8b7a69584"
    ])
    XCTAssertEqual(try keys.key(for: CENCFixture.videoKID), CENCFixture.videoKey)
    XCTAssertNil(try keys.key(for: CENCFixture.audioKID))
    assertThrows(.invalidArgument) { try SampleKeys(hex: ["abc": "00"]) }
    assertThrows(.invalidArgument) {
      try SampleKeys(hex: ["zz23456789abcdef0123456789abcdef": "00112233445566778899aabbccddeeff"])
    }
  }
}
