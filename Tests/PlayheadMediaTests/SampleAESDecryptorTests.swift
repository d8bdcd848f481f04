import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// HLS SAMPLE-AES segments demuxed with a `SampleAESDecryptor` decode to what their clear
/// sources decode to; wrong keys and damaged bytes end in typed errors.
final class SampleAESDecryptorTests: XCTestCase {
  private func decryptor(
    for demuxer: Demuxer, key: [UInt8], iv: [UInt8], label: String
  ) throws(PlayheadError) -> SampleAESDecryptor {
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    try decryptor.addKey(key, iv: iv, keyLabel: label, fromRunOffset: 0)
    demuxer.packetDecryptor = decryptor
    return decryptor
  }

  func testDecrypt_eachSegment_decodesToTheClearSegmentsFrames() throws {
    for segment in try SampleAESFixture.segments() {
      let clear = try DecodedMedia.decode(SampleAESFixture.demuxer(segment.clear, name: "clear"))
      let demuxer = try SampleAESFixture.demuxer(segment.encrypted, name: segment.uri)
      XCTAssertEqual(demuxer.streams.map(\.codecName), ["h264", "aac"])
      _ = try decryptor(
        for: demuxer, key: segment.key, iv: segment.iv,
        label: "\(segment.keyURI) of segment \(segment.sequenceNumber)")
      let decrypted = try DecodedMedia.decode(demuxer)
      XCTAssertEqual(clear.pictures.count, 25, segment.uri)
      XCTAssertGreaterThan(clear.audioFrames, 40, segment.uri)
      XCTAssertEqual(decrypted.pictures.count, clear.pictures.count, segment.uri)
      XCTAssertTrue(decrypted.pictures == clear.pictures, "\(segment.uri): pictures differ")
      XCTAssertEqual(decrypted.audioFrames, clear.audioFrames, segment.uri)
      XCTAssertTrue(decrypted.audio == clear.audio, "\(segment.uri): audio differs")
    }
  }

  func testDecrypt_withoutDecryptor_segmentDoesNotDecodeToTheClearFrames() throws {
    // The encryption is real: the same bytes read without decryption give other pictures.
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    let clear = try DecodedMedia.decode(SampleAESFixture.demuxer(segment.clear, name: "clear"))
    let raw = try? DecodedMedia.decode(SampleAESFixture.demuxer(segment.encrypted, name: "raw"))
    XCTAssertFalse(raw?.pictures == clear.pictures)
    XCTAssertFalse(raw?.audio == clear.audio)
  }

  func testDecrypt_aRunOfSegments_takesEachSegmentsKeyAtItsRunOffset() throws {
    // One demuxer over the three segments back to back, as the HLS engine reads a run:
    // segments 5 and 6 under key.bin with an explicit IV, 7 under key2.bin with its media
    // sequence number as IV.
    let segments = try SampleAESFixture.segments()
    let clear = try DecodedMedia.decode(
      SampleAESFixture.demuxer(segments.map(\.clear).reduce(Data(), +), name: "clear-run"))
    let demuxer = try SampleAESFixture.demuxer(
      segments.map(\.encrypted).reduce(Data(), +), name: "run")
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    var offset: Int64 = 0
    for segment in segments {
      let iv = segment.sequenceNumber == 7 ? AES128.iv(mediaSequence: 7) : segment.iv
      try decryptor.addKey(
        segment.key, iv: iv, keyLabel: "\(segment.keyURI) of segment \(segment.sequenceNumber)",
        fromRunOffset: offset)
      offset += Int64(segment.encrypted.count)
    }
    demuxer.packetDecryptor = decryptor
    let decrypted = try DecodedMedia.decode(demuxer)
    XCTAssertEqual(clear.pictures.count, 75)
    XCTAssertEqual(decrypted.pictures.count, clear.pictures.count)
    XCTAssertTrue(decrypted.pictures == clear.pictures, "pictures differ")
    XCTAssertTrue(decrypted.audio == clear.audio, "audio differs")
  }

  func testDecrypt_withWrongKey_throwsDecryptionFailedNamingTheKey() throws {
    let wrongKey = try SampleAESFixture.wrongKey()
    for segment in try SampleAESFixture.segments() {
      let demuxer = try SampleAESFixture.demuxer(segment.encrypted, name: segment.uri)
      let label = "wrong-key.bin of segment \(segment.sequenceNumber)"
      _ = try decryptor(for: demuxer, key: wrongKey, iv: segment.iv, label: label)
      let error = readUntilError(demuxer)
      XCTAssertEqual(error?.code, .decryptionFailed, segment.uri)
      XCTAssertTrue(error?.message.contains(label) ?? false, error?.message ?? "no error")
    }
  }

  func testDecrypt_withWrongIV_throwsDecryptionFailed() throws {
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    let demuxer = try SampleAESFixture.demuxer(segment.encrypted, name: segment.uri)
    _ = try decryptor(
      for: demuxer, key: segment.key, iv: AES128.iv(mediaSequence: 5), label: "key.bin, IV 5")
    let error = readUntilError(demuxer)
    XCTAssertEqual(error?.code, .decryptionFailed)
    XCTAssertTrue(error?.message.contains("key.bin, IV 5") ?? false, error?.message ?? "none")
  }

