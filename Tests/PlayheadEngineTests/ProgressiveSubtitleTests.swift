import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadTestSupport
import PlayheadText
import XCTest

/// The text subtitle streams of a file (`dual-subtitles.mkv`: SubRip English, ASS French)
/// listed as subtitle renditions, read along with the media and rendered by the text
/// renderer; switching between them during playback.
final class ProgressiveSubtitleTests: XCTestCase {
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

  private func readyPlayer(_ url: URL) throws -> (Player, PlayerItem, EventRecorder) {
    let (player, recorder) = EventRecorder.recordingPlayer(url: url, configuration: .fast())
    recorder.waitFor(event: "readyToPlay")
    return (player, try XCTUnwrap(player.currentItem), recorder)
  }

  func testTheStreamsAreListedAsSubtitleRenditions() throws {
    let (player, item, _) = try readyPlayer(try Fixtures.url("dual-subtitles.mkv"))
    defer { player.close() }
    let renditions = item.subtitleRenditions
    XCTAssertEqual(renditions.map(\.name), ["English", "French", "English (forced)"])
    XCTAssertEqual(renditions.map(\.language), ["eng", "fra", "eng"])
    XCTAssertEqual(renditions.map(\.streamIndex), [2, 3, 4])
    XCTAssertEqual(renditions.map(\.isDefault), [true, false, false])
    XCTAssertEqual(renditions.map(\.forced), [false, false, true])
    XCTAssertEqual(renditions.map(\.type), ["subtitles", "subtitles", "subtitles"])
    XCTAssertEqual(renditions.map(\.groupID), ["stream", "stream", "stream"])
    XCTAssertEqual(renditions.map(\.uri), [nil, nil, nil])
    XCTAssertNil(item.selectedTextTrack, "subtitles stay off until selected")
    XCTAssertEqual(item.audioRenditions, [], "one audio stream offers no choice")
  }

  func testAFileWithoutSubtitleStreamsListsNone() throws {
    let (player, item, _) = try readyPlayer(try Fixtures.url("dual-audio.mkv"))
    defer { player.close() }
    XCTAssertEqual(item.subtitleRenditions, [])
  }

  func testTheSelectedStreamsCuesEnterAndExitAtTheirTimes() throws {
    let (player, item, recorder) = try readyPlayer(try Fixtures.url("dual-subtitles.mkv"))
    defer { player.close() }
    let english = try XCTUnwrap(item.subtitleRenditions.first)
    XCTAssertTrue(item.selectSubtitleRendition(english))
    recorder.waitFor(event: "subtitleRenditionChanged")
    XCTAssertEqual(item.selectedSubtitleRendition, english)
    XCTAssertNil(item.subtitleSegments, "a file's stream has no segments")
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(
      cueChanges(recorder),
      (0..<6).flatMap {
        ["enter:Second \($0)@\(Double($0))", "exit:Second \($0)@\(Double($0) + 0.9)"]
      })
    XCTAssertEqual(item.textCues.map(\.cue.text), (0..<6).map { "Second \($0)" })
    XCTAssertTrue(item.textCues.allSatisfy { $0.track == english })
    // Loaded once the cues at the position are in (the rest come as the media is read);
    // the start waited for them ("Second 0" entered at 0, above).
    let loaded = try XCTUnwrap(recorder.events.firstIndex { $0.name == "textTrackLoaded" })
    XCTAssertEqual(recorder.names.filter { $0 == "textTrackLoaded" }.count, 1)
    if case .textTrackLoaded(_, let track, let count) = recorder.events[loaded].kind {
      XCTAssertEqual(track, english)
      XCTAssertTrue((1...6).contains(count), "\(count)")
    }
  }

