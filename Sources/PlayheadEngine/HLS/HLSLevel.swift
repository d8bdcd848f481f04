import Foundation
import PlayheadCore
import PlayheadHLS

/// One rendition of the stream: a variant, with every redundant URI that serves it.
struct HLSLevel: Sendable {
  let index: Int
  /// The variant's URIs: the primary first, then redundant copies (same attributes).
  let uris: [URL]
  let bandwidth: Int
  let averageBandwidth: Int?
  let resolution: Resolution?
  let codecs: String?
  let frameRate: Double?
  /// The AUDIO and SUBTITLES group of each URI (redundant copies may name their own).
  var audioGroups: [String?] = []
  var subtitleGroups: [String?] = []

  /// The AUDIO group of the URI at `uriIndex`.
  func audioGroup(uriIndex: Int) -> String? {
    audioGroups.indices.contains(uriIndex) ? audioGroups[uriIndex] : audioGroups.first ?? nil
  }

  /// The SUBTITLES group of the URI at `uriIndex`.
  func subtitleGroup(uriIndex: Int) -> String? {
    subtitleGroups.indices.contains(uriIndex)
      ? subtitleGroups[uriIndex] : subtitleGroups.first ?? nil
  }

  /// Groups `variants` into levels: variants with identical attributes but different
  /// URIs are redundant copies of one level (RFC 8216 §6.2.4 failover).
  static func levels(from variants: [Variant]) -> [HLSLevel] {
    var levels: [HLSLevel] = []
    for variant in variants {
      if let index = levels.firstIndex(where: {
        $0.bandwidth == variant.bandwidth && $0.resolution == variant.resolution
          && $0.codecs == variant.codecs && !$0.uris.contains(variant.uri)
      }) {
        let level = levels[index]
        levels[index] = HLSLevel(
          index: level.index, uris: level.uris + [variant.uri], bandwidth: level.bandwidth,
          averageBandwidth: level.averageBandwidth, resolution: level.resolution,
          codecs: level.codecs, frameRate: level.frameRate,
          audioGroups: level.audioGroups + [variant.audioGroup],
          subtitleGroups: level.subtitleGroups + [variant.subtitlesGroup])
      } else {
        levels.append(
          HLSLevel(
            index: levels.count, uris: [variant.uri], bandwidth: variant.bandwidth,
            averageBandwidth: variant.averageBandwidth, resolution: variant.resolution,
            codecs: variant.codecs, frameRate: variant.frameRate,
            audioGroups: [variant.audioGroup], subtitleGroups: [variant.subtitlesGroup]))
      }
    }
    return levels.sorted { $0.bandwidth < $1.bandwidth }.enumerated().map { offset, level in
      HLSLevel(
        index: offset, uris: level.uris, bandwidth: level.bandwidth,
        averageBandwidth: level.averageBandwidth, resolution: level.resolution,
        codecs: level.codecs, frameRate: level.frameRate, audioGroups: level.audioGroups,
        subtitleGroups: level.subtitleGroups)
    }
  }
}
