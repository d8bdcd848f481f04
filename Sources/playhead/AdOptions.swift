import Foundation
import Playhead
import PlayheadAds

/// `--ad-tag URL`, `--ad-timeout MS`, `--seek-mode last|all|none`, `--ads-stitched`,
/// `--interstitials` and `--no-interstitials`: `play` plays client-side ads (or tracks
/// stitched ones) and an HLS stream's interstitials through the SDK's ads plug-in.
struct AdOptions: OptionGroup, Equatable, Sendable {
  static let names: Set<String> = [
    "--ad-tag", "--ad-timeout", "--seek-mode", "--ads-stitched", "--interstitials",
    "--no-interstitials",
  ]

  /// `--ad-tag URL`: a VMAP or a VAST (a lone VAST is a pre-roll), told apart by content.
  var tag: String?
  /// `--ad-timeout MS`.
  var timeoutMs: Int?
  /// `--seek-mode`.
  var seekMode: AdSeekMode?
  /// `--ads-stitched`: the tag's breaks are in the stream (`adsAreStitched`).
  var isStitched = false
  /// `--interstitials` (true: the ads plug-in plays the stream's HLS interstitials, with
  /// or without an ad tag) or `--no-interstitials` (false: an ad tag's breaks only).
  var interstitials: Bool?

  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    if name == "--ads-stitched" {
      guard inline == nil else { throw UsageError("option '--ads-stitched' takes no value") }
      isStitched = true
      return
    }
    if name == "--interstitials" || name == "--no-interstitials" {
      guard inline == nil else { throw UsageError("option '\(name)' takes no value") }
      interstitials = name == "--interstitials"
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
  var isEmpty: Bool {
    tag == nil && timeoutMs == nil && seekMode == nil && !isStitched && interstitials == nil
  }

  /// Whether the ads plug-in is on: `--ad-tag`, or `--interstitials`.
  var isOn: Bool { tag != nil || interstitials == true }

  /// The ads configuration of `--ad-tag` (the tag's breaks, and the stream's interstitials
  /// unless `--no-interstitials`) or of `--interstitials` alone (only the interstitials);
  /// nil without either.
  func configuration() -> AdsConfiguration? {
    var configuration: AdsConfiguration
    if let tag {
      let url = URLArgument.url(fromArgument: tag)
      configuration = AdsConfiguration(schedule: .adTag(url), seekMode: seekMode ?? .last)
    } else if interstitials == true {
      configuration = AdsConfiguration(schedule: .breaks([]), seekMode: seekMode ?? .last)
    } else {
      return nil
    }
    configuration.playsInterstitials = interstitials ?? true
    if let timeoutMs { configuration.adTimeoutMs = timeoutMs }
    configuration.adsAreStitched = isStitched
    return configuration
  }
}
