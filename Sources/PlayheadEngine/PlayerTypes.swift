import Foundation
import PlayheadCore
import PlayheadMedia

/// Whether a player can play, after it has been given an item.
public enum PlayerStatus: Sendable, Equatable {
  /// Nothing has been loaded yet.
  case unknown
  /// The player has opened an item and can play it.
  case readyToPlay
  /// The player failed and cannot be used again; `error` says why.
  case failed(PlayheadError)
}

/// Why a player that was asked to play is not yet playing.
public enum WaitingReason: String, Sendable, Equatable {
  /// The buffer is too short to start or keep playing without stalling.
  case toMinimizeStalls
  /// The player is still measuring how fast data arrives.
  case evaluatingBufferingRate
  /// The player has no current item.
  case noItemToPlay
  /// A start hold is in place (`Player.holdStart()`): the SDK's text tracks are loading.
  case startHeld
}

/// Whether playback is paused, waiting, or playing.
public enum TimeControlStatus: Sendable, Equatable {
  /// The rate is 0.
  case paused
  /// The rate is non-zero but playback waits for the given reason.
  case waitingToPlayAtSpecifiedRate(WaitingReason)
  /// Frames are being presented at the rate.
  case playing
}

/// What the player does when its current item ends.
public enum ActionAtItemEnd: Sendable, Equatable {
  /// Move to the next item (the default for `QueuePlayer`).
  case advance
  /// Pause at the end (the default for `Player`).
  case pause
  /// Do nothing; the position stays at the end and the rate is unchanged.
  case none
}

/// The token returned when an observer is added; pass it back to remove the observer.
public struct ObserverToken: Hashable, Sendable {
  let id: UInt64
}

/// How the item's audio is stretched at rates other than 1 (time-domain keeps the pitch
/// and is the default; varispeed lets the pitch follow the rate).
public typealias AudioTimePitchAlgorithm = TimePitchAlgorithm

/// A monotonically increasing ID source for observers and items.
enum IdentifierSource {
  static func next() -> UInt64 { ProcessUniqueID.next() }
}
