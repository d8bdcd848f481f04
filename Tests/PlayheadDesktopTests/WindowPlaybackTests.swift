import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// A player playing the sample into a window, in real time, with its sound on an SDL
/// device (the disk driver): what a desktop player is made of.
final class WindowPlaybackTests: WindowTestCase {
  func testAPlayer_playsTheSampleIntoTheWindow_andTheWindowShowsItsLastFrame() throws {
    let capture = DiskAudioCapture()
    let audio = try SDLAudioOutput()
    let window = try openWindow(size: WindowSize(width: 480, height: 270), gravity: .fit)
    defer { window.close() }
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = MediaTime(value: 2, timescale: 1)
    let (player, recorder) = PlayerEventRecorder.recordingPlayer(
      item, configuration: PlayerConfiguration(videoSink: window, audioSink: audio))
    player.play()
    let end = recorder.waitForItemEnd(timeoutMs: 30_000)
    XCTAssertEqual(end?.name, "didPlayToEnd", "events: \(recorder.names)")
    let statistics = item.statistics
    let lastFrame = try PNGCodec.decode(try player.snapshot())
    player.close()

    // 2 s at 25 fps: frames 0–49 (the one at 2 s is past the end).
    XCTAssertEqual(statistics.framesRendered + statistics.framesDropped, 50)
    XCTAssertEqual(window.presentedFrameCount, statistics.framesRendered)
    XCTAssertGreaterThan(window.drawnFrameCount, 0)
    XCTAssertLessThanOrEqual(window.drawnFrameCount, window.presentedFrameCount)

    let shown = try XCTUnwrap(window.snapshot())
    XCTAssertEqual(shown.width, 480)
    let background = shown.pixel(x: 2, y: 2)
    XCTAssertEqual(background.b, 255, "the pillarbox bar (60 columns) is the background")
    let differing = (0..<shown.height).filter { y in
      (0..<shown.width).contains { x in shown.pixel(x: x, y: y) != background }
    }
    XCTAssertGreaterThan(differing.count, 200, "the window shows the picture, not background")

    // The window's own rendering of the last frame matches the player's snapshot of it.
    let video = try XCTUnwrap(window.videoSnapshot())
    XCTAssertEqual(video.width, lastFrame.width)
    XCTAssertEqual(video.height, lastFrame.height)
    XCTAssertLessThan(meanDifference(video, lastFrame), 6, "the last frame presented is shown")
    XCTAssertEqual(Double(statistics.audioSamplesPlayed), 96_000, accuracy: 2400)
    _ = capture
  }

  /// The mean absolute difference per colour channel between two images of one size.
  private func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    var total = 0
    var count = 0
    for index in 0..<min(a.pixels.count, b.pixels.count) where index % 4 != 3 {
      total += abs(Int(a.pixels[index]) - Int(b.pixels[index]))
      count += 1
    }
    return count == 0 ? .infinity : Double(total) / Double(count)
  }
}
