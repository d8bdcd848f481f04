import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadSDK
import PlayheadUI

/// A playback controller's video in a window with the player UI's controls over it, seed
/// 000's `BCOVPUIPlayerView(playbackController:options:)`.
///
/// The window is added to the controller's `view` as an output, so every session's frames
/// show in it; the controls follow the current session's player, mark its cue points on the
/// slider, show the session's thumbnails above the slider while it is hovered or dragged
/// (`thumbnailSeekingEnabled`), pick the provided layout per session
/// (`automaticControlTypeSelection`), and hide during a bumper unless `showBumperControls`.
/// While an ad plays it shows the ad controls (badge and countdown, skip, "Learn more",
/// reachable with Tab and Return) and marks the breaks still to play on the slider. Play, pause and seek go through the
/// controller, as the seed asks of its controls. A click that no control takes toggles
/// pause and a double click toggles full screen; other window events go to `onEvent`.
///
/// ```swift
/// let controller = PlayerSDKManager.shared.createPlaybackController()
/// let playerView = try PlayerView(playbackController: controller)
/// controller.setVideos([video])
/// ```
public final class PlayerView: PlaybackSessionConsumer, Sendable {
  /// The window showing the video and the controls.
  public let window: WindowVideoSink
  /// The controls (the seed's `controlsView`).
  public let controlsView: WindowPlayerControls
  /// The controller whose sessions play in the window.
  public let playbackController: PlaybackController
  private let onEvent: (@Sendable (WindowEvent) -> Void)?

  /// Opens a window titled by `windowOptions` on `playbackController`'s view, with controls
  /// as `options` say. Throws the window's error, or when libass cannot start.
  public init(
    playbackController controller: PlaybackController,
    options: PlayerViewOptions = PlayerViewOptions(),
    windowOptions: WindowOptions = WindowOptions(title: "Playhead"),
    localization: Localization = .shared,
    onEvent: (@Sendable (WindowEvent) -> Void)? = nil
  ) throws(PlayheadError) {
    let route = Locked<(@Sendable (WindowEvent) -> Void)?>(nil)
    let window = try WindowVideoSink(options: windowOptions) { event in route.value?(event) }
    self.window = window
    playbackController = controller
    self.onEvent = onEvent
    let performer: @Sendable (ControlsAction) -> Bool = { [weak controller] action in
      guard let controller else { return false }
      switch action {
      case .play: controller.play()
      case .pause: controller.pause()
      case .seek(let seconds):
        controller.seek(to: MediaTime(seconds: seconds, preferredTimescale: 1000))
      case .skipAd: controller.skipAd()
      case .openAdClickThrough: controller.openAdClickThrough()
      default: return false
      }
      return true
    }
    do {
      controlsView = try WindowPlayerControls(
        window: window, clock: controller.clock, options: options, localization: localization,
        currentPlayer: { [weak controller] in controller?.currentSession?.player },
        performer: performer)
    } catch {
      window.close()
      throw error
    }
    controlsView.thumbnailProvider = { [weak controller] time in
      guard let controller, controller.thumbnailSeekingEnabled else { return nil }
      return try? await controller.thumbnail(at: time)?.image
    }
    controlsView.adsProvider = { [weak controller] in
      controller.map(ControlsAds.init(controller:)) ?? ControlsAds()
    }
    controller.view.addOutput(window)
    controller.addSessionConsumer(self)
    route.withLock { handler in
      handler = { [weak self] event in self?.handle(event) }
    }
  }

  /// Closes the controls and the window and stops following the controller.
  public func close() {
    playbackController.removeSessionConsumer(self)
    playbackController.view.removeOutput(window)
    controlsView.close()
    window.close()
  }

  private func handle(_ event: WindowEvent) {
    if controlsView.handle(event) { return }
    switch event {
    case .click:
      togglePause()
    case .doubleClick:
      togglePause()  // undoes the first click of the pair
      window.setFullscreen(!window.isFullscreen)
    default:
      break
    }
    onEvent?(event)
  }

  /// Whether the ad on screen, or else the content, is playing (not paused).
  public var isPlaying: Bool {
    if let ad = playbackController.adPlaybackStatus { return !ad.isPaused }
    return (playbackController.currentSession?.player?.rate ?? 0) != 0
  }

  /// Pauses what plays (the ad on screen, or the content), or plays it when paused.
  public func togglePause() {
    if isPlaying { playbackController.pause() } else { playbackController.play() }
  }

  // MARK: PlaybackSessionConsumer

  public func didAdvanceTo(_ session: PlaybackSession) {
    controlsView.isBumper = false
    controlsView.markerTimes = session.video.cuePoints.cuePoints.compactMap {
      $0.position.time?.seconds
    }
  }

  public func playbackSession(
    _ session: PlaybackSession, didReceive lifecycleEvent: LifecycleEvent
  ) {
    switch lifecycleEvent.type {
    case .bumperEnter, .bumperResume: controlsView.isBumper = true
    case .bumperExit, .bumperFailedToPlayToEndTime: controlsView.isBumper = false
    default: break
    }
  }
}
