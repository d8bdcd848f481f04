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

/// Why the rendition changed.
public enum VariantChangeReason: String, Sendable, Equatable, Codable {
  /// The first rendition of the item.
  case initial
  /// The bitrate controller chose another rendition.
  case adaptive
  /// The application selected a rendition (or capped the choice).
  case manual
  /// The rendition failed and a redundant copy or another rendition took over.
  case failover
}
