import Foundation
import PlayheadCore
import PlayheadEngine

/// The controller's working state for one session.
///
/// Only the controller's queue reads or writes it (closures capture it to check identity
/// there), hence the unchecked `Sendable`.
final class SessionRuntime: @unchecked Sendable {
  // Unchecked Sendable: the `var`s are touched only on the controller's queue.
  let session: PlaybackSession
  let videoGate: SessionVideoGate
  var listIndex = 0
  var observerTokens: [ObserverToken] = []
  var isReady = false
  var hasPlayed = false
  var hasEnded = false
  var hasFailed = false
  /// Set once the controller acted on the session's end (autoAdvance moves on only once).
  var didMoveOn = false
  var isPlaying = false
  var isResuming = false
  /// The rate last applied to the player (1 until the item is ready).
  var appliedRate: Float = 1
  var mediaTypeSent = false
  /// Where the session is in the buffer-empty / likely-to-keep-up cycle, which the seed
  /// reports only at start, after seeks and in stalls.
  var bufferPhase = BufferPhase.waiting(emptySent: false)
  var cues: CuePointTracker
  var qoe = QoETracker()
  var bumper: BumperRuntime?
  /// The session's ads, when its provider chain gave it the ads plug-in.
  var ads: AdRuntime?
  /// Whether the content itself has been told to play (after any pre-roll).
  var hasStartedContent = false
  /// The thumbnails track and pictures (made when thumbnail seeking needs them).
  var thumbnails: SessionThumbnails?

  init(session: PlaybackSession, videoGate: SessionVideoGate) {
    self.session = session
    self.videoGate = videoGate
    self.cues = CuePointTracker(cuePoints: session.video.cuePoints)
  }

  /// The content player, when the session has one.
  var player: Player? { session.player }

  /// Whether the bumper is still to play or playing.
  var isInBumper: Bool {
    guard let bumper else { return false }
    return !bumper.hasFinished
  }
}

/// A bumper played before a session's content; owned by the controller's queue like
/// `SessionRuntime`.
final class BumperRuntime: @unchecked Sendable {
  // Unchecked Sendable: the `var`s are touched only on the controller's queue.
  let session: PlaybackSession
  let videoGate: SessionVideoGate
  var observerTokens: [ObserverToken] = []
  var hasStarted = false
  var hasFinished = false
  var isPlaying = false

  init(session: PlaybackSession, videoGate: SessionVideoGate) {
    self.session = session
    self.videoGate = videoGate
  }
}

/// Whether a session waits for its buffer (start, seek, stall) and has said so.
enum BufferPhase: Equatable {
  /// Waiting for enough media; `emptySent` once `playbackBufferEmpty` went out.
  case waiting(emptySent: Bool)
  /// Playing from a healthy buffer: the engine's buffer changes are not reported.
  case idle
}
