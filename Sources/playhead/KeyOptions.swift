import Foundation
import Playhead

/// The content-key options of `play`: `--key KID:KEY` (repeatable) gives a ClearKey key for
/// Common Encryption content (DASH `cenc`/`cbcs`, fMP4 HLS), `--license-url URL` a W3C
/// ClearKey licence server asked for the key IDs no `--key` answers.
struct KeyOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--key", "--license-url"]

  /// Content keys by key ID, both as 32 hexadecimal digits (the key ID may be in UUID form).
  var keys: [String: String] = [:]
  /// `--license-url URL`: an http(s) ClearKey licence server.
  var licenseURL: URL?

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--key":
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2,
        (try? SampleKeyID.bytes(fromHex: String(parts[0]))) != nil,
        (try? SampleKeyID.bytes(fromHex: String(parts[1]))) != nil
      else {
        throw UsageError(
          "option '--key' needs KID:KEY, each 32 hexadecimal digits (the KID may be a UUID), "
            + "not '\(text)'")
      }
      keys[String(parts[0])] = String(parts[1])
    default:
      guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased())
      else {
        throw UsageError("option '--license-url' needs an http(s) URL, not '\(text)'")
      }
      licenseURL = url
    }
  }

  /// Applies the keys and the licence server to a download: a protected DASH download
  /// keeps the keys they give.
  func apply(to download: inout DownloadConfiguration) throws(PlayheadError) {
    if !keys.isEmpty { download.sampleKeySource = try SampleKeys(hex: keys) }
    if let licenseURL { download.clearKeyLicenseURL = licenseURL }
  }

  /// Applies the keys and the licence server to the player's streaming configuration.
  func apply(to hls: inout HLSConfiguration) throws(PlayheadError) {
    if !keys.isEmpty { hls.sampleKeySource = try SampleKeys(hex: keys) }
    if let licenseURL { hls.clearKeyLicenseURL = licenseURL }
  }
}
