import Foundation
import Playhead

/// `--log-level LEVEL`, `-v` and `--log-file PATH`: what the tool logs and where, taken by
/// every command (before or after the command's name).
///
/// The default level is `warning`, which keeps the tool's usual output as it is: Playhead
/// logs its milestones at `info`, its decisions at `debug`. Each `-v` (or `-vv`, `-vvv`) is
/// one step more verbose than the level otherwise chosen, on the ladder critical, error,
/// warning, info, debug, trace. FFmpeg's own messages are logged only when a level was
/// asked for (`-v` or `--log-level`): at the default, their errors would repeat the one-line
/// error the commands print. Log lines go to standard error (through the console, so they
/// never break into the progress line), or with `--log-file` to the end of PATH instead.
struct LogOptions: Equatable, Sendable {
  /// The level without options.
  static let defaultLevel = Logger.Level.warning
  /// The levels `-v` steps through, least verbose first (`notice` is not a step: Playhead
  /// logs nothing at it).
  static let verbosityLadder: [Logger.Level] = [.critical, .error, .warning, .info, .debug, .trace]

  /// `--log-level LEVEL`.
  var level: Logger.Level?
  /// How many `v`s were given (`-v -v` and `-vv` both count 2).
  var verbosity = 0
  /// `--log-file PATH`.
  var filePath: String?

  /// The level Playhead's loggers log at.
  var effectiveLevel: Logger.Level {
    var chosen = level ?? Self.defaultLevel
    for _ in 0..<verbosity {
      guard let next = Self.verbosityLadder.first(where: { $0 < chosen }) else { break }
      chosen = next
    }
    return chosen
  }

  /// The level FFmpeg's messages are logged at: `effectiveLevel` once a level was asked
  /// for, else `critical` (FFmpeg's panics only).
  var ffmpegLevel: Logger.Level {
    level == nil && verbosity == 0 ? .critical : effectiveLevel
  }

  /// Takes the log options out of `arguments` (up to a lone `--`) and returns them with
  /// the other arguments in their order.
  static func extract(from arguments: [String]) throws(UsageError) -> (LogOptions, [String]) {
    var options = LogOptions()
    var rest: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let (name, inline) = split(argument)
      switch name {
      case "--":
        rest.append(argument)
        rest += remaining
        return (options, rest)
      case "--log-level":
        options.level = try parseLevel(value(of: name, inline: inline, from: &remaining))
      case "--log-file":
        options.filePath = try ArgumentValue.path(
          value(of: name, inline: inline, from: &remaining), option: name)
      case _ where isVerbosity(argument):
        options.verbosity += argument.count - 1
      default:
        rest.append(argument)
      }
    }
    return (options, rest)
  }

  /// Bootstraps the logging system with these options (once, at start-up) and sets the
  /// level of FFmpeg's messages. Throws when the log file cannot be opened.
  func bootstrap(console: Console) throws(PlayheadError) {
    let level = effectiveLevel
    let output: @Sendable (String) -> Void
    if let filePath {
      let file = try LogFile(appendingTo: fileURL(forPath: filePath).path)
      output = { line in file.write(line: line) }
    } else {
      output = { line in console.errorLine(line) }
    }
    LoggingSystem.bootstrap { label in
      TextLogHandler(label: label, logLevel: level, output: output)
    }
    var ffmpeg = MediaLibrary.logger
    ffmpeg.logLevel = ffmpegLevel
    MediaLibrary.logger = ffmpeg
  }

  /// `LEVEL` of `--log-level LEVEL`, by name (any case).
  static func parseLevel(_ text: String) throws(UsageError) -> Logger.Level {
    guard let level = Logger.Level(rawValue: text.lowercased()) else {
      let names = Logger.Level.allCases.map(\.rawValue)
      throw UsageError(
        "option '--log-level' needs one of \(names.dropLast().joined(separator: ", ")) "
          + "or \(names.last ?? ""), not '\(text)'")
    }
    return level
  }

  /// Whether `argument` is `-v`, `-vv`, `-vvv`…
  private static func isVerbosity(_ argument: String) -> Bool {
    argument.count >= 2 && argument.hasPrefix("-") && argument.dropFirst().allSatisfy { $0 == "v" }
  }

  /// An option's name and the value written after `=` (for `--name=value` only).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// The value of `name`: its inline `=value`, or else the next argument.
  private static func value(
    of name: String, inline: String?, from remaining: inout ArraySlice<String>
  ) throws(UsageError) -> String {
    if let inline { return inline }
    guard let value = remaining.popFirst() else {
      throw UsageError("option '\(name)' needs a value (see 'playhead --help')")
    }
    return value
  }
}
