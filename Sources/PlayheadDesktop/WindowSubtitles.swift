import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadOverlay

/// Draws a player's active subtitle cues on a window's picture, with libass (SPEC K8).
///
/// It follows the player's events (a cue entering or leaving, a seek, a new item) and
/// redraws the cues of the current item at the size the picture covers in the window, so
/// the text stays sharp at any window size; call `refresh()` after the window is resized.
/// Which track shows is the item's selection (`selectTextTrack`, `selectSubtitleRendition`);
/// with none, nothing is drawn. Drawing happens on a serial queue of its own.
///
/// ```swift
/// let subtitles = try WindowSubtitles(window: window, player: player)
/// ```
public final class WindowSubtitles: Sendable {
  private let window: WindowVideoSink
  private weak let player: Player?
  private let queue = DispatchQueue(label: "playhead.window.subtitles")
  private let renderer: SubtitleOverlayRenderer
  private let observer = Locked<ObserverToken?>(nil)

  /// Starts drawing `player`'s cues on `window` in `style`; throws `.decoderUnavailable`
  /// when libass cannot start.
  public init(window: WindowVideoSink, player: Player, style: SubtitleStyle = .standard)
    throws(PlayheadError)
  {
    self.window = window
    self.player = player
    renderer = try SubtitleOverlayRenderer(style: style)
    let id = player.addEventObserver(queue: queue) { [weak self] event in
      switch event.kind {
      case .textCueEntered, .textCueExited, .seekCompleted, .currentItemChanged,
        .textTrackLoaded:
        self?.draw()
      default: break
      }
    }
    observer.withLock { $0 = id }
  }

  /// Redraws the current cues now (after a resize, a fullscreen change, a track change).
  public func refresh() {
    queue.async { [self] in draw() }
  }

  /// Stops drawing and removes the cues from the window.
  public func close() {
    let token = observer.withLock { token -> ObserverToken? in
      defer { token = nil }
      return token
    }
    if let token { player?.removeEventObserver(token) }
    queue.sync {}
    window.setOverlay(nil, layer: .picture)
  }

  /// Draws the active cues at the picture's size. Runs on `queue`.
  private func draw() {
    guard observer.value != nil else { return }
    let cues = player?.currentItem?.activeTextCues.map(\.cue) ?? []
    guard let rect = window.pictureRect, !cues.isEmpty else {
      window.setOverlay(nil, layer: .picture)
      return
    }
    guard
      let overlay = try? renderer.overlay(
        for: cues, width: rect.width, height: rect.height)
    else { return }
    window.setOverlay(overlay.isEmpty ? nil : overlay.image, layer: .picture)
  }
}
