import Foundation
import Playhead

/// Starts `play` once every condition it waits for is met: the subtitle track loaded
/// (`--subtitles`), the item ready so that `--duration` can count from where playback
/// starts (a live stream starts near its edge, not at 0).
final class PlayStart: Sendable {
  private weak let player: Player?
  private let waiting: Locked<Int>

  /// Waits for `conditions` calls of `met()` (after `begin()`) before playing.
  init(player: Player, conditions: Int) {
    self.player = player
    self.waiting = Locked(conditions + 1)
  }

  /// Called once the item is set: plays at once when nothing else is waited for.
  func begin() { met() }

  /// One condition is met; the last one starts playback.
  func met() {
    let start = waiting.withLock { waiting in
      waiting -= 1
      return waiting == 0
    }
    if start { player?.play() }
  }

  /// Sets `item`'s forward end to `duration` after the position it starts from, once it is
  /// ready (the ready event carries that position), then counts as met.
  func endAfter(_ duration: MediaTime, of item: PlayerItem, on queue: DispatchQueue) {
    guard let player else { return }
    let done = Once()
    player.addEventObserver(queue: queue) { [self] event in
      guard case .itemStatusChanged(let ready, .readyToPlay) = event.kind, ready === item,
        done.take()
      else { return }
      let start = event.itemTime.isNumeric ? event.itemTime : .zero
      item.forwardPlaybackEndTime = start + duration
      met()
    }
  }
}

/// A flag that can be taken once.
private final class Once: Sendable {
  private let taken = Locked(false)

  func take() -> Bool {
    taken.withLock { taken in
      if taken { return false }
      taken = true
      return true
    }
  }
}
