import Foundation
import Playhead

/// Parses a `--scene` name (case-insensitive) into the engine's scene preset.
enum SceneArgument {
  static func parse(_ text: String, option: String) throws(UsageError) -> PlayerScene {
    switch text.lowercased() {
    case "short": return .short
    case "medium": return .medium
    case "long": return .long
    case "live": return .live
    default:
      throw UsageError("option '\(option)' needs short, medium, long or live, not '\(text)'")
    }
  }
}

/// The HLS options of `play`: `--max-bitrate`, `--max-pixels`, `--rendition`,
/// `--start-bandwidth` and `--scene`. Progressive media ignores all but `--scene`, whose
/// start and resume buffers apply to every item.
struct StreamOptions: OptionGroup, Equatable, Sendable {
  /// The option names this type reads.
  static let names: Set<String> = [
    "--max-bitrate", "--max-pixels", "--rendition", "--start-bandwidth", "--scene",
  ]

  /// `--max-bitrate BPS`: the highest variant bandwidth to choose.
  var maxBitRate: Int?
  /// `--max-pixels N|WxH`: the largest picture to choose.
  var maxPixelCount: Int?
  /// `--rendition INDEX`: a fixed rendition (index among the variants, lowest bandwidth
  /// first); nil = automatic (also `--rendition auto`).
  var renditionIndex: Int?
  /// `--start-bandwidth BPS`: the bandwidth assumed before any download is measured.
  var startBandwidth: Int?
  /// `--scene NAME`.
  var scene: PlayerScene?

  /// Reads the value of `name` (one of `names`) from `cursor`.
  mutating func parse(
    _ name: String, inline: String?, cursor: inout ArgumentCursor
  ) throws(UsageError) {
    let text = try cursor.value(for: name, inline: inline)
    switch name {
    case "--max-bitrate":
      maxBitRate = try ArgumentValue.bitRate(text, option: name)
    case "--max-pixels":
      maxPixelCount = try ArgumentValue.pixelCount(text, option: name)
    case "--rendition":
      if text.lowercased() == "auto" {
        renditionIndex = nil
      } else {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
          let index = Int(text), index <= 10_000
        else {
          throw UsageError(
            "option '\(name)' needs a rendition index (0 = lowest bandwidth) or auto, "
              + "not '\(text)'")
        }
        renditionIndex = index
      }
    case "--start-bandwidth":
      startBandwidth = try ArgumentValue.bitRate(text, option: name)
    default:
      scene = try SceneArgument.parse(text, option: name)
    }
  }

  /// Applies the options to the player's HLS configuration.
  func apply(to hls: inout HLSConfiguration) {
    if let maxBitRate { hls.preferredPeakBitRate = maxBitRate }
    if let maxPixelCount { hls.maximumPixelCount = maxPixelCount }
    hls.manualVariantIndex = renditionIndex
    if let startBandwidth { hls.defaultBandwidthEstimate = startBandwidth }
    if let scene { hls.scene = scene }
  }
}
