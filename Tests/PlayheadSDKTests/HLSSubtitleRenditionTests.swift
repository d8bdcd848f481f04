import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// Subtitle and audio renditions of Fixtures/hls-alt served over HTTP, through the
/// sidecar-subtitles provider.
final class HLSSubtitleRenditionTests: XCTestCase {
  private func startServer() throws -> HTTPTestServer {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    addTeardownBlock { server.stop() }
    return server
  }

  func testSubtitleRenditionCuesArriveAtTheirTimes() throws {
    let server = try startServer()
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["en"], mode: .always)
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "alt", url: server.url("/hls-alt/master.m3u8"))])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    let selected = try XCTUnwrap(tracks.selected)
    XCTAssertEqual(selected.id, "hls:subs:English")
    XCTAssertEqual(selected.language, "en")
    XCTAssertEqual(
      selected.source,
      .inManifest(groupID: "subs", name: "English", uri: server.url("/hls-alt/subs-en/index.m3u8"))
    )
    XCTAssertEqual(tracks.cues.map(\.plainText), (0..<10).map { "Second \($0)" })
    for (second, cue) in tracks.cues.enumerated() {
      XCTAssertEqual(cue.start.seconds, Double(second), accuracy: 0.001, "X-TIMESTAMP-MAP applied")
      XCTAssertEqual(cue.end.seconds, Double(second + 1), accuracy: 0.001)
    }
    XCTAssertEqual(tracks.audioOptions.map(\.language), ["en", "fr"])
    XCTAssertEqual(tracks.audioOptions.map(\.isDefault), [true, false])
    XCTAssertEqual(tracks.audioLanguage, "en")
    for segment in 0..<5 {
      XCTAssertEqual(
        server.requestCount(for: "/hls-alt/subs-en/segment00\(segment).vtt"), 1,
        "each segment is fetched once")
    }
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("Second 9 exits at the end") {
      $0.contains { $0.type == "textCueExit" && $0.detail == "Second 9" }
    }
    let enters = text.entries.filter { $0.type == "textCueEnter" }
    XCTAssertEqual(enters.map(\.detail), (0..<10).map { "Second \($0)" })
    for (second, entry) in enters.enumerated() {
      XCTAssertEqual(entry.time.seconds, Double(second), accuracy: 0.25, "\(entry)")
    }
    let exits = text.entries.filter { $0.type == "textCueExit" }
    XCTAssertEqual(
      exits.map(\.detail), (0..<10).map { "Second \($0)" }, "the last cue ends with the video")
  }

  func testSeekingInARenditionAndTheAutomaticRule() throws {
    let server = try startServer()
    // The viewer understands the English audio and there is no forced track: no subtitles.
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["en"], mode: .automatic)
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "alt", url: server.url("/hls-alt/master.m3u8"))])
    text.waitFor(type: "textTrackChanged")
    XCTAssertEqual(text.entries.first?.detail, "none")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertNil(tracks.selected)
    XCTAssertEqual(tracks.options.map(\.id), ["hls:subs:English"])
    XCTAssertEqual(server.requestCount(for: "/hls-alt/subs-en/index.m3u8"), 0, "nothing fetched")
    // Selected by hand, then a seek into the middle: the cue there enters.
    XCTAssertTrue(tracks.select(tracks.options[0]))
    text.waitFor(type: "textTrackLoaded")
    TextTrackTesting.seek(controller, to: 6.5, in: self)
    text.waitFor("Second 6") {
      $0.contains { $0.type == "textCueEnter" && $0.detail == "Second 6" }
    }
    XCTAssertEqual(text.entries.last { $0.type == "textCueEnter" }?.detail, "Second 6")
    TextTrackTesting.seek(controller, to: 2.5, in: self)
    text.waitFor("Second 2") {
      $0.contains { $0.type == "textCueEnter" && $0.detail == "Second 2" }
    }
    XCTAssertEqual(
      Array(text.cueChanges.suffix(2)), ["exit:Second 6", "enter:Second 2"])
  }

  func testAnAudioSwitchMakesTheAutomaticRuleShowSubtitles() throws {
    let server = try startServer()
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["en"], mode: .automatic)
    defer { controller.close() }
    controller.setVideos([SDKTesting.video(id: "alt", url: server.url("/hls-alt/master.m3u8"))])
    text.waitFor(type: "textTrackChanged")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.selectedAudio?.id, "hls:aud:English", "the engine's start choice")
    XCTAssertNil(tracks.selected, "English audio, English viewer: no subtitles")
    let french = try XCTUnwrap(tracks.audioOptions.first { $0.language == "fr" })
    XCTAssertFalse(
      tracks.selectAudio(
        AudioTrackOption(
          id: "stream:9", language: "fr", label: "x", isDefault: false, autoselect: true,
          source: .embedded(streamIndex: 9))), "not one of the options")
    XCTAssertTrue(tracks.selectAudio(french))
    // French audio for an English viewer: the English subtitles are chosen and loaded.
    text.waitFor(type: "textTrackLoaded")
    let names = text.entries.map(\.type)
    let audioChange = try XCTUnwrap(names.firstIndex(of: "audioTrackChanged"), "\(names)")
    XCTAssertLessThan(audioChange, try XCTUnwrap(names.lastIndex(of: "textTrackChanged")))
    XCTAssertEqual(text.entries[audioChange].detail, "hls:aud:Français")
    XCTAssertEqual(tracks.selectedAudio?.id, "hls:aud:Français")
    XCTAssertEqual(tracks.audioLanguage, "fr")
    XCTAssertEqual(tracks.selected?.id, "hls:subs:English")
    XCTAssertEqual(session.playerItem?.selectedAudioRendition?.language, "fr")
    XCTAssertEqual(session.playerItem?.selectedSubtitleRendition?.name, "English")
    // Off by hand: the engine's subtitle rendition is released too.
    let released = expectation(description: "the engine's subtitles off")
    let player = try XCTUnwrap(session.player)
    let token = player.addEventObserver(queue: DispatchQueue(label: "test.released")) { event in
      if case .subtitleRenditionChanged(_, nil) = event.kind { released.fulfill() }
    }
    defer { player.removeEventObserver(token) }
    XCTAssertTrue(tracks.select(nil))
    wait(for: [released], timeout: 60)
    XCTAssertNil(session.playerItem?.selectedSubtitleRendition)
    text.waitFor("off") { $0.last?.type == "textTrackChanged" && $0.last?.detail == "none" }
  }

  func testPreferredAudioLanguagesChooseTheAudioAtStart() throws {
    let server = try startServer()
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["en"], mode: .automatic, audioLanguages: ["fr-CA", "en"])
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "alt", url: server.url("/hls-alt/master.m3u8"))])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(tracks.selectedAudio?.language, "fr", "fr-CA matches fr")
    XCTAssertEqual(
      text.entries.filter { $0.type == "textTrackChanged" }.map(\.detail), ["hls:subs:English"],
      "chosen once, for the French audio")
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(session.playerItem?.selectedAudioRendition?.language, "fr")
  }

  func testAMissingRenditionPlaylistSendsATypedError() throws {
    let server = try startServer()
    server.setFault(.status(404), for: "/hls-alt/subs-en/index.m3u8")
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["en"], mode: .always)
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([SDKTesting.video(id: "alt", url: server.url("/hls-alt/master.m3u8"))])
    text.waitFor(type: "textTrackFailedToLoad")
    let failure = try XCTUnwrap(text.entries.first { $0.type == "textTrackFailedToLoad" })
    XCTAssertEqual(failure.error?.code, .httpStatus)
    XCTAssertEqual(failure.error?.httpStatusCode, 404)
    recorder.waitFor(lifecycle: "end")
    XCTAssertEqual(text.cueChanges, [])
  }
}
