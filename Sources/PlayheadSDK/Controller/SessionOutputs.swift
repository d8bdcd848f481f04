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
final class ControllerAudioOutput: AudioSink, Sendable {
  private let target: any AudioSink

  init(_ target: any AudioSink) {
    self.target = target
  }

  var format: AudioOutputFormat { target.format }

  func write(_ buffer: AudioBuffer) throws(PlayheadError) {
    try target.write(buffer)
  }

  func finish() throws(PlayheadError) {}

  func finishTarget() throws(PlayheadError) {
    try target.finish()
  }
}
