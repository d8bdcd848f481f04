import Foundation
import PlayheadCore

/// One linear ad ready to play: its media choices, its timing and every URL its play must
/// ping (a VAST InLine ad with its wrappers' URLs merged in, or an ad an application builds).
public struct LinearAd: Sendable, Hashable {
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
  public var skipOffset: AdSkipOffset?
  /// The media files to choose from, in document order.
  public var mediaFiles: [AdMediaFile]
  /// `Impression` URLs, sent once when the ad's first frame shows.
  public var impressionURLs: [URL]
  /// `Error` URLs (with `[ERRORCODE]`), sent when the ad fails.
  public var errorURLs: [URL]
  /// Tracking URLs by event (`start`, `firstQuartile`, `pause`, …).
  public var trackingURLs: [AdTrackingEvent: [URL]]
  /// `progress` tracking: URLs sent when the ad's playhead reaches an offset.
  public var progressBeacons: [AdProgressBeacon]
  /// Where "Learn more" leads (`ClickThrough`), if anywhere.
  public var clickThroughURL: URL?
  /// `ClickTracking` URLs, sent when the viewer follows the click-through.
  public var clickTrackingURLs: [URL]

  /// Creates an ad; everything but the id and the media has a default.
  public init(
    id: String, sequence: Int? = nil, adSystem: String? = nil, title: String? = nil,
    duration: MediaTime? = nil, skipOffset: AdSkipOffset? = nil, mediaFiles: [AdMediaFile],
    impressionURLs: [URL] = [], errorURLs: [URL] = [],
    trackingURLs: [AdTrackingEvent: [URL]] = [:], progressBeacons: [AdProgressBeacon] = [],
    clickThroughURL: URL? = nil, clickTrackingURLs: [URL] = []
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

  /// The time from which the ad may be skipped, given its duration; nil when it cannot be
  /// (no offset, or a percentage of an unknown duration).
  public func skippableFrom(duration known: MediaTime?) -> MediaTime? {
    guard let skipOffset else { return nil }
    switch skipOffset {
    case .time(let time): return time
    case .percent(let share):
      guard let length = known ?? duration, length.isNumeric else { return nil }
      return percentShare(share, of: length)
    }
  }
}

/// VAST `skipoffset`: a time or a share of the ad's duration.
public enum AdSkipOffset: Sendable, Hashable {
  /// Skippable from this ad time.
  case time(MediaTime)
  /// Skippable from this share of the duration, 0 to 100.
  case percent(Double)
}

/// A `progress` tracking event: ping `url` when the ad's playhead reaches `offset`.
public struct AdProgressBeacon: Sendable, Hashable {
  /// The ad time, or share of the duration, that sends it.
  public var offset: AdSkipOffset
  /// The URL to ping.
  public var url: URL

  public init(offset: AdSkipOffset, url: URL) {
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

/// One media file of a linear ad.
public struct AdMediaFile: Sendable, Hashable {
  /// Where the media is.
  public var url: URL
  /// Its MIME type (`video/mp4`, `application/x-mpegURL`, `application/javascript` …).
  public var mimeType: String
  /// `progressive` or `streaming` as the document says; nil when absent.
  public var delivery: String?
  /// Its picture size, 0 when unknown.
  public var width: Int
  public var height: Int
  /// Its bit rate in kbit/s, nil when unknown.
  public var bitrateKbps: Int?
  /// `apiFramework` (`VPAID`, `SIMID`, …): such a file needs a script runtime.
  public var apiFramework: String?

  public init(
    url: URL, mimeType: String, delivery: String? = nil, width: Int = 0, height: Int = 0,
    bitrateKbps: Int? = nil, apiFramework: String? = nil
  ) {
    self.url = url
    self.mimeType = mimeType
    self.delivery = delivery
    self.width = width
    self.height = height
    self.bitrateKbps = bitrateKbps
    self.apiFramework = apiFramework
  }
}

/// `percent` (0 to 100) of `length`, to the millisecond.
func percentShare(_ percent: Double, of length: MediaTime) -> MediaTime {
  let thousandths = Int64((min(max(percent, 0), 100) * 1000).rounded())
  return length.convertScale(1000).multiplied(byRatio: thousandths, denominator: 100_000)
}
