import Foundation
import PlayheadCore

/// One linear ad ready to play: its media choices, its timing and every URL its play must
/// ping (a VAST InLine ad with its wrappers' URLs merged in, or an ad an application builds).
public struct LinearAd: Sendable, Equatable {
  /// The ad's `id` (VAST `Ad@id`), or one the schedule gives it; used in events.
  public var id: String
  /// Its place in a pod (VAST `sequence`), nil for a stand-alone ad.
  public var sequence: Int?
  /// `AdSystem`, for logs.
  public var adSystem: String?
  /// `AdTitle`, for the ad badge and logs.
  public var title: String?
  /// The creative's declared duration; nil when the document gives none (the media's own
  /// duration then counts).
  public var duration: MediaTime?
  /// When the viewer may skip; nil for an ad that cannot be skipped.
  public var skipOffset: VASTOffset?
  /// The media files to choose from, in document order.
  public var mediaFiles: [VASTMediaFile]
  /// `Impression` URLs, sent once when the ad's first frame shows.
  public var impressionURLs: [String]
  /// `Error` URLs (with `[ERRORCODE]`), sent when the ad fails.
  public var errorURLs: [String]
  /// Tracking URLs by event (`start`, `firstQuartile`, `pause`, …).
  public var trackingURLs: [AdTrackingEvent: [String]]
  /// `progress` tracking: URLs sent when the ad's playhead reaches an offset.
  public var progressBeacons: [AdProgressBeacon]
  /// Where "Learn more" leads (`ClickThrough`), if anywhere.
  public var clickThroughURL: String?
  /// `ClickTracking` URLs, sent when the viewer follows the click-through.
  public var clickTrackingURLs: [String]

  /// Creates an ad; everything but the id and the media has a default.
  public init(
    id: String, sequence: Int? = nil, adSystem: String? = nil, title: String? = nil,
    duration: MediaTime? = nil, skipOffset: VASTOffset? = nil, mediaFiles: [VASTMediaFile],
    impressionURLs: [String] = [], errorURLs: [String] = [],
    trackingURLs: [AdTrackingEvent: [String]] = [:], progressBeacons: [AdProgressBeacon] = [],
    clickThroughURL: String? = nil, clickTrackingURLs: [String] = []
  ) {
    self.id = id
    self.sequence = sequence
    self.adSystem = adSystem
    self.title = title
    self.duration = duration
    self.skipOffset = skipOffset
    self.mediaFiles = mediaFiles
    self.impressionURLs = impressionURLs
    self.errorURLs = errorURLs
    self.trackingURLs = trackingURLs
    self.progressBeacons = progressBeacons
    self.clickThroughURL = clickThroughURL
    self.clickTrackingURLs = clickTrackingURLs
  }

  /// The time from which the ad may be skipped, given its duration (the document's when
  /// `known` is nil); nil when it cannot be (no offset, or a share of an unknown duration).
  public func skippableFrom(duration known: MediaTime?) -> MediaTime? {
    skipOffset?.time(inAdOf: known ?? duration)
  }
}

/// A `progress` tracking event: ping `url` when the ad's playhead reaches `offset`.
public struct AdProgressBeacon: Sendable, Equatable {
  /// The ad time, or share of the duration, that sends it.
  public var offset: VASTOffset
  /// The URL to ping.
  public var url: String

  public init(offset: VASTOffset, url: String) {
    self.offset = offset
    self.url = url
  }
}

/// The VAST tracking events a linear ad's play sends (VAST 4.x §3.14.1, and VMAP's).
public enum AdTrackingEvent: String, Sendable, Hashable, CaseIterable, Codable {
  case impression, creativeView, start, firstQuartile, midpoint, thirdQuartile, complete
  case pause, resume, mute, unmute, skip, rewind, fullscreen, exitFullscreen
  case clickTracking, error, closeLinear
  case breakStart, breakEnd
}
