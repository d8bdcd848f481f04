import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class SnapshotTests: XCTestCase {
  func testSnapshotHasTheRequestedSizeAndTheCounterChanges() async throws {
    let player = Player(url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    XCTAssertThrowsError(try player.snapshot())
    EventRecorder(player).waitFor(event: "readyToPlay")
    _ = await player.seek(to: .seconds(2))
    let early = try PNGCodec.decode(try player.snapshot(width: 160, height: 120))
    _ = await player.seek(to: .seconds(6))
    let late = try PNGCodec.decode(try player.snapshot(width: 160, height: 120))
    XCTAssertEqual(early.width, 160)
    XCTAssertEqual(early.height, 120)
    XCTAssertEqual(late.width, 160)
    // The burnt-in frame counter is in the top-left corner.
    var differing = 0
    for y in 0..<30 {
      for x in 0..<80 where early.pixel(x: x, y: y) != late.pixel(x: x, y: y) {
        differing += 1
      }
    }
    XCTAssertGreaterThan(differing, 20, "the counter region must change between 2 s and 6 s")
  }

  func testImageSequenceSinkWritesEveryNthFrame() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "playhead-frames-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let sink = try ImageSequenceVideoSink(
      directory: directory, everyNthFrame: 25, width: 64, height: 48)
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    item.forwardPlaybackEndTime = .seconds(2)
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(videoSink: sink))
    defer { player.close() }
    player.play()
    recorder.waitForEnd()
    let files = sink.writtenFiles
    // 2 s at 25 fps are frames 1–50: the frame at exactly 2 s is past the end.
    XCTAssertEqual(files.map(\.lastPathComponent), ["frame-000001.png", "frame-000026.png"])
    let image = try PNGCodec.decode(try Data(contentsOf: files[0]))
    XCTAssertEqual(image.width, 64)
    XCTAssertEqual(image.height, 48)
  }
}
