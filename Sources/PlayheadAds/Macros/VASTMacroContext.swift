import Foundation
import PlayheadCore

/// Where an ad break sits in its content: VAST's `[BREAKPOSITION]` value.
public enum VASTBreakPosition: Int, Sendable, Hashable {
  case preRoll = 1
  case midRoll = 2
  case postRoll = 3
  /// An ad played on its own, outside any content.
  case standalone = 4
}

/// The values the player knows when it fires a beacon, for `VASTMacros.expand`.
///
/// A value left nil is "known macro, value unknown": it expands to `-1` (VAST 4.1 §6.1).
public struct VASTMacroContext: Sendable, Equatable {
  /// `[ERRORCODE]`.
  public var errorCode: VASTErrorCode?
  /// `[TIMESTAMP]`: when the beacon fires (ISO 8601 with milliseconds, UTC). Pass the
  /// player clock's wall-clock equivalent; nothing here reads the system time.
  public var timestamp: Date?
  /// `[CONTENTPLAYHEAD]`: the content's position at the break.
  public var contentPlayhead: MediaTime?
  /// `[MEDIAPLAYHEAD]`: the position of the media being played (content or ad).
  public var mediaPlayhead: MediaTime?
  /// `[ADPLAYHEAD]`: the position in the ad.
  public var adPlayhead: MediaTime?
  /// `[ASSETURI]`: the ad media file's URL.
  public var assetURI: String?
  /// `[BREAKPOSITION]`.
  public var breakPosition: VASTBreakPosition?
  /// `[ADCOUNT]`: how many ads of the break have played, this one included (from 1).
  public var adCount: Int?
  /// `[CACHEBUSTING]`: an 8-digit number; nil lets `expand` draw one from its generator.
  public var cacheBusting: String?

  public init(
    errorCode: VASTErrorCode? = nil, timestamp: Date? = nil, contentPlayhead: MediaTime? = nil,
    mediaPlayhead: MediaTime? = nil, adPlayhead: MediaTime? = nil, assetURI: String? = nil,
    breakPosition: VASTBreakPosition? = nil, adCount: Int? = nil, cacheBusting: String? = nil
  ) {
    self.errorCode = errorCode
    self.timestamp = timestamp
    self.contentPlayhead = contentPlayhead
    self.mediaPlayhead = mediaPlayhead
    self.adPlayhead = adPlayhead
    self.assetURI = assetURI
    self.breakPosition = breakPosition
    self.adCount = adCount
    self.cacheBusting = cacheBusting
  }
}
