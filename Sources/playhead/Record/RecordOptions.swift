import Foundation
import Playhead

/// `--record FILE` and `--record-secrets`: write a session recording of the run (every
/// transfer, the events, what was played and how), for `playhead replay FILE`.
struct RecordOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = ["--record", "--record-secrets"]

  /// `--record FILE`.
  var path: String?
  /// `--record-secrets`: keep credentials and signed-URL parameters in the recording.
  var keepsSecrets = false

  /// Reads `name` (one of `names`) and its value from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--record":
      path = try ArgumentValue.path(cursor.value(for: name, inline: inline), option: name)
    default:
      try cursor.noValue(for: name, inline: inline)
      keepsSecrets = true
    }
  }

  /// Checks that the options go together.
  func validate() throws(UsageError) {
    if keepsSecrets && path == nil {
      throw UsageError("option '--record-secrets' goes with '--record FILE'")
    }
  }

  /// The recorder for a run of `play` with `arguments` on `clock`; nil without `--record`.
  /// The arguments are kept without the recording options, for the replay to play again.
  func recorder(arguments: [String], media: URL, clock: any Clock) throws(PlayheadError)
    -> SessionRecorder?
  {
    guard let path else { return nil }
    let kept = Self.removingRecordOptions(from: arguments)
    let shown = keepsSecrets ? media : RecordingRedaction.url(media)
    return try SessionRecorder(
      fileURL: fileURL(forPath: path), clock: clock, recordsSecrets: keepsSecrets,
      metadata: [
        .init("command", .string("play")),
        .init("arguments", .array(kept.map { .string($0) })),
        .init("media", .string(shown.absoluteString)),
      ])
  }

  /// `arguments` without `--record FILE` (or `--record=FILE`) and `--record-secrets`.
  static func removingRecordOptions(from arguments: [String]) -> [String] {
    var kept: [String] = []
    var skipNext = false
    for argument in arguments {
      if skipNext {
        skipNext = false
        continue
      }
      if argument == "--record" {
        skipNext = true
        continue
      }
      if argument.hasPrefix("--record=") || argument == "--record-secrets" { continue }
      kept.append(argument)
    }
    return kept
  }
}
