import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// The audio enhancement filters on libavfilter, with their effects measured.
final class AudioEnhancementTests: XCTestCase {
  private let format = AudioOutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .float32)

  /// Stereo float samples from a function of (frame index, channel).
  private func buffer(seconds: Double, _ sample: (Int, Int) -> Double) -> AudioBuffer {
    let frames = Int(seconds * Double(format.sampleRate))
    var values: [Float] = []
    values.reserveCapacity(frames * 2)
    for index in 0..<frames {
      values.append(Float(sample(index, 0)))
      values.append(Float(sample(index, 1)))
    }
    let data = values.withUnsafeBufferPointer { Data(buffer: $0) }
    return AudioBuffer(format: format, samples: data, frameCount: frames, pts: .zero)
  }

  /// Runs `input` through the processor in 20 ms buffers, then flushes.
  private func run(_ enhancement: AudioEnhancement, _ input: AudioBuffer) throws -> AudioBuffer {
    let processor = try AudioEnhancementProcessor(format: format, enhancement: enhancement)
    let step = 960
    var outputs: [AudioBuffer] = []
    var start = 0
    while start < input.frameCount {
      let count = min(step, input.frameCount - start)
      let bytes = input.samples.subdata(
        in: (start * format.bytesPerFrame)..<((start + count) * format.bytesPerFrame))
      let pts = MediaTime(value: Int64(start), timescale: 48_000)
      outputs.append(
        try processor.process(
          AudioBuffer(format: format, samples: bytes, frameCount: count, pts: pts)))
      start += count
    }
    if let tail = try processor.flush() { outputs.append(tail) }
    return AudioBuffer.joined(outputs, format: format)
  }

  private func rms(_ values: ArraySlice<Double>) -> Double {
    (values.reduce(0) { $0 + $1 * $1 } / Double(max(1, values.count))).squareRoot()
  }

  /// Energy of the side (L − R) over the mid (L + R), skipping the first 0.5 s.
  private func sideOverMid(_ buffer: AudioBuffer) -> Double {
    let left = buffer.channel(0).dropFirst(24_000)
    let right = buffer.channel(1).dropFirst(24_000)
    let mid = zip(left, right).map { ($0 + $1) / 2 }
    let side = zip(left, right).map { ($0 - $1) / 2 }
    return rms(side[...]) / rms(mid[...])
  }

  /// A deterministic noise in -1…1 (a linear congruential generator per channel).
  private func noise(_ index: Int, _ channel: Int) -> Double {
    var state = UInt64(index &* 2 &+ channel &+ 1) &* 6_364_136_223_846_793_005
    state ^= state >> 33
    state = state &* 0xff51_afd7_ed55_8ccd
    state ^= state >> 33
    return Double(state % 20_001) / 10_000 - 1
  }

  func testNoFilterOnIsRefused() {
    XCTAssertTrue(AudioEnhancement.none.isEmpty)
    XCTAssertThrowsError(try AudioEnhancementProcessor(format: format, enhancement: .none)) {
      XCTAssertEqual(($0 as? PlayheadError)?.code, .invalidArgument)
    }
  }

  func testSurroundWidensTheStereoImage() throws {
    // Mostly centred: the right channel is the left at 80 %.
    let input = buffer(seconds: 2) { index, channel in
      let value = 0.4 * sin(2 * Double.pi * 440 * Double(index) / 48_000)
      return channel == 0 ? value : 0.8 * value
    }
    let output = try run(AudioEnhancement(surround: .threeD), input)
    XCTAssertEqual(Double(output.frameCount), Double(input.frameCount), accuracy: 960)
    let before = sideOverMid(input)
    let after = sideOverMid(output)
    XCTAssertGreaterThan(after, before * 2, "side/mid \(before) → \(after)")
  }

  func testDialogueEnhancementRaisesTheCentre() throws {
    // A centred voice-band tone and noise, with some noise of each side's own.
    let input = buffer(seconds: 3) { index, channel in
      0.2 * sin(2 * Double.pi * 700 * Double(index) / 48_000) + 0.15 * self.noise(index, 2)
        + 0.1 * self.noise(index, channel)
    }
    let output = try run(AudioEnhancement(dialogueVoiceLevel: 10), input)
    XCTAssertEqual(Double(output.frameCount), Double(input.frameCount), accuracy: 9_600)
    let before = sideOverMid(input)
    let after = sideOverMid(output)
    XCTAssertLessThan(after, before * 0.8, "the centre gains on the sides: \(before) → \(after)")
    let mild = sideOverMid(try run(AudioEnhancement(dialogueVoiceLevel: 1), input))
    XCTAssertGreaterThan(mild, after, "level 1 is milder than level 10")
  }

  func testNormalisationNarrowsTheLoudnessRange() throws {
    // 2 s loud, 2 s quiet, 2 s loud, 2 s quiet: 18 dB apart.
    let input = buffer(seconds: 8) { index, _ in
      let loud = (index / 96_000) % 2 == 0
      return (loud ? 0.4 : 0.05) * sin(2 * Double.pi * 300 * Double(index) / 48_000)
    }
    let output = try run(AudioEnhancement(normalizesVolume: true), input)
    func ratio(_ buffer: AudioBuffer) -> Double {
      let left = buffer.channel(0)
      // The middle second of the second loud and the second quiet part.
      return rms(left[(4 * 48_000 + 24_000)..<(5 * 48_000 + 24_000)])
        / rms(left[(6 * 48_000 + 24_000)..<(7 * 48_000 + 24_000)])
    }
    XCTAssertEqual(ratio(input), 8, accuracy: 0.1)
    XCTAssertLessThan(ratio(output), 3, "loud/quiet \(ratio(input)) → \(ratio(output))")
  }
}
