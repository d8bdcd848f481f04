import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import XCTest

/// One text-track lifecycle event as a consumer or the delegate saw it.
struct TextEventEntry: Sendable, Equatable, CustomStringConvertible {
  /// `textCueEnter`, `textCueExit`, `textTrackChanged`, `textTrackLoaded`,
  /// `textTrackFailedToLoad`, `audioTrackChanged`.
  var type: String
  /// The cue's plain text, or the track ID (the audio track's for `audioTrackChanged`).
  var detail: String
  /// The event's content time.
  var time: MediaTime
  var cueStart: MediaTime = .invalid
  var cueEnd: MediaTime = .invalid
  var error: PlayheadError?

  var description: String { "\(type):\(detail)@\(time.isNumeric ? String(time.seconds) : "-")" }
}

/// Records the text-track lifecycle events a session consumer receives.
final class TextEventRecorder: PlaybackSessionConsumer, @unchecked Sendable {
  private let condition = NSCondition()
  private var storage: [TextEventEntry] = []

  var entries: [TextEventEntry] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  /// The cue enters and exits as `enter:text` / `exit:text`.
  var cueChanges: [String] {
    entries.compactMap { entry in
      switch entry.type {
      case "textCueEnter": return "enter:\(entry.detail)"
      case "textCueExit": return "exit:\(entry.detail)"
      default: return nil
      }
    }
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    let type = lifecycleEvent.type.rawValue
    guard type.hasPrefix("textCue") || type.hasPrefix("textTrack") || type == "audioTrackChanged"
    else { return }
    var entry = TextEventEntry(
      type: type,
      detail: lifecycleEvent.textTrackID ?? lifecycleEvent.properties["audioTrack"]?.stringValue
        ?? "none",
      time: lifecycleEvent.currentTime, error: lifecycleEvent.error)
    if let cue = lifecycleEvent.textCue {
      entry.detail = cue.plainText
      entry.cueStart = cue.start
      entry.cueEnd = cue.end
    }
    condition.lock()
    storage.append(entry)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `predicate` holds (the real-time limit only guards against hangs).
  @discardableResult
  func waitFor(
    _ description: String, timeoutMs: Int = 60_000, file: StaticString = #filePath,
    line: UInt = #line, _ predicate: ([TextEventEntry]) -> Bool
  ) -> Bool {
    let limit = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(storage) {
      if !condition.wait(until: limit) {
        XCTFail("timed out waiting for \(description); got \(storage)", file: file, line: line)
        return false
      }
    }
    return true
  }

  /// Waits for an event of `type`.
  @discardableResult
  func waitFor(type: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    waitFor(type, file: file, line: line) { $0.contains { $0.type == type } }
  }
}

enum TextTrackTesting {
  /// Writes `text` to a new temporary `.vtt` file, removed at the end of `testCase`.
  static func writeVTT(_ text: String, in testCase: XCTestCase, name: String = "subs.vtt") throws
    -> URL
  {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("playhead-tracks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file
  }

  /// The sidecar file most tests use: overlapping cues, a cue shorter than a progress
  /// interval, markup, and a cue that outlasts the 10 s video.
  static let sampleVTT = """
    WEBVTT

    one
    00:00.500 --> 00:01.500
    One

    00:01.000 --> 00:02.000
    Two

    00:03.000 --> 00:03.100
    Short

    00:05.000 --> 00:07.000 align:start
    <i>Five</i> &amp; six

    00:09.000 --> 00:12.000
    Nine
    """

  /// A controller with a sidecar-subtitles provider, preferring `languages` in `mode`.
  static func makeController(
    languages: [String] = ["en"], mode: TextTrackPreferences.Mode = .always,
    audioLanguages: [String] = [], upstream: (any PlaybackSessionProvider)? = nil
  ) -> (PlaybackController, SDKRecorder, TextEventRecorder) {
    let provider = PlayerSDKManager.shared.createSidecarSubtitlesSessionProvider(
      upstream: upstream,
      configuration: TextTrackConfiguration(
        preferences: TextTrackPreferences(languages: languages, mode: mode),
        preferredAudioLanguages: audioLanguages))
    let (controller, recorder) = SDKTesting.makeController(provider: provider)
    let text = TextEventRecorder()
    controller.addSessionConsumer(text)
    return (controller, recorder, text)
  }

  /// `video` with `tracks` as its text tracks.
  static func video(_ video: Video, tracks: [TextTrack]) -> Video {
    video.update { $0.textTracks = tracks }
  }

  /// Seeks and waits for the completion.
  static func seek(
    _ controller: PlaybackController, to seconds: Double, in testCase: XCTestCase
  ) {
    let done = testCase.expectation(description: "seek to \(seconds)")
    controller.seek(to: SDKTesting.seconds(seconds)) { _ in done.fulfill() }
    testCase.wait(for: [done], timeout: 60)
  }
}
