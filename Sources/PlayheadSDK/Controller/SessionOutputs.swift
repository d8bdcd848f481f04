import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadMedia

/// Passes a session's frames to the controller's video view only while the session is the
/// current one, so a session prepared ahead never shows a frame early.
final class SessionVideoGate: VideoSink, Sendable {
  private let target: PlaybackView
  private let open = Locked(false)

  init(target: PlaybackView) {
    self.target = target
  }

  var isOpen: Bool {
    get { open.value }
    set { open.withLock { $0 = newValue } }
  }

  func present(_ frame: VideoFrame, itemTime: MediaTime) throws(PlayheadError) {
    guard isOpen else { return }
    try target.present(frame, itemTime: itemTime)
  }

  func clear() {
    if isOpen { target.clear() }
  }
}

/// The application's audio sink, shared by every session: each session's player writes to
/// it, and only the controller finishes it (when closed), so one file or device outlives
/// the sessions.
protocol SharedAudioOutput: AudioSink {
  /// Finishes the application's sink (the controller closes).
  func finishTarget() throws(PlayheadError)
}

extension SharedAudioOutput {
  func finish() throws(PlayheadError) {}
}

/// The shared output for `target`: one that is a clocked device too when `target` is, so
/// that the device still leads each session's position (docs/decisions/0030).
func makeSharedAudioOutput(_ target: any AudioSink) -> any SharedAudioOutput {
  if let device = target as? any ClockedAudioSink { return ControllerDeviceOutput(device) }
  return ControllerAudioOutput(target)
}

/// A shared output over a plain sink.
final class ControllerAudioOutput: SharedAudioOutput, Sendable {
  private let target: any AudioSink

  init(_ target: any AudioSink) {
    self.target = target
  }

  var format: AudioOutputFormat { target.format }

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    try target.write(buffer)
  }

  func finishTarget() throws(PlayheadError) {
    try target.finish()
  }
}

/// A shared output over a device with a clock of its own.
final class ControllerDeviceOutput: SharedAudioOutput, ClockedAudioSink, Sendable {
  private let target: any ClockedAudioSink

  init(_ target: any ClockedAudioSink) {
    self.target = target
  }

  var format: AudioOutputFormat { target.format }
  var queueTarget: MediaTime { target.queueTarget }

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    try target.write(buffer)
  }

  func progress() -> AudioOutputProgress { target.progress() }
  func setPaused(_ paused: Bool) { target.setPaused(paused) }
  func flush() { target.flush() }

  func finishTarget() throws(PlayheadError) {
    try target.finish()
  }
}
