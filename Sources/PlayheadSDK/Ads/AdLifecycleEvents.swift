import Foundation
import PlayheadAds

extension LifecycleEventType {
  /// An ad break (a pod) starts; `properties` carry `breakId`, `breakTime` (content
  /// seconds, -1 for a post-roll), `position` and `adCount`.
  public static let adSequenceEnter = LifecycleEventType(rawValue: "adSequenceEnter")
  /// The ad break ended (every ad played, skipped or failed); the content takes over.
  public static let adSequenceExit = LifecycleEventType(rawValue: "adSequenceExit")
  /// One ad starts; `properties` add `adId`, `sequence` (1-based place in the pod),
  /// `duration` and `title`.
  public static let adEnter = LifecycleEventType(rawValue: "adEnter")
  /// One ad ended (played, skipped or failed).
  public static let adExit = LifecycleEventType(rawValue: "adExit")
  /// The ad's play position moved: `currentTime` is the ad's own time, `properties`
  /// carry its `duration`.
  public static let adProgress = LifecycleEventType(rawValue: "adProgress")
  /// The ad was paused (`pauseAd`, or `pause` during an ad).
  public static let adPaused = LifecycleEventType(rawValue: "adPaused")
  /// The ad resumed.
  public static let adResumed = LifecycleEventType(rawValue: "adResumed")
  /// The viewer skipped the ad.
  public static let adSkipped = LifecycleEventType(rawValue: "adSkipped")
  /// The viewer followed the ad's click-through (`properties["url"]`).
  public static let adClickThrough = LifecycleEventType(rawValue: "adClickThrough")
  /// An ad or a break failed; `properties["code"]` is the IAB VAST error code. The next ad,
  /// or the content, plays.
  public static let adError = LifecycleEventType(rawValue: "adError")
  /// A tracking URL was sent: `properties` carry `event`, `url`, and `status` (HTTP) or
  /// `error` (the transfer's message).
  public static let adBeacon = LifecycleEventType(rawValue: "adBeacon")
}
