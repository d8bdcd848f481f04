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
  /// The arguments are kept without the recording options (and, unless `--record-secrets`,
  /// without secrets), for the replay to play again.
  func recorder(arguments: [String], media: URL, clock: any Clock) throws(PlayheadError)
    -> SessionRecorder?
  {
    guard let path else { return nil }
    let withoutOptions = Self.removingRecordOptions(from: arguments)
    let kept = keepsSecrets ? withoutOptions : Self.redactingSecrets(in: withoutOptions)
    let shown = keepsSecrets ? media : RecordingRedaction.url(media)
    return try SessionRecorder(
      fileURL: fileURL(forPath: path), clock: clock, recordsSecrets: keepsSecrets,
      metadata: [
        .init("command", .string("play")),
        .init("arguments", .array(kept.map { .string($0) })),
        .init("media", .string(shown.absoluteString)),
      ])
  }

  /// Options whose whole value is a secret: the bearer token and the URL-signing key.
  static let secretOptions: Set<String> = ["--auth-token", "--sign-key"]

  /// `arguments` with the secrets a recording leaves out replaced, as `RecordingRedaction`
  /// does for the transfers: signed-URL parameters in every http(s) URL, credential header
  /// fields of `--header`, and the values of `secretOptions`. The result still parses; the
  /// replay redacts the URLs it is asked for the same way, so it still finds them.
  static func redactingSecrets(in arguments: [String]) -> [String] {
    var redacted: [String] = []
    var valueOf: String?
    for argument in arguments {
      if let option = valueOf {
        redacted.append(redactingSecret(in: argument, of: option))
        valueOf = nil
      } else if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        let name = String(argument[..<equals])
        let value = String(argument[argument.index(after: equals)...])
        redacted.append(name + "=" + redactingSecret(in: value, of: name))
      } else if argument == "--header" || secretOptions.contains(argument) {
        redacted.append(argument)
        valueOf = argument
      } else {
        redacted.append(redactingSecret(in: argument, of: nil))
      }
    }
    return redacted
  }

  /// `value` (of `option`, or a positional argument) without its secret.
  private static func redactingSecret(in value: String, of option: String?) -> String {
    if let option, secretOptions.contains(option) { return "redacted" }
    if option == "--header", let colon = value.firstIndex(of: ":") {
      let name = value[..<colon].trimmingCharacters(in: .whitespaces)
      let isSecret = RecordingRedaction.secretHeaderNames.contains(name.lowercased())
      return isSecret ? "\(name): [redacted]" : value
    }
    guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased())
    else { return value }
    return RecordingRedaction.url(url).absoluteString
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
