import Foundation
import Playhead

/// `--sign-key KEY [--sign-validity-seconds N]`: sign the URL with CDN auth type A and
/// re-sign any URL of the stream that expires or is refused as expired (403, 410).
struct SignOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = ["--sign-key", "--sign-validity-seconds"]
  /// How long a signature is valid without `--sign-validity-seconds` (the seed's default).
  static let defaultValiditySeconds: Int64 = 3600

  /// `--sign-key KEY`.
  var key: String?
  /// `--sign-validity-seconds N`.
  var validitySeconds: Int64?

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--sign-key":
      guard !text.isEmpty else { throw UsageError("option '--sign-key' needs a non-empty key") }
      key = text
    default:
      validitySeconds = Int64(
        try ArgumentValue.integer(text, option: name, in: 1...315_360_000))
    }
  }

  /// Checks that the options go together.
  func validate() throws(UsageError) {
    if validitySeconds != nil && key == nil {
      throw UsageError("option '--sign-validity-seconds' goes with '--sign-key KEY'")
    }
  }

  /// `url` signed for the validity, or `url` itself without `--sign-key`; a URL that is
  /// not http or https cannot be signed (`.invalidArgument`).
  func signed(_ url: URL) throws(PlayheadError) -> URL {
    guard let key else { return url }
    let expiry = SourceRefreshOptions.systemWallClock() + validity
    do {
      return try CDNTypeASigner(key: key).sign(url, expiry: expiry)
    } catch {
      throw PlayheadError(.invalidArgument, "option '--sign-key': \(error.message)", url: url)
    }
  }

  /// Makes `configuration` re-sign expired URLs: refused ones (403, 410) and ones whose
  /// signature has expired on the system clock.
  func apply(to configuration: inout PlayerConfiguration) {
    apply(handler: &configuration.urlSourceExpiredHandler, options: &configuration.sourceRefresh)
  }

  /// Makes a download re-sign expired URLs, as `apply(to:)` does for playback.
  func apply(to configuration: inout DownloadConfiguration) {
    apply(handler: &configuration.urlSourceExpiredHandler, options: &configuration.sourceRefresh)
  }

  /// Whether `first` and `second` name the same resource once their signatures are set
  /// aside (always a plain comparison without `--sign-key`).
  func sameResource(_ first: URL, _ second: URL) -> Bool {
    guard let key, first != second else { return first == second }
    let signer = CDNTypeASigner(key: key)
    // Signing both with one expiry replaces whatever signature each had.
    guard let a = try? signer.sign(first, expiry: 0), let b = try? signer.sign(second, expiry: 0)
    else { return false }
    return a == b
  }

  private func apply(handler: inout URLSourceExpiredHandler?, options: inout SourceRefreshOptions) {
    guard let key else { return }
    let signer = CDNTypeASigner(key: key)
    options.signer = signer
    handler = SourceRefresh.resigning(with: signer, validitySeconds: validity)
  }

  private var validity: Int64 { validitySeconds ?? Self.defaultValiditySeconds }
}
