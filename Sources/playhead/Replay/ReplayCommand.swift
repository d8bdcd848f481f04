import Foundation
import Playhead
import PlayheadTesting

/// `playhead replay FILE [--json | --events | --quiet]`: plays a session recording again,
/// on the fast clock, with the recording as the only network.
///
/// The recording keeps the `play` arguments of the recorded run; the replay plays with them
/// (without a window, a cache or a recording of its own), its transfers answered from the
/// recording at their recorded delays, so it makes the same decisions (renditions, stalls,
/// seeks) and prints the same events on every replay.
struct ReplayCommand: Command {
  static let usage = Usage.replay

  var path: String
  var output = PlayCommand.Output()

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "replay")
    var path: String?
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard path == nil else { throw cursor.unexpected(text) }
        path = text
      case .option(let name, let inline):
        try cursor.noValue(for: name, inline: inline)
        switch name {
        case "--json": output.json = true
        case "--events": output.events = true
        case "--quiet": output.quiet = true
        default: throw cursor.unknown(name)
        }
      }
    }
    guard let path else { throw cursor.missingInput() }
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
    play.fast = true
    play.output = output
    play.window.isDisabled = true
    play.window.isRequired = false
    play.record = RecordOptions()
    play.cache = CacheOptions()
    play.replay = recording
    return try play.run(console: console)
  }
}