  func testSwitchingStreamsAfterASeekIntoACue() throws {
    let (player, item, recorder) = try readyPlayer(try Fixtures.url("dual-subtitles.mkv"))
    defer { player.close() }
    let english = item.subtitleRenditions[0]
    let french = item.subtitleRenditions[1]
    XCTAssertTrue(item.selectTextTrack(english))
    recorder.waitFor(event: "textCueEntered")
    // "Second 2" starts at 2.0 s, before the keyframe at 2.021 s the seek lands on: the
    // seek reads back for it.
    player.seek(to: .seconds(2.2))
    recorder.waitFor(event: "textCueEntered", count: 2)
    XCTAssertEqual(
      cueChanges(recorder), ["enter:Second 0@0.0", "exit:Second 0@2.2", "enter:Second 2@2.2"])
    XCTAssertTrue(item.selectTextTrack(french))
    recorder.waitFor(event: "textCueExited", count: 2)
    XCTAssertEqual(Array(cueChanges(recorder).suffix(1)), ["exit:Second 2@2.2"])
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(
      Array(cueChanges(recorder).dropFirst(4)),
      (2..<6).flatMap {
        ["enter:Seconde \($0)@\(Double($0) + 0.5)", "exit:Seconde \($0)@\(Double($0) + 1)"]
      })
    XCTAssertEqual(
      item.textCues.map(\.cue.plainText), (0..<6).map { "Seconde \($0)" },
      "read along with the English (and back from the seek)")
    let last = try XCTUnwrap(item.textCues.last)
    XCTAssertEqual(last.cue.text, "<i>Seconde 5</i>", "ASS italics become WebVTT markup")
    XCTAssertEqual(item.selectedSubtitleRendition, french)
    XCTAssertEqual(recorder.names.filter { $0 == "subtitleRenditionChanged" }.count, 2)
  }

  func testASeekFindsACueThatStartedBeforeTheKeyframe() throws {
    let (player, item, recorder) = try readyPlayer(try Fixtures.url("dual-subtitles.mkv"))
    defer { player.close() }
    let forced = item.subtitleRenditions[2]
    XCTAssertTrue(item.selectTextTrack(forced))
    // "Sign" shows from 1.2 s to 2.4 s; the seek lands on the keyframe at 2.021 s, after
    // the cue's packet: only the read back before the target finds it.
    player.seek(to: .seconds(2.2))
    recorder.waitFor(event: "textCueEntered")
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    XCTAssertEqual(cueChanges(recorder), ["enter:Sign@2.2", "exit:Sign@2.4"])
  }

  func testTurningSubtitlesOffEndsTheActiveCue() throws {
    let (player, item, recorder) = try readyPlayer(try Fixtures.url("dual-subtitles.mkv"))
    defer { player.close() }
    XCTAssertTrue(item.selectTextTrack(item.subtitleRenditions[1]))
    recorder.waitFor(event: "subtitleRenditionChanged")
    player.seek(to: .seconds(0.75))
    recorder.waitFor(event: "textCueEntered")
    XCTAssertTrue(item.selectTextTrack(nil))
    recorder.waitFor(event: "textCueExited")
    recorder.waitFor(event: "subtitleRenditionChanged", count: 2)
    XCTAssertEqual(cueChanges(recorder), ["enter:Seconde 0@0.75", "exit:Seconde 0@0.75"])
    XCTAssertNil(item.selectedSubtitleRendition)
    XCTAssertEqual(item.activeTextCues, [])
  }

  func testOverHTTPSwitchingDuringPlaybackReadsNothingAgain() throws {
    let server = HTTPTestServer(directory: try Fixtures.directory())
    try server.start()
    defer { server.stop() }
    let (player, item, recorder) = try readyPlayer(server.url("/dual-subtitles.mkv"))
    defer { player.close() }
    XCTAssertTrue(item.selectTextTrack(item.subtitleRenditions[0]))
    let french = item.subtitleRenditions[1]
    player.addBoundaryTimeObserver(forTimes: [.seconds(3.2)], queue: .global()) {
      item.selectTextTrack(french)
    }
    player.play()
    XCTAssertEqual(recorder.waitForEnd()?.name, "didPlayToEnd")
    let changes = cueChanges(recorder)
    XCTAssertEqual(
      Array(changes.prefix(6)),
      (0..<3).flatMap {
        ["enter:Second \($0)@\(Double($0))", "exit:Second \($0)@\(Double($0) + 0.9)"]
      })
    XCTAssertEqual(changes.last, "exit:Seconde 5@6.0")
    XCTAssertTrue(changes.contains("enter:Seconde 4@4.5"), "\(changes)")
    XCTAssertEqual(
      server.requests.filter { $0.path == "/dual-subtitles.mkv" }.count, 1,
      "the French cues came with the one download of the media")
  }
}
