import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

/// The `hls-sample-aes` fixture (scripts/make-sample-aes-fixture.py): its segments with
/// keys and IVs from the manifest, and a decoder of a demuxer's output for comparisons.
enum SampleAESFixture {
  static let playlist = "hls-sample-aes/index.m3u8"

  struct Segment {
    var uri: String
    var sequenceNumber: Int
    var key: [UInt8]
    var iv: [UInt8]
    var keyURI: String
    var encrypted: Data
    var clear: Data
  }

  /// Every segment, encrypted and clear; fails when the fixture or a field is missing.
  static func segments(file: StaticString = #filePath, line: UInt = #line) throws -> [Segment] {
    let entry = try Fixtures.manifest().file(playlist)
    let segments = try XCTUnwrap(entry.segments, file: file, line: line)
    XCTAssertEqual(segments.count, 3, file: file, line: line)
    return try segments.map { segment in
      Segment(
        uri: segment.uri, sequenceNumber: segment.sequenceNumber,
        key: try bytes(hex: XCTUnwrap(segment.keyHex)),
        iv: try bytes(hex: XCTUnwrap(segment.ivHex)),
        keyURI: try XCTUnwrap(segment.keyURI),
        encrypted: try Data(contentsOf: Fixtures.url("hls-sample-aes/" + segment.uri)),
        clear: try Data(contentsOf: Fixtures.url("hls-sample-aes/clear/" + segment.uri)))
    }
  }

  /// `wrong-key.bin`.
  static func wrongKey() throws -> [UInt8] {
    [UInt8](try Data(contentsOf: Fixtures.url("hls-sample-aes/wrong-key.bin")))
  }

  static func bytes(hex: String) throws -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      result.append(try XCTUnwrap(UInt8(hex[index..<next], radix: 16)))
      index = next
    }
    return result
  }

  /// A demuxer over TS bytes in memory, read front to back as an HLS run is.
  static func demuxer(_ bytes: Data, name: String) throws(PlayheadError) -> Demuxer {
    let url = URL(string: "memory:/\(name)")!
    let reader = DataSourceReader(
      source: MemoryDataSource(data: bytes), request: DataRequest(url: url, purpose: .media))
    return try Demuxer(reader: reader, formatHint: "mpegts", isSeekable: false)
  }
}

/// What a demuxer's video and audio decode to: each picture's planes and the audio as
/// 32-bit float samples, in output order.
struct DecodedMedia: Equatable {
  var pictures: [Data] = []
  var audio = Data()
  var audioFrames = 0

  /// Reads and decodes every packet of the best video and audio streams.
  static func decode(_ demuxer: Demuxer) throws(PlayheadError) -> DecodedMedia {
    var media = DecodedMedia()
    guard let video = demuxer.bestStream(of: .video), let audio = demuxer.bestStream(of: .audio)
    else {
      throw PlayheadError(.noPlayableStreams, "the fixture must have video and audio")
    }
    let videoDecoder = try demuxer.makeVideoDecoder(streamIndex: video.index, threadCount: 1)
    let audioDecoder = try demuxer.makeAudioDecoder(streamIndex: audio.index)
    let resampler = AudioResampler(
      output: AudioOutputFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32))
    func drain() throws(PlayheadError) {
      while let frame = try videoDecoder.receiveFrame() { media.pictures.append(planes(frame)) }
      while let frame = try audioDecoder.receiveFrame() {
        media.audio.append(try resampler.convert(frame).samples)
        media.audioFrames += 1
      }
    }
    while let packet = try demuxer.readPacket() {
      if packet.streamIndex == video.index {
        try videoDecoder.send(packet)
      } else if packet.streamIndex == audio.index {
        try audioDecoder.send(packet)
      }
      try drain()
    }
    try videoDecoder.send(nil)
    try audioDecoder.send(nil)
    try drain()
    return media
  }

  static func planes(_ frame: VideoFrame) -> Data {
    let heights = [frame.height, (frame.height + 1) / 2, (frame.height + 1) / 2]
    let widths = [frame.width, (frame.width + 1) / 2, (frame.width + 1) / 2]
    return frame.withPlanes { planes in
      var data = Data()
      for (index, plane) in planes.enumerated() where index < 3 {
        for row in 0..<heights[index] {
          data.append(plane.baseAddress + row * plane.bytesPerRow, count: widths[index])
        }
      }
      return data
    }
  }
}
