import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

final class AudioTempoProcessorTests: XCTestCase {
  private let format = AudioOutputFormat(sampleRate: 48000, channels: 2, sampleFormat: .int16)

  /// Feeds `input` in 4096-frame chunks, then flushes; returns every output buffer.
  private func run(_ processor: AudioTempoProcessor, _ input: AudioBuffer) throws -> [AudioBuffer] {
    var buffers: [AudioBuffer] = []
    let chunkFrames = 4096
    let bytesPerFrame = input.format.bytesPerFrame
    var start = 0
    while start < input.frameCount {
      let frames = min(chunkFrames, input.frameCount - start)
      let bytes = input.samples.subdata(
        in: (start * bytesPerFrame)..<((start + frames) * bytesPerFrame))
      let pts =
        input.pts + MediaTime(value: Int64(start), timescale: Int32(input.format.sampleRate))
      buffers.append(
        try processor.process(
          AudioBuffer(format: input.format, samples: bytes, frameCount: frames, pts: pts)))
      start += frames
    }
    if let tail = try processor.flush() { buffers.append(tail) }
    return buffers
  }

  private func check(
    rate: Double, algorithm: TimePitchAlgorithm, expectedFrequency: Double,
    format: AudioOutputFormat? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let format = format ?? self.format
    let input = AudioBuffer.sine(frequency: 1000, seconds: 4, format: format)
    let processor = try AudioTempoProcessor(format: format, rate: rate, algorithm: algorithm)
    let buffers = try run(processor, input)
    let output = AudioBuffer.joined(buffers, format: format)
    XCTAssertEqual(output.samples.count, output.frameCount * format.bytesPerFrame)
    let expectedFrames = Double(input.frameCount) / rate
    XCTAssertEqual(
      Double(output.frameCount), expectedFrames, accuracy: expectedFrames * 0.05,
      "rate \(rate) \(algorithm)", file: file, line: line)
    for channel in 0..<format.channels {
      XCTAssertEqual(
        estimatedFrequency(output.channel(channel), sampleRate: format.sampleRate),
        expectedFrequency, accuracy: expectedFrequency * 0.03,
        "rate \(rate) \(algorithm) channel \(channel)", file: file, line: line)
    }
    // Buffers are stamped with media time: rate × output time since the first input.
    XCTAssertEqual(buffers.first?.pts, .zero, file: file, line: line)
    if let last = buffers.last(where: { $0.frameCount > 0 }) {
      let covered = Double(output.frameCount - last.frameCount) * rate / Double(format.sampleRate)
      XCTAssertEqual(last.pts.seconds, covered, accuracy: 0.01, file: file, line: line)
    }
  }

  func testTimeDomain_double_halvesTheLengthAndKeepsPitch() throws {
    try check(rate: 2, algorithm: .timeDomain, expectedFrequency: 1000)
  }

  func testTimeDomain_half_doublesTheLengthAndKeepsPitch() throws {
    try check(rate: 0.5, algorithm: .timeDomain, expectedFrequency: 1000)
  }

  func testTimeDomain_beyondOneFilterRange_chainsFilters() throws {
    try check(rate: 3, algorithm: .timeDomain, expectedFrequency: 1000)
    try check(rate: 0.25, algorithm: .timeDomain, expectedFrequency: 1000)
  }

  func testTimeDomain_float32Mono_works() throws {
    let mono = AudioOutputFormat(sampleRate: 44100, channels: 1, sampleFormat: .float32)
    try check(rate: 1.5, algorithm: .timeDomain, expectedFrequency: 1000, format: mono)
  }

  func testVarispeed_double_halvesTheLengthAndRaisesPitch() throws {
    try check(rate: 2, algorithm: .varispeed, expectedFrequency: 2000)
  }

  func testVarispeed_slower_lowersPitch() throws {
    try check(rate: 0.8, algorithm: .varispeed, expectedFrequency: 800)
  }

  func testProcessAfterFlush_startsAgain() throws {
    let processor = try AudioTempoProcessor(format: format, rate: 2, algorithm: .timeDomain)
    let input = AudioBuffer.sine(frequency: 500, seconds: 1, format: format)
    let first = try run(processor, input).reduce(0) { $0 + $1.frameCount }
    let second = try run(processor, input).reduce(0) { $0 + $1.frameCount }
    XCTAssertEqual(Double(first), 24000, accuracy: 1200)
    XCTAssertEqual(Double(second), 24000, accuracy: 1200)
  }

  func testInvalidRatesAndFormats_throwInvalidArgument() throws {
    for rate in [0, -1, .nan, .infinity, 100] {
      assertThrows(.invalidArgument) {
        try AudioTempoProcessor(format: self.format, rate: rate, algorithm: .timeDomain)
      }
    }
    let processor = try AudioTempoProcessor(format: format, rate: 2, algorithm: .varispeed)
    let other = AudioBuffer.sine(frequency: 500, seconds: 0.1, format: .cd)
    assertThrows(.invalidArgument) { try processor.process(other) }
    var short = AudioBuffer.sine(frequency: 500, seconds: 0.1, format: format)
    short.frameCount += 10
    assertThrows(.invalidArgument) { try processor.process(short) }
  }
}
