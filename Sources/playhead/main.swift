import Foundation
import Playhead

// Ctrl-C exits with 130 at any point, whatever the verb is doing.
Interrupt.install()

let console = Console()
// The log options of every verb, taken out first: logging is set up once, before the verb
// runs (FFmpeg's own messages only when a level is asked for; LogOptions).
let arguments: [String]
do {
  let logOptions: LogOptions
  (logOptions, arguments) = try LogOptions.extract(from: Array(CommandLine.arguments.dropFirst()))
  try logOptions.bootstrap(console: console)
} catch let error as UsageError {
  console.error(error.message)
  exit(ExitCode.usage.rawValue)
} catch let error as PlayheadError {
  console.error(error.message)
  exit(ExitCode(error).rawValue)
} catch {
  console.error("\(error)")
  exit(ExitCode.usage.rawValue)
}

// Dispatches the verb; each verb parses its own options and prints its own errors.
let verbArguments = Array(arguments.dropFirst())
let status: ExitCode

switch arguments.first {
case "play":
  status = PlayCommand.main(verbArguments, console: console)
case "probe":
  status = ProbeCommand.main(verbArguments, console: console)
case "snapshot":
  status = SnapshotCommand.main(verbArguments, console: console)
case "playlist": exit(PlaylistCommand.main(verbArguments, console: console))
case "manifest":
  status = ManifestCommand.main(verbArguments, console: console)
case "ads":
  status = AdsCommand.main(verbArguments, console: console)
case "catalog":
  status = CatalogCommand.main(verbArguments, console: console)
case "thumbnails":
  status = ThumbnailsCommand.main(verbArguments, console: console)
case "download":
  status = DownloadCommand.main(verbArguments, console: console)
case "feed":
  status = FeedCommand.main(verbArguments, console: console)
case "replay":
  status = ReplayCommand.main(verbArguments, console: console)
case "-h", "--help", "help":
  console.line(Usage.tool)
  status = .success
case nil:
  console.error(
    "missing command (play, probe, snapshot, playlist or catalog; see 'playhead --help')")
  status = .usage
case let other?:
  let kind = other.hasPrefix("-") ? "option" : "command"
  console.error("unknown \(kind) '\(other)' (see 'playhead --help')")
  status = .usage
}
exit(status.rawValue)
