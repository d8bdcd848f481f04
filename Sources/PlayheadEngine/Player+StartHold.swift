import PlayheadCore

/// Keeps a player from starting playback until it is released (see `Player.holdStart()`).
///
/// Releasing twice does nothing; a hold that is dropped without `release()` releases
/// itself.
public final class PlaybackStartHold: Sendable {
  private let released = Locked(false)
  private let onRelease: @Sendable () -> Void

  init(onRelease: @escaping @Sendable () -> Void) {
    self.onRelease = onRelease
  }

  /// Lets the player start (once no other hold is in place).
  public func release() {
    let first = released.withLock { wasReleased -> Bool in
      defer { wasReleased = true }
      return !wasReleased
    }
    if first { onRelease() }
  }

  /// Whether `release()` was called.
  public var isReleased: Bool { released.value }

  deinit { release() }
}

extension Player {
  /// Holds back the start of playback: while any hold is in place the player, asked to
  /// play, waits with `WaitingReason.startHeld` instead of starting, though it goes on
  /// opening and buffering the item. The SDK's text tracks use it in fast mode so that
  /// playback starts once the chosen track's cues are loaded (docs/tracks.md).
  ///
  /// A hold taken before `play()` from the same thread is in place before the player
  /// could start. Once playback has started a hold only keeps a stall or a seek from
  /// resuming, so take it before playing.
  public func holdStart() -> PlaybackStartHold {
    let id = IdentifierSource.next()
    loop.post { $0.startHolds.insert(id) }
    return PlaybackStartHold { [loop] in loop.post { $0.startHolds.remove(id) } }
  }
}
