import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Follows the bumper's player: progress, end and failure. Call on the queue.
  func observeBumper(_ bumper: BumperRuntime, of runtime: SessionRuntime) {
    guard let player = bumper.session.player else { return }
    let interval = readSettings { $0.progressInterval }
    bumper.observerTokens.append(
      player.addEventObserver(queue: queue) { [weak self, weak runtime, weak bumper] event in
        guard let self, let runtime, let bumper, runtime === self.current, !bumper.hasFinished
        else { return }
        self.handleBumper(event, bumper: bumper, of: runtime)
      })
    bumper.observerTokens.append(
      player.addPeriodicTimeObserver(forInterval: interval, queue: queue) {
        [weak self, weak runtime, weak bumper] time in
        guard let self, let runtime, let bumper, runtime === self.current, bumper.hasStarted,
          !bumper.hasFinished
        else { return }
        self.sendLifecycle(.bumperProgress, runtime, time: time)
      })
  }

  /// Starts or resumes the bumper. Call on the queue.
  func playBumper(_ bumper: BumperRuntime, of runtime: SessionRuntime) {
    guard let player = bumper.session.player else { return }
    if !bumper.hasStarted {
      bumper.hasStarted = true
      bumper.isPlaying = true
      sendLifecycle(.bumperEnter, runtime, time: .zero)
    } else if !bumper.isPlaying {
      bumper.isPlaying = true
      sendLifecycle(.bumperResume, runtime, time: player.currentTime())
    }
    player.play()
  }

  /// Pauses the bumper. Call on the queue.
  func pauseBumper(_ bumper: BumperRuntime, of runtime: SessionRuntime) {
    guard let player = bumper.session.player else { return }
    player.pause()
    guard bumper.hasStarted, bumper.isPlaying else { return }
    bumper.isPlaying = false
    sendLifecycle(.bumperPause, runtime, time: player.currentTime())
  }

  private func handleBumper(_ event: PlayerEvent, bumper: BumperRuntime, of runtime: SessionRuntime)
  {
    switch event.kind {
    case .didPlayToEnd:
      finishBumper(bumper, of: runtime, error: nil)
    case .failedToPlayToEnd(_, let error), .itemStatusChanged(_, .failed(let error)):
      finishBumper(bumper, of: runtime, error: error)
    default:
      return
    }
  }

  /// The bumper ended or failed: `bumperExit` (after `bumperFailedToPlayToEndTime` on
  /// failure), then the content plays if the bumper was playing.
  private func finishBumper(
    _ bumper: BumperRuntime, of runtime: SessionRuntime, error: PlayheadError?
  ) {
    let wasPlaying = bumper.isPlaying || !bumper.hasStarted
    bumper.hasFinished = true
    bumper.isPlaying = false
    let time = bumper.session.player?.currentTime() ?? .invalid
    if let error {
      sendLifecycle(.bumperFailedToPlayToEndTime, runtime, error: error, time: time)
    }
    sendLifecycle(.bumperExit, runtime, time: time)
    bumper.videoGate.isOpen = false
    for token in bumper.observerTokens {
      bumper.session.player?.removeEventObserver(token)
      bumper.session.player?.removeTimeObserver(token)
    }
    bumper.observerTokens.removeAll()
    _ = bumper.session.terminate()
    if wasPlaying && bumper.hasStarted { playContent(runtime) }
  }
}
