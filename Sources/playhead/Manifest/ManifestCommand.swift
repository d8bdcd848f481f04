import Foundation
import Playhead

/// `playhead manifest <path-or-url> [--json]`: reads a DASH MPD and prints it checked, as
/// `playlist` does an M3U8; an M3U8 (told by its first line) is handed to `playlist`.
///
/// Exit statuses: 0 read, 1 not a valid MPD (printed as `path: message (clause)`), 2 a bad
/// command line, 3 the MPD could not be loaded.
struct ManifestCommand {
  static let usage = Usage.manifest

  var input: String
  var json = false

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "manifest")
    var input: String?
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option(let name, _):
        throw cursor.unknown(name)
      }
    }
    guard let input else { throw cursor.missingInput() }
    self.input = input
  }

  static func main(_ arguments: [String], console: Console) -> Int32 {
    if ArgumentCursor.wantsHelp(arguments) {
      console.line(usage)
      return ExitCode.success.rawValue
    }
    let command: ManifestCommand
    do {
      command = try ManifestCommand(parsing: arguments)
    } catch {
      console.error(error.message)
      return ExitCode.usage.rawValue
    }
    return command.run(console: console)
  }

  func run(console: Console) -> Int32 {
    let url = URLArgument.url(fromArgument: input)
    let limits = XMLTreeLimits.mpd
    let data: Data
    do {
      data = try PlaylistCommand.load(url, maxBytes: limits.maxBytes)
    } catch {
      console.error(error.message)
      return ExitCode(error).rawValue
    }
    if data.starts(with: Array("#EXTM3U".utf8))
      || data.starts(with: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U".utf8))
    {
      return PlaylistCommand(input: input, output: json ? .json : .summary).run(console: console)
    }
    let mpd: MPD
    do {
      mpd = try MPDParser.parse(data, url: url, limits: limits)
    } catch {
      console.error(error.description)
      return ExitCode.invalidPlaylist.rawValue
    }
    if json {
      console.line(ManifestJSON.value(mpd).encoded)
    } else {
      for line in ManifestText.lines(mpd) { console.line(line) }
    }
    return ExitCode.success.rawValue
  }
}
