import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import PlayheadText
import XCTest

/// The engine's text renderer through the public API: sidecar tracks and subtitle
/// renditions, cue enters and exits at their item times, seeks, track changes,
/// containment and bad files.
final class TextRendererTests: XCTestCase {
  static let sampleVTT = """
    WEBVTT

    00:00.500 --> 00:01.500
    One

    00:01.000 --> 00:02.000
    Two

    00:03.000 --> 00:03.100
    Short

    00:05.000 --> 00:07.000
    Five

    00:09.000 --> 00:12.000
    Nine
    """

  private func writeVTT(_ text: String, name: String = "subs.vtt") throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-text-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file
  }

  /// A player on `configuration` and its item for `url`, made before the player so that
  /// its text track can be chosen before it opens.
  private func makePlayer(
    _ url: URL, _ configuration: PlayerConfiguration = .fast(),
    prepare: (PlayerItem) -> Void = { _ in }
  ) -> (Player, PlayerItem, EventRecorder) {
    let item = PlayerItem(url: url)
    prepare(item)
    let (player, recorder) = EventRecorder.recordingPlayer(item, configuration: configuration)
    return (player, item, recorder)
  }

  /// The text events seen so far as `enter:text@seconds` / `exit:text@seconds`.
  private func cueChanges(_ recorder: EventRecorder) -> [String] {
    recorder.events.compactMap { event in
      switch event.kind {
      case .textCueEntered(_, let cue):
        return "enter:\(cue.cue.plainText)@\(event.itemTime.seconds)"
      case .textCueExited(_, let cue): return "exit:\(cue.cue.plainText)@\(event.itemTime.seconds)"
      default: return nil
      }
    }
  }

  /// The cue events with the times they fired at and the cue's own times.
  private func timedChanges(_ recorder: EventRecorder) -> [(
    enter: Bool, time: MediaTime, cue: TimedTextCue
  )] {
    recorder.events.compactMap { event in
      switch event.kind {
      case .textCueEntered(_, let cue): return (true, event.itemTime, cue)
      case .textCueExited(_, let cue): return (false, event.itemTime, cue)
      default: return nil
      }
    }
  }

  /// On the fast mode's `ManualClock`, time jumps from deadline to deadline: the cue
  /// boundaries are among them, so every enter and exit falls at its exact item time
  /// (none of these is a frame time of the 25 fps video).
  func testFastMode_sidecarCuesEnterAndExitAtTheirExactItemTimes() throws {
    let vtt = try writeVTT(Self.sampleVTT)
    let item = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    let track = item.addSidecarTextTrack(url: vtt, language: "en", label: "English")
    XCTAssertEqual(item.sidecarTextTracks, [track])
    XCTAssertTrue(track.isSidecarTextTrack)
    XCTAssertEqual(item.addSidecarTextTrack(url: vtt, language: "en", label: "English"), track)
    XCTAssertTrue(item.selectTextTrack(track), "before the item is a player's")
    let player = Player(configuration: .fast())
    defer { player.close() }
    let recorder = EventRecorder(player)
    player.replaceCurrentItem(with: item)
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(item.selectedTextTrack, track)
    XCTAssertEqual(
      cueChanges(recorder),
      [
        "enter:One@0.5", "enter:Two@1.0", "exit:One@1.5", "exit:Two@2.0", "enter:Short@3.0",
        "exit:Short@3.1", "enter:Five@5.0", "exit:Five@7.0", "enter:Nine@9.0",
      ])
    for change in timedChanges(recorder) {
      XCTAssertEqual(change.time, change.enter ? change.cue.start : change.cue.end, "exact")
      XCTAssertEqual(change.cue.track, track)
    }
    XCTAssertEqual(item.textCues.count, 5)
    XCTAssertEqual(item.activeTextCues.map(\.cue.plainText), ["Nine"], "it outlasts the video")
    let loaded = try XCTUnwrap(recorder.events.firstIndex { $0.name == "textTrackLoaded" })
    let first = try XCTUnwrap(recorder.events.firstIndex { $0.name == "textCueEntered" })
    XCTAssertLessThan(loaded, first, "the start waited for the cues")
  }

  func testSeeksExitWhatIsNoLongerActiveAndEnterWhatIs() throws {
    let vtt = try writeVTT(Self.sampleVTT)
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("sample-h264-aac.mp4"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    XCTAssertTrue(item.selectTextTrack(item.addSidecarTextTrack(url: vtt, language: "en")))
    recorder.waitFor(event: "textTrackLoaded")
    XCTAssertEqual(cueChanges(recorder), [], "nothing is active at 0")
    player.seek(to: .seconds(5.5))
    recorder.waitFor(event: "textCueEntered")
    XCTAssertEqual(cueChanges(recorder), ["enter:Five@5.5"])
    player.seek(to: .seconds(1.2))
    recorder.waitFor(event: "textCueEntered", count: 3)
    XCTAssertEqual(
      cueChanges(recorder), ["enter:Five@5.5", "exit:Five@1.2", "enter:One@1.2", "enter:Two@1.2"])
    XCTAssertEqual(item.activeTextCues.map(\.cue.plainText), ["One", "Two"])
    player.seek(to: .seconds(8))
    recorder.waitFor(event: "textCueExited", count: 3)
    player.play()
    recorder.waitForEnd()
    XCTAssertEqual(
      Array(cueChanges(recorder).suffix(3)), ["exit:One@8.0", "exit:Two@8.0", "enter:Nine@9.0"])
    XCTAssertFalse(cueChanges(recorder).contains { $0.hasPrefix("enter:Short") }, "jumped over")
  }

  func testSwitchingBetweenARenditionAndASidecarTrack() throws {
    let french = try writeVTT("WEBVTT\n\n00:00.000 --> 00:30.000\nBonjour\n", name: "fr.vtt")
    let (player, recorder) = EventRecorder.recordingPlayer(
      url: try Fixtures.url("hls-alt/master.m3u8"), configuration: .fast())
    defer { player.close() }
    recorder.waitFor(event: "readyToPlay")
    let item = try XCTUnwrap(player.currentItem)
    let english = try XCTUnwrap(item.subtitleRenditions.first)
    player.seek(to: .seconds(3.5))
    recorder.waitFor(event: "seekCompleted")
    XCTAssertTrue(item.selectTextTrack(english))
    recorder.waitFor(event: "textTrackLoaded")
    XCTAssertEqual(cueChanges(recorder), ["enter:Second 3@3.5"], "X-TIMESTAMP-MAP applied")
    XCTAssertEqual(item.selectedSubtitleRendition, english)
    XCTAssertEqual(
      item.textCues.map { $0.start.seconds }, (0..<10).map(Double.init), "on the item timeline")
    // The sidecar track replaces the rendition: its cue exits, the new one enters, and
    // the engine's subtitle rendition is released.
    let sidecar = item.addSidecarTextTrack(url: french, language: "fr", label: "Français")
    XCTAssertTrue(item.selectTextTrack(sidecar))
    recorder.waitFor(event: "textTrackLoaded", count: 2)
    recorder.waitFor(event: "subtitleRenditionChanged", count: 2)
    XCTAssertNil(item.selectedSubtitleRendition)
    XCTAssertEqual(
      cueChanges(recorder), ["enter:Second 3@3.5", "exit:Second 3@3.5", "enter:Bonjour@3.5"])
    // And back: the rendition's cue at the position enters again.
    XCTAssertTrue(item.selectTextTrack(english))
    recorder.waitFor(event: "textTrackLoaded", count: 3)
    XCTAssertEqual(
      Array(cueChanges(recorder).suffix(2)), ["exit:Bonjour@3.5", "enter:Second 3@3.5"])
    XCTAssertTrue(item.selectTextTrack(nil))
    recorder.waitFor(event: "textCueExited", count: 3)
    XCTAssertEqual(cueChanges(recorder).last, "exit:Second 3@3.5")
    XCTAssertNil(item.selectedTextTrack)
    XCTAssertEqual(item.activeTextCues, [])
  }

  func testNetworkMediaNeverReadsALocalSidecarFile() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let vtt = try writeVTT(Self.sampleVTT)
    let (player, _, recorder) = makePlayer(server.url("/sample-h264-aac.mp4")) { item in
      item.selectTextTrack(item.addSidecarTextTrack(url: vtt, language: "en"))
    }
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd", "the video plays")
    let failure = try XCTUnwrap(recorder.events.first { $0.name == "textTrackFailed" })
    XCTAssertEqual(failure.error?.code, .unsupportedScheme)
    XCTAssertEqual(cueChanges(recorder), [])
    XCTAssertFalse(recorder.names.contains("textTrackLoaded"))
  }

  func testMalformedWebVTTGivesATypedErrorAndPlaybackGoesOn() throws {
    let garbage = try writeVTT("1\n00:00:01,000 --> 00:00:02,000\nSRT\n")
    var track: RenditionInfo?
    let (player, item, recorder) = makePlayer(try Fixtures.url("sample-h264-aac.mp4")) { item in
      track = item.addSidecarTextTrack(url: garbage, language: "en")
      item.selectTextTrack(track)
    }
    defer { player.close() }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let failure = try XCTUnwrap(recorder.events.first { $0.name == "textTrackFailed" })
    XCTAssertEqual(failure.error?.code, .unsupportedFormat)
    guard case .textTrackFailed(_, let failed, _) = failure.kind else {
      return XCTFail("\(failure.kind)")
    }
    XCTAssertEqual(failed, try XCTUnwrap(track))
    XCTAssertEqual(cueChanges(recorder), [])
    XCTAssertEqual(item.selectedTextTrack, track, "the track stays selected")
  }

  func testFastMode_aSlowSidecarFileHoldsTheStartUntilItsCuesAreIn() throws {
    let server = HTTPTestServer(
      files: ["/subs.vtt": Data(Self.sampleVTT.utf8)],
      faults: ["/subs.vtt": .slow(bytesPerSecond: 200)])
    try server.start()
    defer { server.stop() }
    let (player, _, recorder) = makePlayer(try Fixtures.url("sample-h264-aac.mp4")) { item in
      item.selectTextTrack(item.addSidecarTextTrack(url: server.url("/subs.vtt"), language: "en"))
    }
    defer { player.close() }
    player.play()
    recorder.waitForEnd()
    XCTAssertEqual(cueChanges(recorder).first, "enter:One@0.5")
    let loaded = try XCTUnwrap(recorder.events.firstIndex { $0.name == "textTrackLoaded" })
    let playing = try XCTUnwrap(recorder.events.firstIndex { $0.name == "playing" })
    XCTAssertLessThan(loaded, playing, "playback started once the cues were in")
  }

  func testSelectionsTheItemRefuses() throws {
    let (player, item, _) = makePlayer(try Fixtures.url("sample-h264-aac.mp4"))
    defer { player.close() }
    let stranger = RenditionInfo(
      type: "subtitles", groupID: "subs", name: "English", language: "en", isDefault: false,
      autoselect: true, forced: false, uri: "https://example.invalid/subs.m3u8")
    XCTAssertFalse(item.selectTextTrack(stranger), "not one of the item's")
    let loose = PlayerItem(url: try Fixtures.url("sample-h264-aac.mp4"))
    let track = loose.addSidecarTextTrack(url: URL(fileURLWithPath: "/tmp/x.vtt"), language: nil)
    XCTAssertEqual(track.name, "Subtitles 1")
    XCTAssertFalse(item.selectTextTrack(track), "another item's track")
    XCTAssertNil(item.selectedTextTrack)
  }
}
