import Foundation
import Playhead

/// `playhead playlist <path-or-url> [--json | --write]`: parses an M3U8 playlist and prints
/// it as a summary, as JSON, or as Playhead writes it back.
///
/// Exit statuses: 0 parsed, 1 a fatal parse error (printed as `line N: message`; an empty
/// file or body too), 2 a bad command line, 3 the playlist could not be loaded (missing
/// file, network, HTTP error).
struct PlaylistCommand {
  static let usage = Usage.playlist

  /// How the playlist is printed.
  enum Output: Equatable {
    case summary
    case json
    case write
  }

  /// The exit status for a fatal parse error.
  static let parseErrorStatus: Int32 = ExitCode.invalidPlaylist.rawValue

  /// The input as typed.
  var input: String
  var output = Output.summary

  /// The command for `input`, printed as `output` (`manifest` hands M3U8s here).
  init(input: String, output: Output) {
    self.input = input
    self.output = output
  }

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "playlist")
    var input: String?
    var json = false
    var write = false
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option("--write", let inline):
        try cursor.noValue(for: "--write", inline: inline)
        write = true
      case .option(let name, _):
        throw cursor.unknown(name)
      }
    }
    guard let input else { throw cursor.missingInput() }
    if json && write { throw UsageError("options '--json' and '--write' cannot be combined") }
    self.input = input
    self.output = json ? .json : write ? .write : .summary
  }

  /// Shows help, or parses the arguments, loads and parses the playlist and prints it;
  /// returns the exit status.
  static func main(_ arguments: [String], console: Console) -> Int32 {
    if ArgumentCursor.wantsHelp(arguments) {
      console.line(usage)
      return ExitCode.success.rawValue
    }
    let command: PlaylistCommand
    do {
      command = try PlaylistCommand(parsing: arguments)
    } catch {
      console.error(error.message)
      return ExitCode.usage.rawValue
    }
    return command.run(console: console)
  }

  func run(console: Console) -> Int32 {
    let url = URLArgument.url(fromArgument: input)
    let limits = PlaylistParserLimits.default
    let data: Data
    do {
      // An empty file or body is the playlist's fault: the parser says so, exit 1.
      data = try Self.load(url, maxBytes: limits.maxBytes)
    } catch {
      console.error(error.message)
      return ExitCode(error).rawValue
    }
    return report(data, url: url, console: console)
  }

  /// Parses the playlist loaded from `url` and prints it as `output` says; returns the
  /// exit status (`manifest` calls this with the bytes it already loaded).
  func report(_ data: Data, url: URL, console: Console) -> Int32 {
    let limits = PlaylistParserLimits.default
    let playlist: PlayheadHLS.Playlist
    do {
      playlist = try PlaylistParser.parse(data, url: url, limits: limits)
    } catch {
      console.error(error.description)
      return Self.parseErrorStatus
    }
    switch output {
    case .summary:
      for line in PlaylistSummary.lines(playlist) { console.line(line) }
    case .json:
      console.line(PlaylistJSON.value(playlist).encoded)
    case .write:
      for warning in playlist.warnings { console.errorLine("playhead: warning: \(warning)") }
      var text = PlaylistWriter.write(playlist)
      if text.hasSuffix("\n") { text.removeLast() }
      console.line(text)
    }
    return ExitCode.success.rawValue
  }

  /// Every byte of `url`, or the first `maxBytes + 1` when there are more (the parser then
  /// reports the size limit).
  static func load(_ url: URL, maxBytes: Int) throws(PlayheadError) -> Data {
    // Stops reading once past the limit: the parser then refuses the size.
    let source = DataSourceStack().makeDataSource()
    defer { source.close() }
    _ = try source.open(DataRequest(url: url, purpose: .playlist))
    var data = Data()
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { chunk.deallocate() }
    while data.count <= maxBytes {
      let count = try source.read(into: chunk)
      if count == 0 { break }
      data.append(chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }
    return data
  }
}
