import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia
import PlayheadTestSupport
import XCTest

@testable import PlayheadDesktop

/// Subtitles drawn on the window's picture (`WindowSubtitles`, issue 13): a cue's text is
/// in the captured window during the cue and gone outside it. `dual-subtitles.mkv`'s
/// English stream says "Second N" from N.0 to N.9 s.
final class WindowSubtitlesTests: WindowTestCase {
  /// Pixels of the bottom third where the window differs from the bare picture.
  private func drawnPixels(_ window: WindowVideoSink) -> Int {
    guard let shown = window.snapshot(), let bare = window.videoSnapshot() else { return -1 }
    return shown.differingBottomThirdPixels(from: bare)
  }

  func testACue_isOnThePictureDuringItsInterval_andGoneOutside() throws {
    let window = try openWindow(size: nil)
    defer { window.close() }
    var configuration = PlayerConfiguration(videoSink: window)
    configuration.isAudioDisabled = true
    let player = Player(configuration: configuration)
    defer { player.close() }
    let subtitles = try WindowSubtitles(window: window, player: player)
    defer { subtitles.close() }
    let recorder = PlayerEventRecorder(player)
    let item = PlayerItem(url: try Fixtures.url("dual-subtitles.mkv"))
    player.replaceCurrentItem(with: item)
    XCTAssertNotNil(recorder.waitForEvent(named: "readyToPlay"))
    let english = try XCTUnwrap(item.subtitleRenditions.first { $0.name == "English" })
    XCTAssertTrue(item.selectTextTrack(english))

    func seek(_ seconds: Double) {
      let done = expectation(description: "seek to \(seconds)")
      player.seek(to: MediaTime(seconds: seconds, preferredTimescale: 1000)) { _ in done.fulfill() }
      wait(for: [done], timeout: 30)
    }
    seek(2.5)
    poll("the cue drawn over the picture") { drawnPixels(window) > 50 }
    seek(2.95)
    poll("the cue gone in the gap after it") { drawnPixels(window) == 0 }
    seek(3.4)
    poll("the next cue drawn") { drawnPixels(window) > 50 }
  }
}
