import Foundation
import Playhead
import PlayheadDesktop
import PlayheadUI

/// The window of `play --playlist`: the controller's sessions in a `PlayerView` (the
/// control bar over the video, unless `--no-controls`) and the sound card, opened when
/// `WindowRequest` says so, as for a single item.
struct PlaylistScreen: Sendable {
  let request: WindowRequest
  let title: String
  /// The sound card, nil when audio is off, written to a file, or no device opened.
  let audioDevice: SDLAudioOutput?
  /// `--json`: the controls' changes are printed as `controlsChanged` lines.
  let printsJSON: Bool

  /// Opens the window on `controller`'s view; keys: space or p pause, f full screen, q or
  /// Esc (or closing the window) end the run. Nil, with a note, when the window cannot open.
  func show(_ controller: PlaybackController, monitor: PlaylistMonitor, console: Console)
    -> PlayerView?
  {
    let options = PlayerViewOptions(
      automaticControlTypeSelection: request.layout == nil, alwaysCompact: request.isCompact)
    let windowOptions = WindowOptions(
      title: title, size: request.size.map { WindowSize(width: $0.width, height: $0.height) },
      isFullscreen: request.isFullscreen, gravity: request.gravity,
      background: request.background, rendering: request.rendering)
    let holder = Locked<PlayerView?>(nil)
    do {
      let view = try PlayerView(
        playbackController: controller, options: options, windowOptions: windowOptions
      ) { event in
        guard let view = holder.value else { return }
        Self.handle(event, view: view, monitor: monitor)
      }
      if let kind = request.layout { view.controlsView.install(.provided(kind)) }
      if request.hidesControls { view.controlsView.install(Self.noControls) }
      if printsJSON {
        view.controlsView.onControlsChange = { tags in
          console.line(ControlsChangedLine.json(tags))
        }
      }
      holder.withLock { $0 = view }
      return view
    } catch {
      console.errorLine("playhead: window: \(error.message); playing without a window")
      return nil
    }
  }

  /// A layout without rows: `--no-controls`.
  static let noControls = ControlLayout(standardRows: [], compactRows: [])

  private static func handle(_ event: WindowEvent, view: PlayerView, monitor: PlaylistMonitor) {
    switch event {
    case .key(.space), .key(.p):
      view.togglePause()
    case .key(.f): view.window.setFullscreen(!view.window.isFullscreen)
    case .key(.q), .key(.escape), .closeRequested: monitor.quit()
    default: break
    }
  }
}

extension PlayCommand {
  /// The playlist's window and sound card when the run has a display (or `--window`); nil
  /// when it plays headless.
  func openPlaylistScreen(console: Console) throws(PlayheadError) -> PlaylistScreen? {
    guard window.opensWindow(fast: playback.fast, videoDisabled: playback.isVideoDisabled) else {
      return nil
    }
    guard WindowRequest.hasDisplay() else {
      throw PlayheadError(
        .invalidState, "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set)")
    }
    var device: SDLAudioOutput?
    if !playback.isAudioDisabled && sinks.wavPath == nil {
      do {
        device = try SDLAudioOutput()
      } catch {
        console.errorLine("playhead: audio: \(error.message); playing without sound")
      }
    }
    let name = URL(fileURLWithPath: playlist?.path ?? "playlist").lastPathComponent
    return PlaylistScreen(
      request: window, title: "\(name) - Playhead", audioDevice: device, printsJSON: output.json)
  }
}
