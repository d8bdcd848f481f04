import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import XCTest

/// The preview limit (SPEC S3, seed 003's `setPreviewTime`): only the first N seconds
/// play, the item ends with `previewEnded`, and seeks past N go to N.
final class PreviewTests: XCTestCase {
  private func play(
    _ url: URL, preview: MediaTime, seekTo seek: MediaTime? = nil
  ) async throws -> (Player, EventRecorder, RecordingVideoSink) {
    let sink = RecordingVideoSink()
    let item = PlayerItem(url: url)
    item.previewDuration = preview
    let (player, recorder) = EventRecorder.recordingPlayer(
      item, configuration: .fast(videoSink: sink))
    addTeardownBlock { player.close() }
    if let seek {
      _ = recorder.waitFor(event: "readyToPlay")
      let finished = await player.seek(to: seek)
      XCTAssertTrue(finished)
    }
    player.play()
    recorder.waitForEnd()
    return (player, recorder, sink)
  }

  func testProgressive_endsAtThePreview_withPreviewEnded() async throws {
    let (player, recorder, sink) = try await play(
      try Fixtures.url("sample-h264-aac.mp4"), preview: .seconds(3))
    XCTAssertEqual(recorder.names.filter { $0 == "previewEnded" }.count, 1, "\(recorder.names)")
    XCTAssertFalse(recorder.names.contains("didPlayToEnd"))
    XCTAssertEqual(player.currentTime(), .seconds(3))
    XCTAssertEqual(sink.presentedTimes.count, 75, "3 s at 25 fps")
    XCTAssertLessThan(sink.presentedTimes.last ?? .zero, .seconds(3))
  }

  func testHLS_endsAtThePreview_showingExactlyTheFramesBeforeIt() async throws {
    let url = try Fixtures.url("hls/master.m3u8")
    let (_, _, whole) = try await play(url, preview: .invalid)
    let (player, recorder, sink) = try await play(url, preview: .seconds(5))
    XCTAssertTrue(recorder.names.contains("previewEnded"), "\(recorder.names)")
    XCTAssertEqual(player.currentTime().seconds, 5, accuracy: 1e-6)
    XCTAssertEqual(sink.presentedTimes, whole.presentedTimes.filter { $0 < .seconds(5) })
    XCTAssertGreaterThan(sink.presentedTimes.count, 120)
  }

  func testASeekPastThePreview_goesToIt_andEnds() async throws {
    let (player, recorder, _) = try await play(
      try Fixtures.url("sample-h264-aac.mp4"), preview: .seconds(2), seekTo: .seconds(8))
    XCTAssertTrue(recorder.names.contains("previewEnded"), "\(recorder.names)")
    XCTAssertEqual(player.currentTime(), .seconds(2))
  }

  func testAPreviewPastTheEnd_playsTheWholeItem() async throws {
    let (_, recorder, sink) = try await play(
      try Fixtures.url("sample-h264-aac.mp4"), preview: .seconds(60))
    XCTAssertTrue(recorder.names.contains("didPlayToEnd"))
    XCTAssertFalse(recorder.names.contains("previewEnded"))
    XCTAssertEqual(sink.presentedTimes.count, 250)
  }
}
