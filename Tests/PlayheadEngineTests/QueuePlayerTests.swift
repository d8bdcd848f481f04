import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadNet
import PlayheadTestSupport
import XCTest

final class QueuePlayerTests: XCTestCase {
  func testThreeItemsPlayBackToBackWithoutAGap() throws {
    let names = ["sample-h264-aac.mp4", "sample-h264-aac.ts", "sample-h264-aac.mp4"]
    let items = try names.map { PlayerItem(url: try Fixtures.url($0)) }
    let (player, recorder) = EventRecorder.recordingQueuePlayer(
      items: items, configuration: .fast())
    defer { player.close() }
    player.play()
    recorder.waitFor(event: "didPlayToEnd", count: 3)
    recorder.waitFor("the queue to empty") { _ in player.currentItem == nil }
    let events = recorder.events
    let ends = events.filter { $0.name == "didPlayToEnd" }
    let firstFrames = events.filter { $0.name == "firstFrame" }
    guard ends.count == 3, firstFrames.count == 3 else {
      return XCTFail("expected 3 ends and 3 first frames: \(recorder.names)")
    }
    for (index, item) in items.enumerated() {
      guard case .didPlayToEnd(let ended) = ends[index].kind else {
        return XCTFail("not an end event")
      }
      XCTAssertTrue(ended === item, "item \(index) ends in order")
    }
    let frameDuration = 0.04
    for index in 0..<2 {
      let gap = (firstFrames[index + 1].clockTime - ends[index].clockTime).seconds
      XCTAssertGreaterThanOrEqual(gap, 0)
      XCTAssertLessThanOrEqual(gap, frameDuration, "gap between item \(index) and \(index + 1)")
    }
    XCTAssertNil(player.currentItem)
    XCTAssertEqual(player.items(), [])
    for item in items {
      XCTAssertEqual(item.statistics.framesDecoded, 250)
    }
  }

  func testInsertRemoveAndAdvance() throws {
    let first = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    let second = PlayerItem(url: try Fixtures.url("sample-audio.mp3"))
    let inserted = PlayerItem(url: try Fixtures.url("sample-vp9-opus.webm"))
    let (player, recorder) = EventRecorder.recordingQueuePlayer(
      items: [first, second], configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    XCTAssertTrue(player.canInsert(inserted, after: first))
    player.insert(inserted, after: first)
    XCTAssertFalse(player.canInsert(first, after: nil))
    player.waitForPostedCommands()
    XCTAssertEqual(player.items(), [first, inserted, second])
    player.remove(second)
    player.advanceToNextItem()
    player.waitForPostedCommands()
    XCTAssertTrue(player.currentItem === inserted)
    XCTAssertEqual(player.items(), [inserted])
    player.play()
    recorder.waitFor(event: "didPlayToEnd")
    recorder.waitFor("the queue to empty") { _ in player.currentItem == nil }
    XCTAssertEqual(player.items(), [])
  }

  func testFailedItemIsSkipped() throws {
    let broken = PlayerItem(url: try Fixtures.url("not-a-video.mp4"))
    let good = PlayerItem(url: try Fixtures.url("sample-audio.mp3"))
    let (player, recorder) = EventRecorder.recordingQueuePlayer(
      items: [broken, good], configuration: .fast())
    defer { player.close() }
    player.play()
    recorder.waitFor(event: "didPlayToEnd")
    XCTAssertEqual(broken.error?.code, .unsupportedFormat)
    XCTAssertEqual(good.status, .readyToPlay)
  }
}
