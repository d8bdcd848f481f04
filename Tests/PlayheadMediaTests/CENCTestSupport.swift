import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import XCTest

/// The keys of `Fixtures/cenc/` (scripts/cenc_encrypt.py and make-cenc-fixtures.sh).
enum CENCFixture {
  static let cencKID = hex("0123456789abcdef0123456789abcdef")
  static let cencKey = hex("00112233445566778899aabbccddeeff")
  static let videoKID = hex("a1b2c3d4e5f60718293a4b5c6d7e8f90")
  static let videoKey = hex("3c4fcfd8a1b6e2a7d1e0f9c8b7a69584")
  static let audioKID = hex("f0e1d2c3b4a5968778695a4b3c2d1e0f")
  static let audioKey = hex("6a1c9e0b2d4f8a7c5e3b1d9f0a2c4e6b")

  static var cencKeys: SampleKeys { SampleKeys([cencKID: cencKey]) }
  static var cbcsKeys: SampleKeys { SampleKeys([videoKID: videoKey, audioKID: audioKey]) }

  static func hex(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { offset in
      let start = text.index(text.startIndex, offsetBy: offset)
      return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
    }
  }

  /// A demuxer over `bytes` (by default the fixture's) that reads the fragments in order,
  /// as a streaming run does (`isSeekable: false`, decision 0055).
  static func inOrderDemuxer(
    _ name: String, bytes: Data? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> Demuxer {
    let url = try MediaFixtures.url(name, file: file, line: line)
    let data = try bytes ?? Data(contentsOf: url)
    let reader = DataSourceReader(
      source: MemoryDataSource(data: data), request: DataRequest(url: url, purpose: .media))
    return try Demuxer(reader: reader, isSeekable: false)
  }
}

/// What a file decodes to: a checksum of every video frame's planes, in order, and of the
/// audio as 16-bit samples.
struct DecodedSignature: Equatable {
  var videoFrames: [UInt64] = []
  var audioChecksum: UInt64 = 0
  var audioSamples = 0
}

/// Reads and decodes every packet of `demuxer`'s best video and audio streams; what it
/// decoded before a thrown error is in `partial`.
func decodeSignature(_ demuxer: Demuxer, partial: ((DecodedSignature) -> Void)? = nil) throws
  -> DecodedSignature
{
  let videoIndex = try XCTUnwrap(demuxer.bestStream(of: .video)?.index)
  let audioIndex = try XCTUnwrap(demuxer.bestStream(of: .audio)?.index)
  let video = try demuxer.makeVideoDecoder(streamIndex: videoIndex, threadCount: 1)
  let audio = try demuxer.makeAudioDecoder(streamIndex: audioIndex)
  let resampler = AudioResampler(
    output: AudioOutputFormat(sampleRate: 48000, channels: 2, sampleFormat: .int16))
  var signature = DecodedSignature()
  func takeFrames() throws {
    while let frame = try video.receiveFrame() {
      signature.videoFrames.append(
        frame.withPlanes { planes in
          var hash = Checksum()
          for (index, plane) in planes.enumerated() {
            let width = index == 0 ? frame.width : (frame.width + 1) / 2
            let height = index == 0 ? frame.height : (frame.height + 1) / 2
            for row in 0..<height {
              hash.add(
                UnsafeBufferPointer(
                  start: plane.baseAddress + row * plane.bytesPerRow, count: width))
            }
          }
          return hash.value
        })
    }
    while let frame = try audio.receiveFrame() {
      let buffer = try resampler.convert(frame)
      var hash = Checksum(value: signature.audioChecksum)
      buffer.samples.withUnsafeBytes { hash.add($0.bindMemory(to: UInt8.self)) }
      signature.audioChecksum = hash.value
      signature.audioSamples += buffer.frameCount
    }
  }
  do {
    while let packet = try demuxer.readPacket() {
      if packet.streamIndex == videoIndex {
        try video.send(packet)
      } else if packet.streamIndex == audioIndex {
        try audio.send(packet)
      }
      try takeFrames()
    }
    try video.send(nil)
    try audio.send(nil)
    try takeFrames()
  } catch {
    partial?(signature)
    throw error
  }
  return signature
}

/// FNV-1a, 64 bits.
struct Checksum {
  var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    for byte in bytes {
      value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }
  }
}

/// A key source that counts how often each key ID is asked for.
final class CountingKeySource: SampleKeySource {
  let keys: SampleKeys
  let asked = Locked<[[UInt8]: Int]>([:])

  init(_ keys: SampleKeys) { self.keys = keys }

  func key(for keyID: [UInt8]) throws(PlayheadError) -> [UInt8]? {
    asked.withLock { $0[keyID, default: 0] += 1 }
    return try keys.key(for: keyID)
  }
}
