import Foundation
import PlayheadCore
import PlayheadEngine

/// A session provider that gives every session a `TextTrackController`
/// (`session.textTracks`): the video's WebVTT text tracks and the stream's subtitle
/// renditions become selectable text tracks, and the selected track's cues reach the
/// delegate and consumers as `textCueEnter` / `textCueExit` lifecycle events (seed 000
/// "sidecar subtitles").
///
/// It asks its `upstream` (the basic provider when nil) for the session and attaches its
/// plug-in; stack other providers on it, or it on them, as in seed 000's "combining
/// plug-ins". Bumpers and sessions without a player get no text tracks. The session's
/// text-track events are sent as lifecycle events: `textTrackChanged`, `textTrackLoaded`,
/// `textTrackFailedToLoad` (with the error), `textCueEnter`, `textCueExit` (docs/tracks.md).
public final class SidecarSubtitlesSessionProvider: PlaybackSessionProvider {
  /// The provider this one hands the session request to (nil: the basic provider).
  public let upstream: (any PlaybackSessionProvider)?
  /// The settings each session's text-track controller is made with.
  public let configuration: TextTrackConfiguration

  init(upstream: (any PlaybackSessionProvider)?, configuration: TextTrackConfiguration) {
    self.upstream = upstream
    self.configuration = configuration
  }

  public func makeSession(for video: Video, context: PlaybackSessionContext) -> PlaybackSession {
    let session = makeUpstreamSession(for: video, context: context)
    guard !context.isBumper, let player = session.player else { return session }
    let controller = TextTrackController(
      player: player, sidecarTracks: session.video.textTracks, configuration: configuration,
      contentURL: session.source?.url)
    session.attach(TextTrackSessionPlugin(controller: controller, session: session))
    return session
  }
}

/// The plug-in attached to a session: sends the controller's events as the session's
/// lifecycle events and closes the controller when the session ends.
final class TextTrackSessionPlugin: PlaybackSessionConsumer, Sendable {
  let controller: TextTrackController
  /// Held weakly: the session holds this plug-in.
  private weak let session: PlaybackSession?
  private let clock: any Clock

  init(controller: TextTrackController, session: PlaybackSession) {
    self.controller = controller
    self.session = session
    self.clock = session.player?.clock ?? HostClock.shared
    let player = session.player
    controller.addObserver(queue: controller.work) { [weak session, clock] event in
      guard let session, !session.isTerminated else { return }
      session.send(
        LifecycleEvent.textTrack(
          event, clockTime: clock.now, currentTime: player?.currentTime() ?? .invalid))
    }
  }

  func playbackSession(_ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent) {
    if lifecycleEvent.type == .terminate { controller.close() }
  }

  deinit {
    controller.close()
  }
}

extension PlaybackSession {
  /// The session's text tracks, when a sidecar-subtitles provider made it (the first such
  /// plug-in attached); nil otherwise.
  public var textTracks: TextTrackController? {
    attachedPlugin(ofType: TextTrackSessionPlugin.self)?.controller
  }
}

extension PlayerSDKManager {
  /// A provider that adds text tracks to every session: the video's sidecar WebVTT tracks
  /// and the stream's subtitle renditions, chosen by `configuration.preferences`.
  ///
  /// `upstream` makes the sessions it adds to (the basic provider when nil).
  public func createSidecarSubtitlesSessionProvider(
    upstream: (any PlaybackSessionProvider)? = nil,
    configuration: TextTrackConfiguration = TextTrackConfiguration()
  ) -> SidecarSubtitlesSessionProvider {
    SidecarSubtitlesSessionProvider(upstream: upstream, configuration: configuration)
  }
}
