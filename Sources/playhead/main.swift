import Foundation
import Playhead

// Dispatches the verb; each verb parses its own options and prints its own errors.
// FFmpeg's own log stays silent: every failure reaches the user as one `playhead:` line.
MediaLibrary.setLogLevel(.quiet)
let console = Console()
let arguments = Array(CommandLine.arguments.dropFirst())
let verbArguments = Array(arguments.dropFirst())
let status: ExitCode

switch arguments.first {
case "play":
  status = PlayCommand.main(verbArguments, console: console)
case "probe":
  status = ProbeCommand.main(verbArguments, console: console)
case "snapshot":
  status = SnapshotCommand.main(verbArguments, console: console)
case "-h", "--help", "help":
  console.line(Usage.tool)
  status = .success
case nil:
  console.error("missing command (play, probe or snapshot; see 'playhead --help')")
  status = .usage
case let other?:
  let kind = other.hasPrefix("-") ? "option" : "command"
  console.error("unknown \(kind) '\(other)' (see 'playhead --help')")
  status = .usage
}
exit(status.rawValue)
