import Foundation
import Playhead

/// `playhead replay FILE [--json | --events | --quiet]`: plays a session recording again,
/// on the fast clock, with the recording as the only network.
///
/// The recording keeps the `play` arguments of the recorded run; the replay plays with them
/// (without a window, a cache or a recording of its own), its transfers answered from the
/// recording at their recorded delays, so it makes the same decisions (renditions, stalls,
/// seeks) and prints the same events on every replay.
struct ReplayCommand: Command {
  static let usage = Usage.replay

  var path = ""
  /// `--events`, `--json`, `--quiet`.
  var output = OutputOptions()

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "replay")
    guard let path = try cursor.readInput(into: &self, groups: [.group(\.output)]) else {
      throw cursor.missingInput()
    }
    self.path = path
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let recording = try SessionRecording(contentsOf: fileURL(forPath: path))
    guard recording.metadata["command"]?.stringValue == "play",
      let arguments = recording.metadata["arguments"]?.arrayValue?.compactMap(\.stringValue)
    else {
      throw PlayheadError(
        .invalidRecording, "\(path) is not a recording of 'playhead play' (no arguments kept)")
    }
    var play: PlayCommand
    do {
      play = try PlayCommand(parsing: arguments)
    } catch {
      throw PlayheadError(
        .invalidRecording, "the arguments kept in \(path) do not parse: \(error.message)")
    }
    play.playback.fast = true
    play.output = output
    play.window.isDisabled = true
    play.window.isRequired = false
    play.record = RecordOptions()
    play.cache = CacheOptions()
    play.replay = recording
    return try play.run(console: console)
  }
}
