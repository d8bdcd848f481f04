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
  var json = false
  var maxWrappers = 5
  var timeoutMs = 5_000

  init(parsing arguments: [String]) throws(UsageError) {
    var cursor = ArgumentCursor(arguments, verb: "ads")
    var input: String?
    while let token = cursor.next() {
      switch token {
      case .positional(let text):
        guard input == nil else { throw cursor.unexpected(text) }
        input = text
      case .option("--json", let inline):
        try cursor.noValue(for: "--json", inline: inline)
        json = true
      case .option("--max-wrappers", let inline):
        maxWrappers = try ArgumentValue.integer(
          try cursor.value(for: "--max-wrappers", inline: inline), option: "--max-wrappers",
          in: 0...20)
      case .option("--timeout-ms", let inline):
        timeoutMs = try ArgumentValue.integer(
          try cursor.value(for: "--timeout-ms", inline: inline), option: "--timeout-ms",
          in: 1...600_000)
      case .option(let name, _):
        throw cursor.unknown(name)
      }
    }
    guard let input else { throw cursor.missingInput() }
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
