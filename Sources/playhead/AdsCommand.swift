import Foundation
import Playhead
import PlayheadAds

/// `playhead ads <path-or-url> [--json] [--max-wrappers N] [--timeout-ms MS]`: loads a VMAP
/// or VAST document (sniffed by its root element), resolves its wrapper chains and prints
/// breaks, ads, chosen media files, tracking and failures with their IAB codes.
///
/// Exit statuses: 0 resolved (ad failures inside the document are printed, not fatal), 1
/// the document is not VAST or VMAP (not XML, wrong root, unsupported version), 2 a bad
/// command line, 3 the document could not be loaded.
struct AdsCommand: Command {
  static let usage = Usage.ads

  var input: String
  var options = AdsCommandOptions()
  var json: Bool { options.json }
  var maxWrappers: Int { options.maxWrappers }
  var timeoutMs: Int { options.timeoutMs }

  init(parsing arguments: [String]) throws(UsageError) {
    input = ""
    var cursor = ArgumentCursor(arguments, verb: "ads")
    guard let input = try cursor.readInput(into: &self, groups: [.group(\.options)]) else {
      throw cursor.missingInput()
    }
    self.input = input
  }

  func run(console: Console) throws(PlayheadError) -> ExitCode {
    let url = URLArgument.url(fromArgument: input)
    let stack = DataSourceStack(
      request: RequestConfiguration(timeoutMs: timeoutMs, retryCount: 1))
    let resolver = VASTResolver(
      loader: DataLoader(factory: stack),
      configuration: VASTResolverConfiguration(
        maxWrapperDepth: maxWrappers, hopTimeoutMs: timeoutMs))
    let resolution: AdTagResolution
    do {
      resolution = try resolver.resolveAdTag(url)
    } catch {
      if error.vastCode == .wrapperTimeout {
        throw PlayheadError(.ioError, "cannot load the ad document: \(error.message)", url: url)
      }
      console.error("not a VAST or VMAP document: \(error.message)")
      return .invalidPlaylist
    }
    if json {
      console.line(AdsJSON.value(resolution, url: url).encoded)
    } else {
      for line in AdsText.lines(resolution, url: url) { console.line(line) }
    }
    return .success
  }
}

/// `--json`, `--max-wrappers N` and `--timeout-ms MS` of `playhead ads`.
struct AdsCommandOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--json", "--max-wrappers", "--timeout-ms"]

  var json = false
  var maxWrappers = 5
  var timeoutMs = 5_000

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    switch name {
    case "--json":
      try cursor.noValue(for: name, inline: inline)
      json = true
    case "--max-wrappers":
      maxWrappers = try ArgumentValue.integer(
        try cursor.value(for: name, inline: inline), option: name, in: 0...20)
    default:
      timeoutMs = try ArgumentValue.integer(
        try cursor.value(for: name, inline: inline), option: name, in: 1...600_000)
    }
  }
}
