import Foundation
import Playhead
import PlayheadAds

/// `--ad-tag URL`, `--ad-timeout MS`, `--seek-mode last|all|none` and `--ads-stitched`:
/// `play` plays client-side ads (or tracks stitched ones) through the SDK's ads plug-in.
struct AdOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = ["--ad-tag", "--ad-timeout", "--seek-mode", "--ads-stitched"]

  /// `--ad-tag URL`: a VMAP or a VAST (a lone VAST is a pre-roll), told apart by content.
  var tag: String?
  /// `--ad-timeout MS`.
  var timeoutMs: Int?
  /// `--seek-mode`.
  var seekMode: AdSeekMode?
  /// `--ads-stitched`: the tag's breaks are in the stream (`adsAreStitched`).
  var isStitched = false

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    if name == "--ads-stitched" {
      guard inline == nil else { throw UsageError("option '--ads-stitched' takes no value") }
      isStitched = true
      return
    }
    let value = try cursor.value(for: name, inline: inline)
    switch name {
    case "--ad-tag":
      tag = value
    case "--ad-timeout":
      timeoutMs = try ArgumentValue.positiveInteger(value, option: name)
    default:
      guard let mode = AdSeekMode(rawValue: value) else {
        throw UsageError("option '--seek-mode' takes last, all or none, not '\(value)'")
      }
      seekMode = mode
    }
  }

  /// Whether any ad option was given.
  var isEmpty: Bool { tag == nil && timeoutMs == nil && seekMode == nil && !isStitched }

  /// The ads configuration of `--ad-tag`, or nil without it.
  func configuration() -> AdsConfiguration? {
    guard let tag else { return nil }
    let url = URLArgument.url(fromArgument: tag)
    var configuration = AdsConfiguration(schedule: .adTag(url), seekMode: seekMode ?? .last)
    if let timeoutMs { configuration.adTimeoutMs = timeoutMs }
    configuration.adsAreStitched = isStitched
    return configuration
  }
}
