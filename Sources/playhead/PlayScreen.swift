import Foundation
import Playhead
import PlayheadDesktop

/// The window and the sound card of `play`: opened when `WindowRequest` says so, they
/// replace the headless sinks (the window goes beside `--frames`, the device stands in for
/// no sink; `--wav` keeps the file).
struct PlayScreen: Sendable {
  let controls: WindowControls
  /// The sound card, nil when audio is off, written to a file, or no device opened.
  let audioDevice: SDLAudioOutput?

  /// Sets the window as the video sink (beside an existing one) and the device as the
  /// audio sink when there is no other.
  func install(in configuration: inout PlayerConfiguration) {
    if let frames = configuration.videoSink {
      configuration.videoSink = PlaybackView(outputs: [controls.window, frames])
    } else {
      configuration.videoSink = controls.window
    }
    if configuration.audioSink == nil, let audioDevice { configuration.audioSink = audioDevice }
  }

  /// Closes the window; the player has finished the device already.
  func close() {
    controls.close()
  }
}

extension PlayCommand {
  /// Opens the window and the audio device when the run has a display (or `--window`);
  /// nil when it plays headless. A device that cannot open is reported on standard error
  /// and playback goes on without sound; a window that cannot open is an error only with
  /// `--window`, else `play` goes on headless with a note.
  func openScreen(for url: URL, console: Console) throws(PlayheadError) -> PlayScreen? {
    guard window.opensWindow(fast: playback.fast, videoDisabled: playback.isVideoDisabled) else {
      return nil
    }
    guard WindowRequest.hasDisplay() else {
      // Only `--window` gets here: SDL would fall back to an invisible driver.
      throw PlayheadError(
        .invalidState, "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set)")
    }
    let controls: WindowControls
    do {
      controls = try WindowControls(
        request: window, title: "\(url.lastPathComponent) - Playhead", console: console,
        quiet: output.quiet || output.json, json: output.json)
    } catch {
      if window.isRequired { throw error }
      console.errorLine("playhead: window: \(error.message); playing without a window")
      return nil
    }
    var device: SDLAudioOutput?
    if !playback.isAudioDisabled && sinks.wavPath == nil {
      do {
        device = try SDLAudioOutput()
      } catch {
        console.errorLine("playhead: audio: \(error.message); playing without sound")
      }
    }
    return PlayScreen(controls: controls, audioDevice: device)
  }
}