  func testDecrypt_packetBeforeEveryKey_throwsDecryptionFailed() throws {
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    let demuxer = try SampleAESFixture.demuxer(segment.encrypted, name: segment.uri)
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    try decryptor.addKey(
      segment.key, iv: segment.iv, keyLabel: "key.bin",
      fromRunOffset: Int64(segment.encrypted.count))
    demuxer.packetDecryptor = decryptor
    let error = readUntilError(demuxer)
    XCTAssertEqual(error?.code, .decryptionFailed)
    XCTAssertTrue(error?.message.contains("no key") ?? false, error?.message ?? "none")
  }

  func testDecrypt_clearEntry_leavesPacketsAsRead() throws {
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    let demuxer = try SampleAESFixture.demuxer(segment.clear, name: "clear")
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    try decryptor.addClear(fromRunOffset: 0)
    demuxer.packetDecryptor = decryptor
    let clear = try DecodedMedia.decode(SampleAESFixture.demuxer(segment.clear, name: "clear"))
    XCTAssertTrue(try DecodedMedia.decode(demuxer) == clear)
  }

  func testAddKey_badSizesAndOffsets_throwTypedErrors() throws {
    let decryptor = SampleAESDecryptor(check: nil)
    let key = [UInt8](repeating: 1, count: 16)
    XCTAssertThrowsError(
      try decryptor.addKey(Array(key.prefix(15)), iv: key, keyLabel: "k", fromRunOffset: 0)
    ) { XCTAssertEqual(($0 as? PlayheadError)?.code, .decryptionFailed) }
    XCTAssertThrowsError(try decryptor.addKey(key, iv: [], keyLabel: "k", fromRunOffset: 0)) {
      XCTAssertEqual(($0 as? PlayheadError)?.code, .decryptionFailed)
    }
    try decryptor.addKey(key, iv: key, keyLabel: "k", fromRunOffset: 100)
    XCTAssertThrowsError(try decryptor.addClear(fromRunOffset: 99)) {
      XCTAssertEqual(($0 as? PlayheadError)?.code, .invalidArgument)
    }
  }

  func testDecrypt_streamOfAnotherCodec_throwsUnsupportedEncryption() throws {
    let demuxer = try MediaFixtures.memoryDemuxer("sample-audio.mp3")
    let decryptor = SampleAESDecryptor(demuxer: demuxer)
    try decryptor.addKey(
      [UInt8](repeating: 7, count: 16), iv: [UInt8](repeating: 0, count: 16), keyLabel: "k",
      fromRunOffset: 0)
    demuxer.packetDecryptor = decryptor
    let error = readUntilError(demuxer)
    XCTAssertEqual(error?.code, .unsupportedEncryption)
    XCTAssertTrue(error?.message.contains("mp3") ?? false, error?.message ?? "none")
  }

  func testDecrypt_truncatedSegments_endWithATypedErrorOrDecode() throws {
    // Cut every 997 bytes (not on a TS packet boundary): each read ends cleanly, or with a
    // typed error; nothing crashes. A cut inside the last ADTS frame of a PES gives a
    // packet shorter than its frame, which the decryptor refuses.
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    var errors: [PlayheadError.Code: Int] = [:]
    var truncatedFrames = 0
    for cut in stride(from: 997, to: segment.encrypted.count, by: 997) {
      do throws(PlayheadError) {
        let demuxer = try SampleAESFixture.demuxer(segment.encrypted.prefix(cut), name: "cut")
        _ = try decryptor(for: demuxer, key: segment.key, iv: segment.iv, label: "key.bin")
        _ = try DecodedMedia.decode(demuxer)
      } catch {
        errors[error.code, default: 0] += 1
        if error.message.contains("truncated") { truncatedFrames += 1 }
      }
    }
    XCTAssertTrue(
      Set(errors.keys).isSubset(of: [.decryptionFailed, .unsupportedFormat, .noPlayableStreams]),
      "\(errors)")
    XCTAssertGreaterThan(truncatedFrames, 0, "\(errors)")
  }

  func testDecrypt_corruptedSegments_endWithATypedErrorOrDecode() throws {
    // Bytes overwritten at seeded random places, 40 times: no crash, only typed errors.
    let segment = try XCTUnwrap(SampleAESFixture.segments().first)
    var generator = SplitMix64(seed: 0x5A4D_504C_4541_4553)
    for _ in 0..<40 {
      var bytes = segment.encrypted
      for _ in 0..<24 {
        let index = Int(generator.next() % UInt64(bytes.count))
        bytes[index] = UInt8(truncatingIfNeeded: generator.next())
      }
      do throws(PlayheadError) {
        let demuxer = try SampleAESFixture.demuxer(bytes, name: "corrupt")
        _ = try decryptor(for: demuxer, key: segment.key, iv: segment.iv, label: "key.bin")
        _ = try DecodedMedia.decode(demuxer)
      } catch {
        XCTAssertFalse(error.message.isEmpty)
      }
    }
  }

  /// Reads packets until one throws; nil when every packet was read.
  private func readUntilError(_ demuxer: Demuxer) -> PlayheadError? {
    do {
      while try demuxer.readPacket() != nil {}
      return nil
    } catch {
      return error
    }
  }
}

/// A small seeded generator (SplitMix64) for repeatable corruption.
private struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
