import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// Fast mode from 3 s for 4 s of `sample-h264-aac.mp4` (25 fps, 48 kHz): where playback
/// stops is decided on media time alone, so every run shows the same 100 frames
/// (3.00 … 6.96 s; the frame at 7.00 s is at the forward end and never shown) and writes
/// exactly 4 s of audio, whatever the decoder got done ahead of the end.
///
/// It used to show 100 frames in some runs and 101 in others: a pause at the end still
/// showed the frame at the end when it happened to be decoded.
final class ForwardEndDeterminismTests: XCTestCase {
  private struct Run: Equatable {
    var frameTimes: [MediaTime]
    var frameTimestamps: [MediaTime]
    var audioSamples: Int
    var endTime: MediaTime
  }

  private func playOnce() throws -> Run {
    let sink = RecordingVideoSink()
    let audio = DiscardAudioSink()
    let player = Player(configuration: .fast(videoSink: sink, audioSink: audio))
    defer { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = MediaTime(value: 7, timescale: 1)
    player.replaceCurrentItem(with: item)
    player.seek(
      to: MediaTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero,
      completionHandler: nil)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    // The pause at the end must not show one more frame: wait until the loop is paused.
    recorder.waitFor(event: "paused")
    player.close()
    return Run(
      frameTimes: sink.presentedTimes, frameTimestamps: sink.streamTimestamps,
      audioSamples: audio.writtenFrameCount, endTime: item.currentTime())
  }

  func testTwentyRuns_showTheSameHundredFrames_andTheSameAudio() throws {
    let first = try playOnce()
    XCTAssertEqual(first.frameTimes.count, 100)
    XCTAssertEqual(first.frameTimes.first, MediaTime(value: 3, timescale: 1))
    XCTAssertEqual(first.frameTimes.last?.seconds ?? 0, 6.96, accuracy: 1e-9)
    XCTAssertTrue(first.frameTimes.allSatisfy { $0 < MediaTime(value: 7, timescale: 1) })
    XCTAssertEqual(first.audioSamples, 4 * 48_000, "exactly the 4 s between start and end")
    XCTAssertEqual(first.endTime, MediaTime(value: 7, timescale: 1))
    for run in 2...20 {
      let next = try playOnce()
      XCTAssertEqual(next.frameTimes.count, first.frameTimes.count, "run \(run)")
      XCTAssertEqual(next, first, "run \(run) differs from the first")
    }
  }
}
