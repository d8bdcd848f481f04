import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// `PlayerItem.pausePoints` (where ad breaks stop the content): playback stops exactly at
/// a point showing the last frame before it, and the frame at the point is the first one
/// shown when it goes on, so every frame is shown once, in order.
final class PausePointTests: XCTestCase {
  func testPlaybackStopsAtThePoint_andTheFrameThereShowsFirstAfterIt() throws {
    let sink = RecordingVideoSink()
    let player = Player(configuration: .fast(videoSink: sink, audioSink: DiscardAudioSink()))
    defer { player.close() }
    let recorder = EventRecorder(player)
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    let point = MediaTime(value: 2, timescale: 1)
    item.pausePoints = [point]
    player.replaceCurrentItem(with: item)
    player.play()
    recorder.waitFor(event: "pausePointReached")
    XCTAssertEqual(item.currentTime(), point)
    XCTAssertEqual(player.rate, 0)
    let before = sink.presentedTimes
    XCTAssertEqual(before.last?.seconds ?? 0, 1.96, accuracy: 1e-9, "the last frame before it")
    XCTAssertTrue(before.allSatisfy { $0 < point }, "nothing at or after the point yet")

    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "\(recorder.names)")
    let all = sink.presentedTimes
    XCTAssertEqual(all[before.count], point, "the frame at the point shows first after it")
    XCTAssertEqual(all.count, 250, "every frame of the 10 s at 25 fps, once")
    XCTAssertEqual(all, all.sorted())
    XCTAssertEqual(Set(all).count, all.count)
  }
}
