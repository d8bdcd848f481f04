import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Cues that share their times and text but differ in settings, region or identifier are
/// separate cues all the way to the consumer; only a cue repeated exactly is one cue.
final class PositionedCueDeliveryTests: XCTestCase {
  /// Four slots of four cues each with the same text: plain, positioned, in a region, with
  /// an identifier; plus one exact repeat of the first cue, which is the same cue.
  static let positionedVTT: String = {
    var text = "WEBVTT\n\nREGION\nid:top\nwidth:40%\nlines:2\n\n"
    let slots = [
      "00:00.500 --> 00:01.500", "00:02.000 --> 00:03.000", "00:03.500 --> 00:04.500",
      "00:05.000 --> 00:06.000",
    ]
    for (index, timing) in slots.enumerated() {
      let caption = "Slot \(index + 1)"
      text += "\(timing)\n\(caption)\n\n"
      text += "\(timing) line:10% align:start\n\(caption)\n\n"
      text += "\(timing) region:top\n\(caption)\n\n"
      text += "named-\(index)\n\(timing)\n\(caption)\n\n"
    }
    text += "00:00.500 --> 00:01.500\nSlot 1\n"
    return text
  }()

  func testSixteenPositionedCues_areSixteenCuesToTheConsumer() throws {
    let vtt = try TextTrackTesting.writeVTT(Self.positionedVTT, in: self)
    let (controller, recorder, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    let video = TextTrackTesting.video(
      SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4")),
      tracks: [
        TextTrack(src: vtt, srclang: "en", label: "English", kind: "subtitles", isDefault: true)
      ])
    controller.setVideos([video])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.cues.count, 16, "the exact repeat is dropped, the rest kept")
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("the last slot's exits") { entries in
      entries.filter { $0.type == "textCueExit" }.count == 16
    }
    let enters = text.entries.filter { $0.type == "textCueEnter" }
    XCTAssertEqual(enters.count, 16)
    for slot in 1...4 {
      XCTAssertEqual(enters.filter { $0.detail == "Slot \(slot)" }.count, 4, "slot \(slot)")
    }
    let settings = Set(tracks.cues.map { String(describing: $0.cue.settings) })
    XCTAssertEqual(settings.count, 3, "plain, positioned and region cues keep their settings")
    XCTAssertEqual(tracks.cues.filter { $0.cue.identifier.hasPrefix("named-") }.count, 4)
  }
}
