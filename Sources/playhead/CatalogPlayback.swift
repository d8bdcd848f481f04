import Foundation
import Playhead

/// `playhead play catalog:ACCOUNT/VIDEO_ID --policy-key K [options]`: fetches the video
/// from the Playback API and plays it through the playback controller (source selection
/// and bumper included), printing the same lines as `--playlist`.
struct CatalogPlayback {
  /// The account, from the input.
  var account: String
  /// `VIDEO_ID` or `ref:REF`, from the input.
  var identifier: String
  var options: CatalogOptions

  /// The prefix of a catalog input.
  static let prefix = "catalog:"

  /// Reads `catalog:ACCOUNT/VIDEO_ID`; nil for an input without the prefix.
  init?(input: String, options: CatalogOptions) throws(UsageError) {
    guard input.hasPrefix(Self.prefix) else { return nil }
    let rest = input.dropFirst(Self.prefix.count)
    guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex,
      rest.index(after: slash) != rest.endIndex
    else {
      throw UsageError("a catalog input is 'catalog:ACCOUNT/VIDEO_ID', not '\(input)'")
    }
    if options.account != nil {
      throw UsageError("option '--account' does not apply to 'play' (the input names it)")
    }
    try options.validateCredentials()
    account = String(rest[..<slash])
    identifier = String(rest[rest.index(after: slash)...])
    self.options = options
  }

  func run(_ command: PlayCommand, console: Console) throws(PlayheadError) -> ExitCode {
    let service = options.service(account: account, timeoutMs: command.requests.timeoutMs)
    let request = options.request(identifier: identifier)
    let parameters = options.parameters
    let outcome = waitForCatalog { () async throws(PlaybackServiceError) in
      try await service.findVideo(request, queryParameters: parameters)
    }
    let result: PlaybackServiceVideoResult
    switch outcome {
    case .failure(let error): return reportCatalogFailure(error, console: console)
    case .success(let value): result = value
    }
    reportCatalogWarnings(result.warnings, result.bumperErrors, console: console)
    return try PlaylistPlayback.play(
      [result.video], autoAdvance: false, autoPlay: false, command: command, console: console
    ) { controller in
      controller.bumperLookup = service.bumperLookup
      controller.bumperVideo = result.bumperVideo
    }
  }
}
