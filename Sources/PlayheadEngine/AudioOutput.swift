import Foundation
import PlayheadCore
import PlayheadMedia

/// How far an audio output device has really played, as a sound card reports it.
public struct AudioOutputProgress: Sendable, Equatable {
  /// Sample frames the device has played since it was created or last flushed.
  public var playedFrameCount: Int
  /// How long a frame the device counts as played takes to be heard (the output latency).
  public var latency: MediaTime

  public init(playedFrameCount: Int, latency: MediaTime) {
    self.playedFrameCount = playedFrameCount
    self.latency = latency
  }
}

/// An audio sink for a device that plays on a clock of its own (a sound card).
///
/// With such a sink the player writes audio ahead of the position, `queueTarget` of it,
/// and the playback position follows what the device says it has played, less its
/// latency: the device is the media clock and video is presented against it
/// (docs/decisions/0030). A sink that is only an `AudioSink` is written to when the
/// position reaches each buffer, and the player's clock leads.
///
/// Calls come from the player's playback thread.
public protocol ClockedAudioSink: AudioSink {
  /// How much audio the player keeps written ahead of what is heard.
  var queueTarget: MediaTime { get }
  /// What the device has played so far.
  func progress() -> AudioOutputProgress
  /// Stops (true) or resumes (false) playing out; a paused device keeps what is queued.
  /// A new sink starts paused.
  func setPaused(_ paused: Bool)
  /// Drops the audio written and not yet played; the played count starts again at zero.
  func flush()
}
