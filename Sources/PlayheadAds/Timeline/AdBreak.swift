import Foundation
import PlayheadCore

/// What became of one ad of a break (Media3's ad states).
public enum AdState: String, Sendable, Hashable, Codable {
  /// Not loaded yet (its break's tag is still to be fetched).
  case unavailable
  /// Ready to play.
  case available
  /// Played to its end.
  case played
  /// Skipped by the viewer.
  case skipped
  /// Could not be played (no playable media, a load or decode error, a timeout).
  case failed
}

/// Where a break's ads come from.
public enum AdBreakSource: Sendable, Equatable {
  /// The ads are known (inline VAST data, or an application's own ads).
  case ads([LinearAd])
  /// The ads are fetched from this VAST tag when the break comes near.
  case tag(URL)
  /// The ads are the assets of an HLS Interstitials asset list (`X-ASSET-LIST`), fetched
  /// when the break comes near; each asset is one ad, in the list's order.
  case assetList(URL)
}

/// One ad break: a pod of linear ads at one place of the content, with its own tracking.
public struct AdBreak: Sendable, Equatable {
  /// The break's id (VMAP `breakId`, a cue point's id, or one made from its position).
  public var id: String
  /// Where the schedule put it.
  public var offset: VMAPTimeOffset
  /// Its ads, or the tag that gives them.
  public var source: AdBreakSource
  /// VMAP `breakStart` tracking URLs.
  public var breakStartURLs: [String]
  /// VMAP `breakEnd` tracking URLs.
  public var breakEndURLs: [String]
  /// VMAP `error` tracking URLs (with `[ERRORCODE]`).
  public var errorURLs: [String]
  /// VMAP `repeatAfter`: the break comes again this long after each play position; nil once.
  public var repeatAfter: MediaTime?

  /// Creates a break; tracking is empty unless given.
  public init(
    id: String, offset: VMAPTimeOffset, source: AdBreakSource, breakStartURLs: [String] = [],
    breakEndURLs: [String] = [], errorURLs: [String] = [], repeatAfter: MediaTime? = nil
  ) {
    self.id = id
    self.offset = offset
    self.source = source
    self.breakStartURLs = breakStartURLs
    self.breakEndURLs = breakEndURLs
    self.errorURLs = errorURLs
    self.repeatAfter = repeatAfter
  }
}
