import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadTestSupport
import XCTest

final class LeakTests: XCTestCase {
  /// Resident memory in bytes (fails the test where it cannot be read).
  private func residentBytes() throws -> Int {
    try XCTUnwrap(ProcessMemory.residentBytes(), "cannot read /proc/self/statm")
  }

  /// One full pass through everything that allocates FFmpeg objects.
  private func decodeConvertAndResample(_ bytes: Data) throws {
    let demuxer = try Demuxer(bytes: bytes)
    let video = try XCTUnwrap(demuxer.bestStream(of: .video))
    let audio = try XCTUnwrap(demuxer.bestStream(of: .audio))
    let videoDecoder = try demuxer.makeVideoDecoder(streamIndex: video.index)
    let audioDecoder = try demuxer.makeAudioDecoder(streamIndex: audio.index)
    let converter = VideoConverter()
    let resampler = AudioResampler(output: .cd, channelMode: .left)
    let tempo = try AudioTempoProcessor(format: .cd, rate: 1.5, algorithm: .timeDomain)
    var frames = 0
    func drain() throws {
      while let frame = try videoDecoder.receiveFrame() {
        frames += 1
        if frames % 25 == 0 {
          _ = try converter.convert(frame, width: 100, height: 100, gravity: .fill)
        }
      }
      while let frame = try audioDecoder.receiveFrame() {
        _ = try tempo.process(try resampler.convert(frame))
      }
    }
    try demuxer.seek(to: MediaTime(value: 5, timescale: 1), streamIndex: video.index)
    try demuxer.seek(to: .zero, streamIndex: video.index)
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
    _ = try resampler.flush()
    _ = try tempo.flush()
    XCTAssertEqual(frames, 250)
  }

  func testDecodingFortyTimes_doesNotGrowResidentMemory() throws {
    let bytes = try MediaFixtures.data("sample-h264-aac.mp4")
    // Warm up: the first pass loads code and fills FFmpeg's buffer pools.
    try decodeConvertAndResample(bytes)
    try decodeConvertAndResample(bytes)
    let before = try residentBytes()
    for _ in 0..<40 {
      try decodeConvertAndResample(bytes)
    }
    let growth = try residentBytes() - before
    // A healthy run grows by about 1 MB; leaking only the packets grows by over 10 MB.
    XCTAssertLessThan(growth, 6 * 1024 * 1024, "resident memory grew by \(growth) bytes")
  }

  func testOpeningFailuresTwoHundredTimes_doesNotGrowResidentMemory() throws {
    let text = try MediaFixtures.data("not-a-video.mp4")
    let truncated = try MediaFixtures.data("truncated.mp4")
    func attempt() {
      _ = try? Demuxer(bytes: text)
      _ = try? Demuxer(bytes: truncated)
      _ = try? PNGCodec.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]))
    }
    for _ in 0..<20 { attempt() }
    let before = try residentBytes()
    for _ in 0..<200 { attempt() }
    let growth = try residentBytes() - before
    XCTAssertLessThan(growth, 8 * 1024 * 1024, "resident memory grew by \(growth) bytes")
  }
}
