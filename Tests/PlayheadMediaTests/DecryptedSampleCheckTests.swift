import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// Wrong keys, many of them: the trial decode must refuse every one on both streams.
final class DecryptedSampleCheckTests: XCTestCase {
  /// A deterministic generator of wrong keys (SplitMix64).
  private struct Keys {
    var state: UInt64
    mutating func next() -> [UInt8] {
      (0..<2).flatMap { _ -> [UInt8] in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (0..<8).map { UInt8(truncatingIfNeeded: z >> (8 * $0)) }
      }
    }
  }

  /// Wrong keys per stream (300 here; 1,000 when measured), judged by the smallest windows that refused them all
  /// when this was measured (one AAC frame; two H.264 samples: one keyframe alone let a
  /// wrong `cbcs` key through in 1,000). The defaults (3 and 8) keep a margin above these.
  private static let attempts = 300
  private static let audioWindow = 1
  private static let videoWindow = 2

  /// Opens `name` with `keys`, reads until the first error; returns that error's message,
  /// or nil when every packet passed.
  private func firstFailure(_ name: String, data: Data, keys: SampleKeys) throws -> String? {
    let demuxer = try CENCFixture.inOrderDemuxer(name, bytes: data)
    let check = DecryptedSampleCheck(
      demuxer: demuxer, audioSamplesPerKey: Self.audioWindow, videoSamplesPerKey: Self.videoWindow)
    demuxer.packetDecryptor = CENCDecryptor(keys: keys, check: check)
    do {
      while try demuxer.readPacket() != nil {}
      return nil
    } catch let error as PlayheadError {
      XCTAssertEqual(error.code, .decryptionFailed, error.message)
      return error.message
    }
  }

  /// The attempts (of `attempts`, keys from `seed`) whose wrong key was not refused with a
  /// message that starts with `expected`.
  private func wrongKeysLetThrough(
    _ name: String, data given: Data? = nil, seed: UInt64, expected: String,
    keys: ([UInt8]) -> SampleKeys
  ) throws -> [Int] {
    let data = try given ?? Data(contentsOf: MediaFixtures.url(name))
    var generator = Keys(state: seed)
    var passed: [Int] = []
    for attempt in 0..<Self.attempts {
      let message = try firstFailure(name, data: data, keys: keys(generator.next()))
      if !(message?.hasPrefix(expected) ?? false) { passed.append(attempt) }
    }
    return passed
  }

  func testCheck_wrongVideoKeys_allRefused() throws {
    let passed = try wrongKeysLetThrough("cenc/cbcs.mp4", seed: 1, expected: "Video stream 0") {
      SampleKeys([CENCFixture.videoKID: $0, CENCFixture.audioKID: CENCFixture.audioKey])
    }
    XCTAssertEqual(passed, [], "wrong cbcs video keys let through")
  }

  func testCheck_wrongAudioKeys_allRefused() throws {
    let passed = try wrongKeysLetThrough("cenc/cbcs.mp4", seed: 2, expected: "Audio stream 1") {
      SampleKeys([CENCFixture.videoKID: CENCFixture.videoKey, CENCFixture.audioKID: $0])
    }
    XCTAssertEqual(passed, [], "wrong cbcs audio keys let through")
  }

  func testCheck_wrongCENCKeys_allRefused() throws {
    // One key for both streams: the first packet read (video) is the one refused.
    let passed = try wrongKeysLetThrough("cenc/cenc.mp4", seed: 3, expected: "Video stream 0") {
      SampleKeys([CENCFixture.cencKID: $0])
    }
    XCTAssertEqual(passed, [], "wrong cenc keys let through")
  }

  func testCheck_wrongCENCAudioKeys_allRefused() throws {
    // cenc.mp4 with the audio track's tenc naming another key ID (the last byte changed), so
    // that the audio key alone can be wrong.
    var data = try Data(contentsOf: MediaFixtures.url("cenc/cenc.mp4"))
    let kid = Data(CENCFixture.cencKID)
    let video = try XCTUnwrap(data.range(of: kid))
    let audio = try XCTUnwrap(data.range(of: kid, in: video.upperBound..<data.count))
    data[audio.upperBound - 1] ^= 0xFF
    var audioKID = CENCFixture.cencKID
    audioKID[15] ^= 0xFF
    let passed = try wrongKeysLetThrough(
      "cenc/cenc.mp4", data: data, seed: 4, expected: "Audio stream 1"
    ) { SampleKeys([CENCFixture.cencKID: CENCFixture.cencKey, audioKID: $0]) }
    XCTAssertEqual(passed, [], "wrong cenc audio keys let through")
  }

  func testCheck_rightKeys_pass() throws {
    for (name, keys) in [
      ("cenc/cenc.mp4", CENCFixture.cencKeys), ("cenc/cbcs.mp4", CENCFixture.cbcsKeys),
    ] {
      let data = try Data(contentsOf: MediaFixtures.url(name))
      XCTAssertNil(try firstFailure(name, data: data, keys: keys), name)
    }
  }

  /// Reading packets (demuxing, and decrypting with no check) from an opened demuxer:
  /// microseconds per packet and payload MB/s, clear against encrypted. Opening is left
  /// out (FFmpeg's stream probing reads far more of an encrypted file).
  func testThroughput_readingEncryptedPackets() throws {
    func measure(_ name: String, keys: SampleKeys?) throws -> (microseconds: Double, mbps: Double) {
      let data = try Data(contentsOf: MediaFixtures.url(name))
      var bytes = 0
      var packets = 0
      var seconds = 0.0
      for _ in 0..<20 {
        let demuxer = try CENCFixture.inOrderDemuxer(name, bytes: data)
        if let keys { demuxer.packetDecryptor = CENCDecryptor(keys: keys, check: nil) }
        let start = Date()
        while let packet = try demuxer.readPacket() {
          bytes += packet.size
          packets += 1
        }
        seconds += Date().timeIntervalSince(start)
      }
      return (seconds * 1_000_000 / Double(packets), Double(bytes) / 1_000_000 / seconds)
    }
    let clear = try measure("cenc/clear.mp4", keys: nil)
    let cenc = try measure("cenc/cenc.mp4", keys: CENCFixture.cencKeys)
    let cbcs = try measure("cenc/cbcs.mp4", keys: CENCFixture.cbcsKeys)
    print("µs per packet, MB/s: clear \(clear), cenc \(cenc), cbcs \(cbcs)")
    XCTAssertGreaterThan(cenc.mbps, 1)
    XCTAssertGreaterThan(cbcs.mbps, 1)
  }
}
