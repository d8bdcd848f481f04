import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import PlayheadText
import XCTest

/// DASH text sets in fragmented MP4 (Fixtures/dash-text: a `wvtt` set and an `stpp` set with
/// a presentationTimeOffset of 100 s, over dash-vod's media) are subtitle renditions whose
/// cues land at their item times.
final class DASHFragmentedTextTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  /// Plays the fixture to its end with the rendition named `name` selected; the item.
  private func play(selecting name: String, server: HTTPTestServer) throws -> PlayerItem {
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dash-text/manifest.mpd"), configuration: .fast())
    addTeardownBlock { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let rendition = try XCTUnwrap(item.subtitleRenditions.first { $0.name == name })
    XCTAssertTrue(item.selectSubtitleRendition(rendition))
    recorder.waitFor(event: "subtitleRenditionChanged")
    player.play()
    let end = recorder.waitForEnd()
    XCTAssertEqual(end?.name, "didPlayToEnd", "\(String(describing: end?.error))")
    XCTAssertFalse(recorder.names.contains("textTrackFailed"), "\(recorder.names)")
    return item
  }

  /// The plain text of the cues active at `seconds` (item time).
  private func texts(_ item: PlayerItem, at seconds: Double) -> [String] {
    let time = MediaTime(seconds: seconds, preferredTimescale: 1000)
    return item.textCues.filter { $0.start <= time && time < $0.end }.map(\.cue.plainText)
  }

  func testTextSetsAreSubtitleRenditions() throws {
    let server = try startServer()
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: server.url("/dash-text/manifest.mpd"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertEqual(item.subtitleRenditions.map(\.name), ["English (wvtt)", "Français (TTML)"])
    XCTAssertEqual(item.subtitleRenditions.map(\.language), ["en", "fr"])
    let english = try XCTUnwrap(item.subtitleRenditions.first)
    XCTAssertTrue(item.selectSubtitleRendition(english))
    recorder.waitFor(event: "subtitleRenditionChanged")
    let list = try XCTUnwrap(item.subtitleSegments)
    XCTAssertEqual(list.segments.map(\.url.lastPathComponent), (1...5).map { "wvtt-\($0).m4s" })
    XCTAssertTrue(list.segments.allSatisfy { $0.format == .fragmentedMP4 })
    XCTAssertEqual(
      list.segments.first?.initialization?.url.lastPathComponent, "init-wvtt.mp4")
    XCTAssertEqual(list.segments.last?.timeRange.start.seconds ?? -1, 8, accuracy: 0.001)
  }

  func testWebVTTInMP4CuesAreAtTheirItemTimes() throws {
    let server = try startServer()
    let item = try play(selecting: "English (wvtt)", server: server)
    XCTAssertEqual(texts(item, at: 0.4), [])
    XCTAssertEqual(texts(item, at: 1.0), ["Hello"])
    XCTAssertEqual(texts(item, at: 2.5), ["Line one\nLine two"])
    XCTAssertEqual(texts(item, at: 3.5), ["Line one\nLine two", "Also"])
    XCTAssertEqual(texts(item, at: 5.7), ["Across"])
    XCTAssertEqual(texts(item, at: 6.2), ["Across"], "continued in the next segment")
    XCTAssertEqual(texts(item, at: 9.0), ["Last words"])
    let styled = try XCTUnwrap(item.textCues.first { $0.cue.identifier == "c2" })
    XCTAssertEqual(styled.cue.settings.align, .start)
    XCTAssertEqual(styled.start.seconds, 2.2, accuracy: 0.0001)
    XCTAssertEqual(styled.end.seconds, 3.8, accuracy: 0.0001)
    XCTAssertTrue(
      server.requests.contains { $0.path == "/dash-text/init-wvtt.mp4" },
      "the initialization section was fetched")
  }

  func testTTMLInMP4CuesAreAtTheirItemTimes() throws {
    let server = try startServer()
    let item = try play(selecting: "Français (TTML)", server: server)
    // The media timeline starts at 100 s (presentationTimeOffset); item time 0 is there.
    XCTAssertEqual(texts(item, at: 0.2), [])
    XCTAssertEqual(texts(item, at: 1.0), ["Bonjour"])
    XCTAssertEqual(texts(item, at: 3.0), ["Ligne un\nligne deux"])
    XCTAssertEqual(texts(item, at: 5.7), ["À cheval"])
    XCTAssertEqual(texts(item, at: 6.2), ["À cheval"], "a sample-relative document")
    XCTAssertEqual(texts(item, at: 7.0), ["Durée"])
    XCTAssertEqual(texts(item, at: 9.0), ["Fin & merci"])
    let first = try XCTUnwrap(item.textCues.first)
    XCTAssertEqual(first.start.seconds, 0.5, accuracy: 0.0001)
    XCTAssertEqual(first.end.seconds, 1.5, accuracy: 0.0001)
  }
}
