import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadTestSupport
import XCTest

/// The sidecar-subtitles provider through the public API, on a fast-mode manual clock.
final class SidecarSubtitlesTests: XCTestCase {
  /// One progress interval: how far a cue event may be from the cue's own time.
  private let tolerance = 0.25

  private func sampleVideo(tracks: [TextTrack]) throws -> Video {
    TextTrackTesting.video(
      SDKTesting.video(id: "a", url: try Fixtures.url("sample-h264-aac.mp4")), tracks: tracks)
  }

  private func englishTrack(_ url: URL, isDefault: Bool = false) -> TextTrack {
    TextTrack(src: url, srclang: "en", label: "English", kind: "subtitles", isDefault: isDefault)
  }

  func testCuesEnterAndExitAtTheirTimesInOrder() throws {
    let vtt = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let (controller, recorder, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    let second = SDKRecorder()
    controller.addSessionConsumer(second)
    controller.setVideos([try sampleVideo(tracks: [englishTrack(vtt)])])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let tracks = try XCTUnwrap(session.textTracks, "the provider attached text tracks")
    XCTAssertEqual(tracks.selected?.id, "sidecar:0")
    XCTAssertEqual(tracks.cues.count, 5)
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("the last enter") { $0.contains { $0.detail == "Nine" } }
    XCTAssertEqual(
      text.cueChanges,
      [
        "enter:One", "enter:Two", "exit:One", "exit:Two", "enter:Short", "exit:Short",
        "enter:Five & six", "exit:Five & six", "enter:Nine",
      ])
    for entry in text.entries where entry.type == "textCueEnter" || entry.type == "textCueExit" {
      let expected = entry.type == "textCueEnter" ? entry.cueStart : entry.cueEnd
      XCTAssertEqual(entry.time.seconds, expected.seconds, accuracy: tolerance, "\(entry)")
      XCTAssertGreaterThanOrEqual(entry.time, expected, "never early: \(entry)")
    }
    let changed = try XCTUnwrap(text.entries.first)
    XCTAssertEqual(changed.type, "textTrackChanged")
    XCTAssertEqual(changed.detail, "sidecar:0")
    XCTAssertEqual(tracks.activeCues.map(\.plainText), ["Nine"], "the last cue outlasts the video")
    // The delegate and every consumer receive the same events in the same order.
    second.waitFor(lifecycle: "end")
    let cueNames = { (entries: [SDKEntry]) in
      entries.filter { $0.kind == "lifecycle" && $0.detail.hasPrefix("text") }
        .map { "\($0.detail)@\($0.time.seconds)" }
    }
    XCTAssertEqual(cueNames(recorder.entries), cueNames(second.entries))
    XCTAssertEqual(cueNames(recorder.entries).count, text.entries.count)
  }

  func testSeeksResynchroniseTheActiveCues() throws {
    let vtt = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let (controller, recorder, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    controller.setVideos([try sampleVideo(tracks: [englishTrack(vtt)])])
    recorder.waitFor(lifecycle: "ready")
    text.waitFor(type: "textTrackLoaded")
    XCTAssertEqual(text.cueChanges, [], "no cue is active at 0")
    // Forward into the middle of a cue: it enters at the landing time.
    TextTrackTesting.seek(controller, to: 5.5, in: self)
    text.waitFor("enter after the forward seek") { $0.contains { $0.type == "textCueEnter" } }
    XCTAssertEqual(text.cueChanges, ["enter:Five & six"])
    let enter = try XCTUnwrap(text.entries.last)
    XCTAssertEqual(enter.time.seconds, 5.5, accuracy: 0.1)
    // Back to where two cues overlap: the old cue exits first, then both enter.
    TextTrackTesting.seek(controller, to: 1.2, in: self)
    text.waitFor("enters after the backward seek") {
      $0.filter { $0.type == "textCueEnter" }.count == 3
    }
    XCTAssertEqual(
      text.cueChanges, ["enter:Five & six", "exit:Five & six", "enter:One", "enter:Two"])
    let session = try XCTUnwrap(recorder.sessions.first)
    XCTAssertEqual(session.textTracks?.activeCues.map(\.plainText), ["One", "Two"])
    // Past them, to a time without cues: both exit, nothing enters.
    TextTrackTesting.seek(controller, to: 8, in: self)
    text.waitFor("exits") { $0.filter { $0.type == "textCueExit" }.count == 3 }
    XCTAssertEqual(Array(text.cueChanges.suffix(2)), ["exit:One", "exit:Two"])
    // Playing on from 8 s: the last cue enters at 9 s.
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("Nine") { $0.contains { $0.detail == "Nine" } }
    XCTAssertEqual(text.cueChanges.last, "enter:Nine")
    let nine = try XCTUnwrap(text.entries.last { $0.detail == "Nine" })
    XCTAssertEqual(nine.time.seconds, 9, accuracy: tolerance)
    XCTAssertFalse(text.cueChanges.contains("enter:Short"), "a cue jumped over never enters")
  }

  func testMissingAndGarbageFilesSendATypedErrorAndPlaybackGoesOn() throws {
    let garbage = try TextTrackTesting.writeVTT("1\n00:00:01,000 --> 00:00:02,000\nSRT\n", in: self)
    let missing = URL(fileURLWithPath: "/nonexistent/playhead/subs.vtt")
    for (url, code) in [(missing, PlayheadError.Code.fileNotFound), (garbage, .unsupportedFormat)] {
      let (controller, recorder, text) = TextTrackTesting.makeController()
      controller.autoPlay = true
      controller.setVideos([try sampleVideo(tracks: [englishTrack(url)])])
      text.waitFor(type: "textTrackFailedToLoad")
      recorder.waitFor(lifecycle: "end")
      let failure = try XCTUnwrap(text.entries.first { $0.type == "textTrackFailedToLoad" })
      XCTAssertEqual(failure.error?.code, code, "\(url)")
      XCTAssertEqual(failure.detail, "sidecar:0")
      XCTAssertEqual(text.cueChanges, [])
      XCTAssertFalse(recorder.lifecycle().contains("fail"), "the video itself plays")
      XCTAssertEqual(recorder.sessions.first?.textTracks?.selected?.id, "sidecar:0")
      controller.close()
    }
  }

  func testNetworkContentNeverLoadsAFileTrack() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let vtt = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let (controller, _, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    let video = TextTrackTesting.video(
      SDKTesting.video(id: "net", url: server.url("/sample-h264-aac.mp4")),
      tracks: [englishTrack(vtt)])
    controller.setVideos([video])
    text.waitFor(type: "textTrackFailedToLoad")
    XCTAssertEqual(text.entries.last?.error?.code, .unsupportedScheme)
  }

  func testSelectionByHandAndTheListedKinds() throws {
    let english = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let french = try TextTrackTesting.writeVTT(
      "WEBVTT\n\n00:00.000 --> 00:04.000\nBonjour\n", in: self, name: "fr.vtt")
    let tracks = [
      TextTrack(src: english, srclang: "en", label: "English", kind: "captions"),
      TextTrack(src: french, srclang: "fr", label: "Français", kind: "subtitles", isDefault: true),
      TextTrack(src: english, srclang: "en", label: "Chapters", kind: "chapters"),
      TextTrack(src: english, srclang: "en", kind: "metadata"),
    ]
    // Automatic, viewer language de, audio unknown: understood → no forced → the default.
    let (controller, recorder, text) = TextTrackTesting.makeController(
      languages: ["de"], mode: .automatic)
    defer { controller.close() }
    controller.setVideos([try sampleVideo(tracks: tracks)])
    text.waitFor(type: "textTrackLoaded")
    let session = try XCTUnwrap(recorder.sessions.first)
    let controllerTracks = try XCTUnwrap(session.textTracks)
    XCTAssertEqual(
      controllerTracks.options.map(\.id), ["sidecar:0", "sidecar:1", "sidecar:2", "sidecar:3"])
    XCTAssertEqual(controllerTracks.options.map(\.isSelectable), [true, true, false, false])
    XCTAssertEqual(
      controllerTracks.options.map(\.kind), [.captions, .subtitles, .chapters, .metadata])
    XCTAssertEqual(controllerTracks.selected?.language, "fr")
    XCTAssertEqual(text.cueChanges, ["enter:Bonjour"], "the cue at 0 is active at once")
    XCTAssertEqual(
      controllerTracks.audioOptions.map(\.id), ["stream:1"], "the file's audio stream")
    // Chapters cannot be selected; nothing changes.
    XCTAssertFalse(controllerTracks.select(controllerTracks.options[2]))
    XCTAssertEqual(controllerTracks.selected?.id, "sidecar:1")
    // Off: the active cue exits.
    XCTAssertTrue(controllerTracks.select(nil))
    XCTAssertNil(controllerTracks.selected)
    text.waitFor("off") { $0.filter { $0.type == "textTrackChanged" }.count == 2 }
    XCTAssertEqual(text.cueChanges, ["enter:Bonjour", "exit:Bonjour"])
    XCTAssertEqual(text.entries.last?.detail, "none")
    // English by hand, then play: its cues arrive at their times.
    XCTAssertTrue(controllerTracks.select(controllerTracks.options[0]))
    text.waitFor("English loaded") { $0.filter { $0.type == "textTrackLoaded" }.count == 2 }
    controller.play()
    recorder.waitFor(lifecycle: "end")
    text.waitFor("Nine") { $0.contains { $0.detail == "Nine" } }
    XCTAssertEqual(
      Array(text.cueChanges.prefix(4)), ["enter:Bonjour", "exit:Bonjour", "enter:One", "enter:Two"])
  }

  /// In fast mode a track file that arrives slowly (about 2 s of real time, in which a
  /// fast player would play the whole 10 s video) holds the start: the first cue still
  /// enters at its own time, after the track has loaded.
  func testFastMode_aSlowTrackFile_holdsTheStartUntilItsCuesAreIn() throws {
    let server = HTTPTestServer(
      files: ["/subs.vtt": Data(TextTrackTesting.sampleVTT.utf8)],
      faults: ["/subs.vtt": .slow(bytesPerSecond: 120)])
    try server.start()
    defer { server.stop() }
    let (controller, recorder, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([try sampleVideo(tracks: [englishTrack(server.url("/subs.vtt"))])])
    recorder.waitFor(lifecycle: "end")
    text.waitFor("One") { $0.contains { $0.detail == "One" } }
    let entries = text.entries
    let loaded = try XCTUnwrap(entries.firstIndex { $0.type == "textTrackLoaded" })
    let one = try XCTUnwrap(entries.firstIndex { $0.type == "textCueEnter" && $0.detail == "One" })
    XCTAssertLessThan(loaded, one, "\(entries)")
    XCTAssertEqual(entries[one].time.seconds, 0.5, accuracy: 0.05, "\(entries)")
  }

  func testTheProviderStacksOnAnotherProvider() throws {
    let vtt = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let plugin = SDKRecorder()
    let (controller, recorder, text) = TextTrackTesting.makeController(
      upstream: CuePointAddingProvider(plugin: plugin))
    defer { controller.close() }
    controller.autoPlay = true
    controller.setVideos([try sampleVideo(tracks: [englishTrack(vtt)])])
    recorder.waitFor(lifecycle: "end")
    text.waitFor("One") { $0.contains { $0.detail == "One" } }
    XCTAssertEqual(recorder.entries.filter { $0.kind == "cuePoints" }.map(\.detail), ["added"])
    plugin.waitFor(lifecycle: "textCueEnter")
    XCTAssertNotNil(recorder.sessions.first?.textTracks)
  }

  func testAnalyticsLinesCarryTheCue() throws {
    let vtt = try TextTrackTesting.writeVTT(TextTrackTesting.sampleVTT, in: self)
    let (controller, recorder, text) = TextTrackTesting.makeController()
    defer { controller.close() }
    let analytics = JSONLinesAnalyticsConsumer { _ in }
    controller.addSessionConsumer(analytics)
    controller.autoPlay = true
    controller.setVideos([try sampleVideo(tracks: [englishTrack(vtt)])])
    recorder.waitFor(lifecycle: "end")
    text.waitFor("One") { $0.contains { $0.detail == "One" } }
    let line = try XCTUnwrap(analytics.lines.first { $0.event == "textCueEnter" })
    XCTAssertEqual(line["plainText"], .string("One"))
    XCTAssertEqual(line["identifier"], .string("one"))
    XCTAssertEqual(line["start"], .number(0.5))
    XCTAssertEqual(line["end"], .number(1.5))
    XCTAssertEqual(line["language"], .string("en"))
    XCTAssertEqual(line["track"], .string("sidecar:0"))
  }
}
