import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// What the sound card plays (issue 13): the sample's tones (440 Hz left, 660 Hz right) for
/// the time played, and the output channel modes, through SDL's disk driver (fast: it waits
/// 2 ms per 21 ms buffer, so the device, and with it the playback, runs about 10 times as
/// fast as real time).
final class DeviceSoundTests: XCTestCase {
  /// Plays the first `seconds` of the sample on a disk device with `channel`; returns the
  /// audible 16-bit stereo samples the device played.
  private func play(seconds: Int, channel: AudioChannelMode) throws -> [Int16] {
    let capture = DiskAudioCapture(delayMs: 2)
    var configuration = PlayerConfiguration(audioSink: try SDLAudioOutput())
    configuration.isVideoDisabled = true
    configuration.audioOutputChannel = channel
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = MediaTime(value: Int64(seconds), timescale: 1)
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(item, configuration: configuration)
    player.play()
    XCTAssertEqual(recorder.waitForItemEnd(timeoutMs: 60_000)?.name, "didPlayToEnd")
    player.close()
    let bytes = capture.audibleBytes(bytesPerFrame: 4)
    return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
  }

  /// The zero-crossing frequency of one channel, in Hz, and the channel's length in s.
  private func tone(_ samples: [Int16], channel: Int) -> (hertz: Double, seconds: Double) {
    ToneMeasure.tone(samples, channel: channel)
  }

  func testTheDevicePlaysTheTones_forTheTimePlayed() throws {
    let samples = try play(seconds: 3, channel: .both)
    let left = tone(samples, channel: 0)
    let right = tone(samples, channel: 1)
    XCTAssertEqual(left.hertz, 440, accuracy: 5)
    XCTAssertEqual(right.hertz, 660, accuracy: 5)
    XCTAssertEqual(left.seconds, 3, accuracy: 0.05, "three seconds of sound")
  }

  func testLeftAndRightModes_silenceTheOtherChannel() throws {
    let left = try play(seconds: 1, channel: .left)
    XCTAssertEqual(tone(left, channel: 0).hertz, 440, accuracy: 5)
    XCTAssertTrue(stride(from: 1, to: left.count, by: 2).allSatisfy { left[$0] == 0 })
    let right = try play(seconds: 1, channel: .right)
    XCTAssertEqual(tone(right, channel: 1).hertz, 660, accuracy: 5)
    XCTAssertTrue(stride(from: 0, to: right.count, by: 2).allSatisfy { right[$0] == 0 })
  }
}
