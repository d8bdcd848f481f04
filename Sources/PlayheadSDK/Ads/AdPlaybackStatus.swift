import Foundation
import PlayheadAds
import PlayheadCore

/// The ad on screen at one instant, as a player UI shows it (seed 000's ad controls): which
/// ad of the break it is, its time and duration, when it can be skipped and whether it has a
/// page to open.
///
/// Read it from `PlaybackController.adPlaybackStatus`. A server-side (stitched) ad period
/// counts as one ad, is never skippable and has no page.
public struct AdPlaybackStatus: Sendable, Equatable {
  /// Where the break stands on the content timeline.
  public var breakPosition: AdBreakPosition
  /// The ad's place in the break, from 1.
  public var adNumber: Int
  /// How many ads the break has (at least `adNumber`).
  public var adCount: Int
  /// The ad's id (the VAST `Ad` id, or the server-side period's id).
  public var adID: String
  /// The ad's own playhead.
  public var time: MediaTime
  /// The ad's duration: its media's once known, the document's before; nil when neither
  /// says.
  public var duration: MediaTime?
  /// The ad time from which `PlaybackController.skipAd()` skips it; nil for an ad that
  /// cannot be skipped.
  public var skippableFrom: MediaTime?
  /// The advertiser's page (`PlaybackController.openAdClickThrough()` opens it); nil
  /// without one.
  public var clickThroughURL: URL?
  /// Whether the ad is paused.
  public var isPaused: Bool
  /// Whether the ad is stitched into the content (server-side).
  public var isServerSide: Bool

  /// A status.
  public init(
    breakPosition: AdBreakPosition, adNumber: Int, adCount: Int, adID: String, time: MediaTime,
    duration: MediaTime?, skippableFrom: MediaTime? = nil, clickThroughURL: URL? = nil,
    isPaused: Bool = false, isServerSide: Bool = false
  ) {
    self.breakPosition = breakPosition
    self.adNumber = adNumber
    self.adCount = max(adCount, adNumber)
    self.adID = adID
    self.time = time
    self.duration = duration
    self.skippableFrom = skippableFrom
    self.clickThroughURL = clickThroughURL
    self.isPaused = isPaused
    self.isServerSide = isServerSide
  }

  /// The time left in the ad (never negative); nil without a duration.
  public var remaining: MediaTime? {
    guard let duration, duration.isNumeric, time.isNumeric else { return nil }
    return duration > time ? duration - time : .zero
  }

  /// Whether `skipAd()` skips the ad now.
  public var canSkip: Bool {
    guard let skippableFrom, time.isNumeric else { return false }
    return time >= skippableFrom
  }

  /// The time until the ad can be skipped (zero once it can); nil when it cannot be.
  public var untilSkippable: MediaTime? {
    guard let skippableFrom, time.isNumeric else { return nil }
    return skippableFrom > time ? skippableFrom - time : .zero
  }
}
