import Foundation
import PlayheadCore
import PlayheadTestSupport
import PlayheadText
import XCTest

/// `MP4TextParser` on the DASH text fixtures (Fixtures/dash-text, written box by box by
/// scripts/make-dash-text-fixtures.py): `wvtt` and `stpp` segments give their cues at their
/// media times.
final class MP4TextParserTests: XCTestCase {
  private func bytes(_ name: String) throws -> Data {
    try Data(contentsOf: try Fixtures.url("dash-text/\(name)"))
  }

  /// `start-end text` per cue, times in seconds.
  private func summary(_ segment: MP4TextSegment) -> [String] {
    segment.cues.map { "\($0.start.seconds)-\($0.end.seconds) \($0.plainText)" }
  }

  func testWebVTTInitializationGivesTheTrack() throws {
    let track = try MP4TextTrack.parse(try bytes("init-wvtt.mp4"))
    XCTAssertEqual(track.format, .webVTT)
    XCTAssertEqual(track.timescale, 1000)
    XCTAssertEqual(track.trackID, 1)
    XCTAssertEqual(try MP4TextTrack.parse(try bytes("init-stpp.mp4")).format, .ttml)
  }

  func testWebVTTSamplesAreCuesAndRepeatedOnesJoin() throws {
    let initialization = try bytes("init-wvtt.mp4")
    let first = try MP4TextParser.parse(
      initialization: initialization, segment: try bytes("wvtt-1.m4s"))
    XCTAssertEqual(first.format, .webVTT)
    XCTAssertEqual(first.startTime, MediaTime(value: 0, timescale: 1000))
    XCTAssertEqual(first.endTime, MediaTime(value: 2000, timescale: 1000))
    XCTAssertEqual(summary(first), ["0.5-1.5 Hello"])
    let second = try MP4TextParser.parse(
      initialization: initialization, segment: try bytes("wvtt-2.m4s"))
    XCTAssertEqual(summary(second), ["2.2-3.8 Line one\nLine two", "3.0-3.8 Also"])
    let cue = try XCTUnwrap(second.cues.first)
    XCTAssertEqual(cue.identifier, "c2")
    XCTAssertEqual(cue.settings.align, .start)
    XCTAssertEqual(cue.settings.line?.position, .percentage(10))
    XCTAssertEqual(second.cues.last?.text, "<i>Also</i>", "the payload as written")
    let third = try MP4TextParser.parse(
      initialization: initialization, segment: try bytes("wvtt-3.m4s"))
    XCTAssertEqual(summary(third), ["5.5-6.0 Across"])
    XCTAssertEqual(third.startTime?.seconds, 4)
  }

  func testTTMLParagraphsInEveryTimeForm() throws {
    let track = try MP4TextTrack.parse(try bytes("init-stpp.mp4"))
    func cues(_ number: Int) throws -> [String] {
      summary(try MP4TextParser.parse(segment: try bytes("stpp-\(number).m4s"), track: track))
    }
    // Times on the media timeline (presentationTimeOffset 100 s).
    XCTAssertEqual(try cues(1), ["100.5-101.5 Bonjour"], "clock time")
    XCTAssertEqual(try cues(2), ["102.2-103.8 Ligne un\nligne deux"], "offsets, <br/>, a span")
    XCTAssertEqual(try cues(3), ["105.5-106.0 À cheval"], "ticks, cut at the sample's end")
    XCTAssertEqual(
      try cues(4), ["106.0-106.5 À cheval", "106.75-107.75 Durée"],
      "times relative to the sample, dur")
    let last = try MP4TextParser.parse(segment: try bytes("stpp-5.m4s"), track: track)
    XCTAssertEqual(summary(last), ["108.25-109.75 Fin & merci"])
    XCTAssertEqual(last.cues.first?.text, "Fin &amp; merci", "escaped as a WebVTT payload")
    XCTAssertEqual(last.startTime?.seconds, 108)
  }
}
