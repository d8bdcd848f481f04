import Foundation
import Playhead

/// `playhead manifest <path-or-url> [--json]`: reads a DASH MPD and prints it checked, as
/// `playlist` does an M3U8; an M3U8 (told by its first line) is handed to `playlist`.
///
/// Exit statuses: 0 read, 1 not a valid MPD (printed as `path: message (clause)`), 2 a bad
/// command line, 3 the MPD could not be loaded.
struct ManifestCommand: Command {
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

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let url = URLArgument.url(fromArgument: input)
    let limits = XMLTreeLimits.mpd
    let data = try PlaylistCommand.load(url, maxBytes: limits.maxBytes)
    if data.starts(with: Array("#EXTM3U".utf8))
      || data.starts(with: [0xEF, 0xBB, 0xBF] + Array("#EXTM3U".utf8))
    {
      let status = PlaylistCommand(input: input, output: json ? .json : .summary).report(
        data, url: url, console: console)
      return ExitCode(rawValue: status) ?? .invalidPlaylist
    }
    let mpd: MPD
    do {
      mpd = try MPDParser.parse(data, url: url, limits: limits)
    } catch {
      console.error(error.description)
      return .invalidPlaylist
    }
    if json {
      console.line(ManifestJSON.value(mpd).encoded)
    } else {
      for line in ManifestText.lines(mpd) { console.line(line) }
    }
    return .success
  }
}
