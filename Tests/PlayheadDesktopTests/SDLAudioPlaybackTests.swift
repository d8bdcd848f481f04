import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

final class SDLAudioPlaybackTests: XCTestCase {
  override func tearDown() {
    XCTAssertEqual(SDLRuntime.shared.userCount(of: .audio), 0, "the player must close the device")
    super.tearDown()
  }

  /// The disk driver waits 42 ms per 1024-frame buffer (21.3 ms of audio), so the device
  /// plays at about half speed: a player whose position follows it takes about twice as
  /// long as the media lasts, and its position is what the device has played.
  func testPlayer_playsTwoSecondsThroughTheDevice_itsPositionFollowsTheDevice() throws {
    let capture = DiskAudioCapture(delayMs: 42)
    let output = try SDLAudioOutput()
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = MediaTime(value: 2, timescale: 1)
    let video = DiscardVideoSink()
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      item, configuration: PlayerConfiguration(videoSink: video, audioSink: output))
    let samples = Locked<[(position: MediaTime, played: Int)]>([])
    player.addPeriodicTimeObserver(
      forInterval: MediaTime(value: 1, timescale: 10), queue: recorder.queue
    ) { _ in
      let position = player.currentTime()
      let played = output.progress().playedFrameCount
      samples.withLock { $0.append((position, played)) }
    }
    let started = Date()
    player.play()
    let end = recorder.waitForItemEnd(timeoutMs: 30_000)
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertEqual(
      end?.name, "didPlayToEnd", "events: \(recorder.names), \(String(describing: end))")
    let statistics = item.statistics
    player.close()

    XCTAssertGreaterThan(
      elapsed, 3.0, "2 s of media on a half-speed device must take longer than 3 s of real time")
    let latency = Double(output.bufferFrameCount) / 48_000
    let recorded = samples.value.filter { $0.played > output.bufferFrameCount }
    XCTAssertGreaterThan(recorded.count, 10, "the periodic observer ran while playing")
    for sample in recorded {
      let heard = Double(sample.played) / 48_000 - latency
      XCTAssertEqual(
        sample.position.seconds, heard, accuracy: 0.15,
        "the position follows what the device played")
    }
    XCTAssertEqual(statistics.audioSamplesPlayed, output.totalWrittenFrameCount)
    XCTAssertEqual(Double(statistics.audioSamplesPlayed), 96_000, accuracy: 2400)
    XCTAssertGreaterThan(video.presentedFrameCount, 40)

    // The file holds about 2 s of sound between the silence before and after.
    DiskAudioCapture.poll("the device's last buffers to reach the file") {
      capture.audibleSpanFrames(bytesPerFrame: 4) >= 90_000
    }
    XCTAssertEqual(Double(capture.audibleSpanFrames(bytesPerFrame: 4)), 96_000, accuracy: 4800)
  }
}
