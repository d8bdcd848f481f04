import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadEngine

/// A session provider that gives every session client-side ads (seed 000's ad plug-ins
/// on open standards: VMAP, VAST, ad cue points): pre-, mid- and post-roll breaks played
/// through the same engine, with the ad lifecycle events, tracking beacons and the
/// controller's ad API (`pauseAd`, `resumeAd`, `skipAd`, `seekWithoutAds`, `adsDisabled`).
///
/// It asks its `upstream` (the basic provider when nil) for the session and attaches its
/// plug-in, so it stacks with `SidecarSubtitlesSessionProvider` in either order (seed 000's
/// "combining plug-ins"). Bumpers and sessions without a player get no ads. Fetching the
/// schedule starts when the session is made and never blocks the controller; a first play
/// waits for it (each of its requests bounded by `adTimeoutMs`) and for the content to be
/// ready, so that a pre-roll plays first and the breaks are placed with the duration.
public final class AdsSessionProvider: PlaybackSessionProvider {
  /// The provider this one hands the session request to (nil: the basic provider).
  public let upstream: (any PlaybackSessionProvider)?
  /// How ads are fetched and played.
  public let configuration: AdsConfiguration

  /// Creates a provider over `upstream` (nil: the basic provider).
  public init(upstream: (any PlaybackSessionProvider)? = nil, configuration: AdsConfiguration) {
    self.upstream = upstream
    self.configuration = configuration
  }

  public func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession {
    let session = makeUpstreamSession(for: video, context: context)
    guard !context.isBumper, session.player != nil else { return session }
    session.attach(
      AdsSessionPlugin(
        configuration: configuration, video: session.video,
        playerConfiguration: context.playerConfiguration))
    return session
  }
}

extension PlayerSDKManager {
  /// Makes an ads session provider over `upstream` (seed 000's plug-in factory shape).
  public func createAdsSessionProvider(
    upstream: (any PlaybackSessionProvider)? = nil, configuration: AdsConfiguration
  ) -> AdsSessionProvider {
    AdsSessionProvider(upstream: upstream, configuration: configuration)
  }
}
