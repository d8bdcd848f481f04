import Foundation
import PlayheadAds
import PlayheadCore

/// Where a session's ad breaks come from (seed 000's ad policies).
public enum AdSchedule: Sendable {
  /// Breaks the application gives (its own ads, or a timeline it built).
  case breaks([AdBreak])
  /// One ad tag for every video: a VMAP (its breaks) or a VAST (a pre-roll), told apart
  /// by content.
  case adTag(URL)
  /// The ad tag is the video property of this name (seed 000: the VMAP URL from the
  /// video's properties); videos without it play without ads.
  case adTagProperty(String)
  /// The video's cue points of type `ad` are the breaks; each one's VAST tag is its
  /// property of this name (seed 000: a VAST URL per ad cue point).
  case cuePoints(vastURLProperty: String)
}

/// How an `AdsSessionProvider` fetches and plays ads.
public struct AdsConfiguration: Sendable {
  /// Where the breaks come from.
  public var schedule: AdSchedule
  /// Which breaks a seek past unplayed mid-rolls plays first (default `.last`).
  public var seekMode: AdSeekMode
  /// How long each request of an ad tag's chain (the schedule, a break's VAST and its
  /// wrappers) may take on the player's clock (IAB 301), and how long one ad may take to
  /// start or make progress (402); default 8000.
  public var adTimeoutMs: Int
  /// How many wrappers a VAST chain may have (IAB 302 beyond); default 5.
  public var maxWrapperDepth: Int
  /// How many tracking requests may be in flight at once; more wait their turn. Default 4.
  public var maxBeaconsInFlight: Int
  /// How long before a mid-roll or post-roll its first ad is fetched and opened, paused and
  /// hidden, so that the switch is immediate (default 5000; 0 turns prefetching off). Not
  /// done on a fast-mode clock, where the switch costs no time anyway.
  public var prefetchLeadMs: Int = 5000
  /// Whether an HLS stream's interstitials (RFC 8216bis, Appendix D) play as breaks on
  /// the same timeline as the schedule's (default true: an app that attaches the ads
  /// plug-in plays the ads its streams carry). False leaves them out entirely; to play
  /// only interstitials, give an empty schedule (`.breaks([])`, or `interstitialsOnly`).
  public var playsInterstitials = true
  /// Whether the schedule's breaks describe ads already stitched into the content
  /// (server-side insertion, seed 000's SSAI plug-in): they are never played from their
  /// media files; each one tracks the content's server-side ad period it lines up with
  /// (its start within `stitchAlignmentToleranceMs`), sending its ads' events and beacons
  /// at the period's own times. Breaks that line up with no period are logged and left
  /// out. Default false.
  public var adsAreStitched = false
  /// How far a stitched break's time offset may be from its ad period's start; default
  /// 1000 ms (markers sit on segment boundaries, VMAP offsets on whole seconds).
  public var stitchAlignmentToleranceMs = 1000
  /// Audience-segment key/values appended to ad request URLs as query items (seed 002).
  public var audienceSegmentTargetingValues: [String: String]
  /// Opens an ad's click-through URL; nil leaves it to the application's delegate (the
  /// desktop player sets `xdg-open`).
  public var clickThroughHandler: (@Sendable (URL) -> Void)?

  /// Creates a configuration; every setting but the schedule has its documented default.
  public init(
    schedule: AdSchedule, seekMode: AdSeekMode = .last, adTimeoutMs: Int = 8000,
    maxWrapperDepth: Int = 5, maxBeaconsInFlight: Int = 4,
    audienceSegmentTargetingValues: [String: String] = [:],
    clickThroughHandler: (@Sendable (URL) -> Void)? = nil
  ) {
    self.schedule = schedule
    self.seekMode = seekMode
    self.adTimeoutMs = adTimeoutMs
    self.maxWrapperDepth = maxWrapperDepth
    self.maxBeaconsInFlight = maxBeaconsInFlight
    self.audienceSegmentTargetingValues = audienceSegmentTargetingValues
    self.clickThroughHandler = clickThroughHandler
  }
}

extension AdsConfiguration {
  /// A configuration that plays only the HLS interstitials of the content (no ad tag, no
  /// application breaks); every other setting has its default.
  public static var interstitialsOnly: AdsConfiguration {
    AdsConfiguration(schedule: .breaks([]))
  }
}
