import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class AudioResamplerTests: XCTestCase {
  private func resampleAll(
    _ frames: [AudioFrame], to format: AudioOutputFormat, mode: AudioChannelMode = .both
  ) throws -> [AudioBuffer] {
    let resampler = AudioResampler(output: format, channelMode: mode)
    var buffers = try frames.map { try resampler.convert($0) }
    if let tail = try resampler.flush() { buffers.append(tail) }
    XCTAssertNil(try resampler.flush(), "a second flush has nothing left")
    return buffers
  }

  func testStereo48k_to44k_keepsDurationAndChannels() throws {
    let frames = try decodeAudioFrames(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    let inputSamples = frames.reduce(0) { $0 + $1.sampleCount }
    XCTAssertEqual(frames.first?.sampleRate, 48000)
    let buffers = try resampleAll(frames, to: .cd)
    let output = buffers.reduce(0) { $0 + $1.frameCount }
    let expected = Double(inputSamples) * 44100 / 48000
    XCTAssertEqual(Double(output), expected, accuracy: 4)
    for buffer in buffers {
      XCTAssertEqual(buffer.format, .cd)
      XCTAssertEqual(buffer.samples.count, buffer.frameCount * 4)
    }
    // Consecutive buffers are contiguous in media time.
    for (previous, next) in zip(buffers, buffers.dropFirst()) where next.frameCount > 0 {
      XCTAssertEqual((previous.pts + previous.duration).seconds, next.pts.seconds, accuracy: 0.001)
    }
    XCTAssertEqual(buffers.first?.pts.seconds ?? -1, 0, accuracy: 0.001)
    let joined = AudioBuffer.joined(buffers, format: .cd)
    XCTAssertEqual(estimatedFrequency(joined.channel(0), sampleRate: 44100), 440, accuracy: 5)
    XCTAssertEqual(estimatedFrequency(joined.channel(1), sampleRate: 44100), 660, accuracy: 5)
  }

  func testLeftMode_bothChannelsCarryTheSourceLeft() throws {
    let frames = try decodeAudioFrames(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    let joined = AudioBuffer.joined(try resampleAll(frames, to: .cd, mode: .left), format: .cd)
    let left = joined.channel(0)
    let right = joined.channel(1)
    XCTAssertEqual(left, right)
    XCTAssertEqual(estimatedFrequency(left, sampleRate: 44100), 440, accuracy: 5)
  }

  func testRightMode_bothChannelsCarryTheSourceRight() throws {
    let frames = try decodeAudioFrames(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    let format = AudioOutputFormat(sampleRate: 48000, channels: 2, sampleFormat: .float32)
    let joined = AudioBuffer.joined(
      try resampleAll(frames, to: format, mode: .right), format: format)
    XCTAssertEqual(joined.samples.count, joined.frameCount * 8)
    XCTAssertEqual(joined.channel(0), joined.channel(1))
    XCTAssertEqual(estimatedFrequency(joined.channel(0), sampleRate: 48000), 660, accuracy: 5)
  }

  func testInputFormatChange_reinitialisesAndKeepsGoing() throws {
    let mp3 = try decodeAudioFrames(try MediaFixtures.demuxer("sample-audio.mp3"))
    let aac = try decodeAudioFrames(try MediaFixtures.demuxer("sample-h264-aac.mp4"))
    XCTAssertNotEqual(mp3.first?.sampleRate, aac.first?.sampleRate)
    let resampler = AudioResampler(output: .cd)
    var total = 0
    for frame in mp3.prefix(20) + aac.prefix(20) {
      total += try resampler.convert(frame).frameCount
    }
    total += try resampler.flush()?.frameCount ?? 0
    let inputSeconds =
      mp3.prefix(20).reduce(0.0) { $0 + $1.duration.seconds }
      + aac.prefix(20).reduce(0.0) { $0 + $1.duration.seconds }
    XCTAssertEqual(Double(total) / 44100, inputSeconds, accuracy: 0.01)
  }

  func testMonoOutput_downmixes() throws {
    let frames = try decodeAudioFrames(try MediaFixtures.demuxer("sample-audio.mp3"))
    let mono = AudioOutputFormat(sampleRate: 22050, channels: 1, sampleFormat: .int16)
    let buffers = try resampleAll(Array(frames.prefix(50)), to: mono)
    let output = buffers.reduce(0) { $0 + $1.frameCount }
    let input = frames.prefix(50).reduce(0) { $0 + $1.sampleCount }
    XCTAssertEqual(Double(output), Double(input) / 2, accuracy: 4)
    XCTAssertTrue(buffers.allSatisfy { $0.samples.count == $0.frameCount * 2 })
  }

  func testInvalidOutputFormat_throwsInvalidArgument() throws {
    let frames = try decodeAudioFrames(try MediaFixtures.demuxer("sample-audio.mp3"))
    let first = try XCTUnwrap(frames.first)
    let resampler = AudioResampler(
      output: AudioOutputFormat(sampleRate: 0, channels: 2, sampleFormat: .int16))
    assertThrows(.invalidArgument) { try resampler.convert(first) }
    XCTAssertNil(try resampler.flush())
  }
}
