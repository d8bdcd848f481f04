import Foundation
import PlayheadCore

/// Whether an item is on demand, live, or live with a growing seekable window (DVR).
public enum StreamKind: String, Sendable, Equatable, Codable {
  /// A file or an HLS playlist with `EXT-X-ENDLIST`.
  case vod
  /// A live HLS playlist whose window slides.
  case live
  /// A live HLS `EVENT` playlist: segments are only added, so everything stays seekable.
  case liveDVR
}

/// The rendition being played, as the variant menu shows it.
public struct VariantInfo: Sendable, Equatable, Codable {
  /// Index among the stream's levels, lowest bandwidth first.
  public var index: Int
  /// Declared peak bandwidth in bits per second.
  public var bandwidth: Int
  public var width: Int?
  public var height: Int?
  public var codecs: String?
  /// The URI in use (a redundant copy after failover).
  public var uri: String

  public init(index: Int, bandwidth: Int, width: Int?, height: Int?, codecs: String?, uri: String) {
    self.index = index
    self.bandwidth = bandwidth
    self.width = width
    self.height = height
    self.codecs = codecs
    self.uri = uri
  }
}

/// Why the rendition changed (the `reason` of a `trackChanged` event).
///
/// The adaptive reasons come from the bitrate controller's `ABRDecision.Reason`; a
/// custom controller's reasons map the same way.
public enum VariantChangeReason: String, Sendable, Equatable, Codable {
  /// The first rendition of the item.
  case initial
  /// The measured throughput decided: a step up it sustains, or a step down because it
  /// no longer sustains the level (an in-flight download included).
  case throughput
  /// The buffer decided: enough of it to afford a higher level, or too little to risk
  /// the wanted one.
  case buffer
  /// A download that could not finish before the buffer ran out was abandoned and
  /// fetched again at this lower level.
  case abandoned
  /// The application selected a rendition by hand.
  case manual
  /// The rendition failed and a redundant copy or another rendition took over.
  case failover
  /// A new cap (peak bitrate, resolution) ruled out the rendition being loaded.
  case cap

  /// The reason a decision of the bitrate controller gives a change to its level.
  public init(_ reason: ABRDecision.Reason) {
    switch reason {
    case .initial: self = .initial
    case .manual: self = .manual
    case .constrained: self = .cap
    case .throughput, .noLevels: self = .throughput
    case .buffer, .insufficientBuffer: self = .buffer
    case .abandoned: self = .abandoned
    }
  }
}

/// An alternate rendition the master playlist offers: an audio language, a subtitle
/// track, a video angle or closed captions; or one of the audio streams of a progressive
/// file, which plays the same way.
public struct RenditionInfo: Sendable, Equatable, Codable {
  /// `audio`, `video`, `subtitles` or `closedCaptions`.
  public var type: String
  /// The GROUP-ID; `stream` for the audio streams of a file.
  public var groupID: String
  /// The NAME; for an audio stream of a file, its title tag, else its language tag, else
  /// `Audio <n>` (its place among the file's audio streams, from 1).
  public var name: String
  public var language: String?
  public var isDefault: Bool
  public var autoselect: Bool
  public var forced: Bool
  /// The rendition's media playlist (nil for renditions carried in the variant itself,
  /// and for the audio streams of a file).
  public var uri: String?
  /// The container stream index of an audio stream of a progressive file (MP4, MKV, …);
  /// nil for HLS renditions.
  public var streamIndex: Int?

  public init(
    type: String, groupID: String, name: String, language: String?, isDefault: Bool,
    autoselect: Bool, forced: Bool, uri: String?, streamIndex: Int? = nil
  ) {
    self.type = type
    self.groupID = groupID
    self.name = name
    self.language = language
    self.isDefault = isDefault
    self.autoselect = autoselect
    self.forced = forced
    self.uri = uri
    self.streamIndex = streamIndex
  }
}

/// The application's limits on rendition choice, from the item and the configuration.
struct VariantSelection: Sendable, Equatable {
  /// Bits per second (0 = no cap).
  var preferredPeakBitRate: Int
  var maximumPixelCount: Int?
  /// A level chosen by hand; nil = automatic.
  var manualIndex: Int?
}
