import Foundation
import Playhead

// FFmpeg's own log lines would duplicate the one-line errors the verbs print.
MediaLibrary.setLogLevel(.quiet)
// Ctrl-C exits with 130 at any point, whatever the verb is doing.
Interrupt.install()

// Dispatches the verb; each verb parses its own options and prints its own errors.
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
case "playlist": exit(PlaylistCommand.main(verbArguments, console: console))
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
