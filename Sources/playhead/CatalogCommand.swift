import Foundation
import Playhead

/// `playhead catalog video|playlist ID|ref:REF --account A --policy-key K [options]`:
/// fetches a video or a playlist from the Playback API and prints it, as a summary or (with
/// `--json`) in the API's own JSON shape, written back through the SDK's converters.
///
/// Exit statuses: 0 fetched, 2 a bad command line, 3 the API answered with an error (each
/// `error_code` and message is printed), the network failed, or the answer is not a video
/// or playlist.
struct CatalogCommand: Command {
  static let usage = Usage.catalog

  /// What to fetch.
  enum Kind: String {
    case video, playlist
  }

  var kind: Kind
  /// `ID` or `ref:REF`.
  var identifier: String
  var account: String
  var options: CatalogOptions
  var json = false
  var limit: Int?
  var offset: Int?
  /// `--header`, `--timeout` (the other request options do not apply).
  var requests = RequestOptions()

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "catalog")
    var positionals: [String] = []
    var options = CatalogOptions()
    var json = false
    var limit: Int?
    var offset: Int?
    var requests = RequestOptions()
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard positionals.count < 2 else { throw cursor.unexpected(text) }
        positionals.append(text)
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option("--limit", let inline):
        limit = try ArgumentValue.integer(
          cursor.value(for: "--limit", inline: inline), option: "--limit", in: 1...100)
      case .option("--offset", let inline):
        offset = try ArgumentValue.integer(
          cursor.value(for: "--offset", inline: inline), option: "--offset", in: 0...1_000_000)
      case .option(let name, let inline) where CatalogOptions.names.contains(name):
        try options.parse(name, inline: inline, cursor: &cursor)
      case .option(let name, let inline) where name == "--header" || name == "--timeout":
        try requests.parse(name, inline: inline, cursor: &cursor)
      case .option(let name, _):
        throw cursor.unknown(name)
      }
    }
    guard let first = positionals.first, let kind = Kind(rawValue: first) else {
      throw UsageError(
        "'catalog' needs 'video' or 'playlist' first (see 'playhead catalog --help')")
    }
    guard positionals.count == 2, !positionals[1].isEmpty else {
      throw UsageError("'catalog \(first)' needs an ID or ref:REFERENCE_ID")
    }
    guard let account = options.account else {
      throw UsageError("'catalog' needs '--account A'")
    }
    try options.validateCredentials()
    if kind == .video && (limit != nil || offset != nil) {
      throw UsageError("options '--limit' and '--offset' go with 'catalog playlist'")
    }
    self.kind = kind
    self.identifier = positionals[1]
    self.account = account
    self.options = options
    self.json = json
    self.limit = limit
    self.offset = offset
    self.requests = requests
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let service = options.service(
      account: account, headers: requests.headerFields, timeoutMs: requests.timeoutMs)
    let request = options.request(identifier: identifier, limit: limit, offset: offset)
    let parameters = options.parameters
    switch kind {
    case .video:
      let outcome = waitForCatalog { () async throws(PlaybackServiceError) in
        try await service.findVideo(request, queryParameters: parameters)
      }
      switch outcome {
      case .failure(let error):
        return reportCatalogFailure(error, console: console)
      case .success(let result):
        reportCatalogWarnings(result.warnings, result.bumperErrors, console: console)
        if json {
          try printJSON(result.video.json, console: console)
        } else {
          CatalogText.lines(result.video, bumper: result.bumperVideo).forEach(console.line)
        }
      }
    case .playlist:
      let outcome = waitForCatalog { () async throws(PlaybackServiceError) in
        try await service.findPlaylist(request, queryParameters: parameters)
      }
      switch outcome {
      case .failure(let error):
        return reportCatalogFailure(error, console: console)
      case .success(let result):
        reportCatalogWarnings(result.warnings, result.bumperErrors, console: console)
        if json {
          try printJSON(result.playlist.json, console: console)
        } else {
          CatalogText.lines(result.playlist, bumper: result.bumperVideo).forEach(console.line)
        }
      }
    }
    return .success
  }

  /// One line of JSON with sorted keys and unescaped slashes (URLs stay readable).
  private func printJSON(_ value: PlayheadSDK.JSONValue, console: Console) throws(PlayheadError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else {
      throw PlayheadError(.invalidArgument, "the answer holds a number JSON cannot write")
    }
    console.line(String(decoding: data, as: UTF8.self))
  }
}
