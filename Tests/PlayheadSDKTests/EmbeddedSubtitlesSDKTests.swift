import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// A file's text subtitle streams through the SDK: listed as `embedded` text options,
/// chosen by the preferences, selected by hand, cues delivered as lifecycle events.
final class EmbeddedSubtitlesSDKTests: XCTestCase {
  func testTheStreamsAreOptionsAndTheirCuesAreDelivered() throws {
    // Always, viewer language fr: the French stream (not the forced English one).
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["fr"], mode: .always)
    defer { controller.close() }
    controller.setVideos([
      SDKTesting.video(id: "mkv", url: try Fixtures.url("dual-subtitles.mkv"))
    ])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.options.map(\.id), ["stream:2", "stream:3", "stream:4"])
    XCTAssertEqual(tracks.options.map(\.label), ["English", "French", "English (forced)"])
    XCTAssertEqual(tracks.options.map(\.isSelectable), [true, true, true])
    XCTAssertEqual(tracks.options.map(\.isForced), [false, false, true])
    XCTAssertEqual(tracks.options[1].source, .embedded(streamIndex: 3))
    XCTAssertEqual(tracks.selected?.id, "stream:3")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    // The text consumer hears the session's events on its own; wait for its last one.
    text.waitFor("the last cue's exit") {
      $0.contains { $0.type == "textCueExit" && $0.detail == "Seconde 5" }
    }
    XCTAssertEqual(
      text.cueChanges,
      (0..<6).flatMap { ["enter:Seconde \($0)", "exit:Seconde \($0)"] })
  }

  func testSelectingAnotherStreamByHand() throws {
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["fr"], mode: .always)
    defer { controller.close() }
    controller.setVideos([
      SDKTesting.video(id: "mkv", url: try Fixtures.url("dual-subtitles.mkv"))
    ])
    text.waitFor(type: "textTrackLoaded")
    let tracks = try XCTUnwrap(recorder.sessions.first?.textTracks)
    XCTAssertTrue(tracks.select(tracks.options[2]))
    text.waitFor("forced loaded") { $0.filter { $0.type == "textTrackLoaded" }.count == 2 }
    XCTAssertEqual(tracks.selected?.id, "stream:4")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("the forced cue's exit") {
      $0.contains { $0.type == "textCueExit" && $0.detail == "Sign" }
    }
    XCTAssertEqual(Array(text.cueChanges.suffix(2)), ["enter:Sign", "exit:Sign"])
  }
}
