import Foundation
import PlayheadCore
import PlayheadMedia
import XCTest

/// Inputs the demuxer fuzzer (Fuzz/Sources/DemuxerFuzzer) found, reduced to what makes
/// them hostile; each must end in a typed error or a result, promptly.
final class FuzzFindingTests: XCTestCase {
  /// A 16-bit PCM WAV whose header claims `sampleRate`, with `frames` samples of a ramp.
  private func wav(sampleRate: UInt32, frames: Int) -> Data {
    func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    let dataBytes = UInt32(frames * 2)
    var bytes: [UInt8] = Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8)
    bytes += le32(16) + le16(1) + le16(1) + le32(sampleRate)
    bytes += le32(sampleRate &* 2) + le16(2) + le16(16)
    bytes += Array("data".utf8) + le32(dataBytes)
    for index in 0..<frames { bytes += le16(UInt16(truncatingIfNeeded: index &* 64)) }
    return Data(bytes)
  }

  /// The fuzzer's first timeout: a 7 KB WAV claiming 1,040,187,456 Hz took 13 s of CPU per
  /// input in the resampler (more with every frame). The rate is now refused at once.
  func testResampler_aWAVClaimingAGigahertzRate_isRefusedWithTheRate() throws {
    let demuxer = try Demuxer(bytes: wav(sampleRate: 1_040_187_456, frames: 3_000))
    let frames = try decodeAudioFrames(demuxer)
    XCTAssertEqual(frames.first?.sampleRate, 1_040_187_456)
    let frame = try XCTUnwrap(frames.first)
    let resampler = AudioResampler(output: .cd)
    XCTAssertThrowsError(try resampler.convert(frame)) { error in
      XCTAssertEqual((error as? PlayheadError)?.code, .decodeFailed)
      XCTAssertEqual(
        (error as? PlayheadError)?.message,
        "The audio's sample rate of 1040187456 Hz is outside the 1000…768000 Hz Playhead converts")
    }
  }

  /// A few hertz would be upsampled 44,100-fold into gigabytes: refused too.
  func testResampler_aWAVClaimingOneHertz_isRefused() throws {
    let frames = try decodeAudioFrames(
      try Demuxer(bytes: wav(sampleRate: 1, frames: 3_000)))
    XCTAssertThrowsError(try AudioResampler(output: .cd).convert(try XCTUnwrap(frames.first))) {
      XCTAssertEqual(($0 as? PlayheadError)?.code, .decodeFailed)
    }
  }

  /// Both ends of the supported range still convert, to the expected number of frames.
  func testResampler_theEndsOfTheSupportedRange_convert() throws {
    for rate in [
      AudioResampler.supportedInputRates.lowerBound, AudioResampler.supportedInputRates.upperBound,
    ] {
      let frames = try decodeAudioFrames(
        try Demuxer(bytes: wav(sampleRate: UInt32(rate), frames: rate / 4)))
      let resampler = AudioResampler(output: .cd)
      var output = 0
      for frame in frames { output += try resampler.convert(frame).frameCount }
      output += try resampler.flush()?.frameCount ?? 0
      XCTAssertEqual(Double(output), 44_100 / 4, accuracy: 64, "\(rate) Hz")
    }
  }
}
