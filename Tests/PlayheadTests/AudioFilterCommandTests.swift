import Foundation
import PlayheadTestSupport
import XCTest

/// `playhead play … --audio-filter F --audio-channel C` (SPEC P8, seed 003): the filters
/// and the output channel act on what is written to `--wav`. The sample has 440 Hz on the
/// left and 660 Hz on the right.
final class AudioFilterCommandTests: XCTestCase {
  /// Plays the sample in fast mode with `options`, returning the WAV's 16-bit samples.
  private func play(_ options: [String]) throws -> [Int16] {
    let wav = try makeTemporaryDirectory().appendingPathComponent("out.wav")
    let result = try CLIRunner.run(
      [
        "play", try Fixtures.url("sample-h264-aac.mp4").path, "--fast", "--quiet", "--wav",
        wav.path,
      ]
        + options)
    assertStatus(result, 0)
    let data = try Data(contentsOf: wav)
    return data.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
  }

  /// The zero-crossing frequency of one channel of interleaved stereo samples, in Hz.
  private func hertz(_ samples: [Int16], channel: Int) -> Double {
    ToneMeasure.tone(samples, channel: channel).hertz
  }

  /// Side (L − R) energy over mid (L + R) energy.
  private func sideOverMid(_ samples: [Int16]) -> Double {
    var mid = 0.0
    var side = 0.0
    for index in stride(from: 0, to: samples.count - 1, by: 2) {
      let left = Double(samples[index])
      let right = Double(samples[index + 1])
      mid += (left + right) * (left + right)
      side += (left - right) * (left - right)
    }
    return (side / max(1, mid)).squareRoot()
  }

  func testAudioChannelRight_silencesTheLeft() throws {
    let plain = try play([])
    XCTAssertEqual(hertz(plain, channel: 0), 440, accuracy: 10)
    let right = try play(["--audio-channel", "right"])
    XCTAssertEqual(right.count, plain.count)
    XCTAssertTrue(stride(from: 0, to: right.count, by: 2).allSatisfy { right[$0] == 0 })
    XCTAssertEqual(hertz(right, channel: 1), 660, accuracy: 10)
  }

  func testAudioFilterSurround_widensTheSound_andCombinesWithOthers() throws {
    let plain = try play([])
    let wide = try play(["--audio-filter", "surround"])
    XCTAssertEqual(wide.count, plain.count, "the filters keep the length")
    XCTAssertGreaterThan(sideOverMid(wide), sideOverMid(plain) * 1.5)
    let all = try play(["--audio-filter", "normalize,dialogue=4", "--audio-filter=surround"])
    XCTAssertEqual(all.count, plain.count)
    XCTAssertNotEqual(all, wide)
  }

  func testBadValues_areUsageErrors() throws {
    let sample = try Fixtures.url("sample-h264-aac.mp4").path
    let cases: [([String], String)] = [
      (["--audio-filter", "echo"], "takes normalize, dialogue=LEVEL or surround, not 'echo'"),
      (["--audio-filter", "dialogue=11"], "voice level from 1 to 10"),
      (["--audio-filter", "dialogue"], "needs a voice level"),
      (["--audio-channel", "centre"], "needs both, left or right, not 'centre'"),
      (["--audio-filter", "surround", "--no-audio"], "cannot be used with '--no-audio'"),
    ]
    for (options, message) in cases {
      let result = try CLIRunner.run(["play", sample, "--fast"] + options)
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
    }
  }
}
