import Foundation
import PlayheadCore
import PlayheadEngine

/// Records a player's events, its periodic-observer times and its boundary hits, in the
/// order the player produced them, and lets a test wait for what it expects.
///
/// Events arrive on one serial queue (`queue`); pass it to the player's time observers
/// (with `recordPeriodic` and `recordBoundary`) to keep their order relative to the events.
/// The waits are guarded by a real-time limit that only ends a hang: they return as soon as
/// the player has produced what they wait for, and report a timeout by their result.
public final class PlayerEventRecorder: @unchecked Sendable {
  // Unchecked Sendable: the recorded values are guarded by `condition`, on which the waits
  // block; everything else is immutable.

  /// The serial queue the events are delivered on.
  public let queue = DispatchQueue(label: "playhead.testing.events")
  private let condition = NSCondition()
  private var storage: [PlayerEvent] = []
  private var periodic: [MediaTime] = []
  private var boundaries = 0

  /// Starts recording `player`'s events (the observer first receives the current state).
  public init(_ player: Player) {
    player.addEventObserver(queue: queue) { [self] event in
      condition.lock()
      storage.append(event)
      condition.broadcast()
      condition.unlock()
    }
  }

  /// A player for the media at `url` with a recorder that has heard every one of its
  /// events: the recorder is attached before the item starts loading, so an item that
  /// fails (or refreshes a URL) at once cannot do so before the recording starts.
  ///
  /// `Player(url:)` followed by `PlayerEventRecorder(player)` gives the current state
  /// instead of the events that led to it, when loading was quicker than the caller.
  public static func recordingPlayer(
    url: URL, configuration: PlayerConfiguration = PlayerConfiguration()
  ) -> (Player, PlayerEventRecorder) {
    recordingPlayer(
      PlayerItem(asset: Asset(url: url)), configuration: configuration)
  }

  /// A player for `item` with a recorder that has heard every one of its events (see
  /// `recordingPlayer(url:configuration:)`).
  public static func recordingPlayer(
    _ item: PlayerItem, configuration: PlayerConfiguration = PlayerConfiguration()
  ) -> (Player, PlayerEventRecorder) {
    let player = Player(configuration: configuration)
    let recorder = PlayerEventRecorder(player)
    player.replaceCurrentItem(with: item)
    return (player, recorder)
  }

  /// A queue player for `items` with a recorder that has heard every one of its events
  /// (see `recordingPlayer(url:configuration:)`): the items are queued once the recorder
  /// is attached.
  public static func recordingQueuePlayer(
    items: [PlayerItem], configuration: PlayerConfiguration = PlayerConfiguration()
  ) -> (QueuePlayer, PlayerEventRecorder) {
    let player = QueuePlayer(items: [], configuration: configuration)
    let recorder = PlayerEventRecorder(player)
    for item in items { player.insert(item, after: nil) }
    return (player, recorder)
  }

  /// The events so far, in order.
  public var events: [PlayerEvent] {
    condition.lock()
    defer { condition.unlock() }
    return storage
  }

  /// The names of the events so far (`PlayerEvent.name`), in order.
  public var names: [String] { events.map(\.name) }

  /// The times `recordPeriodic` was called with, in order.
  public var periodicTimes: [MediaTime] {
    condition.lock()
    defer { condition.unlock() }
    return periodic
  }

  /// How many times `recordBoundary` was called.
  public var boundaryHits: Int {
    condition.lock()
    defer { condition.unlock() }
    return boundaries
  }

  /// Records a periodic observer's time (call it from the observer's block).
  public func recordPeriodic(_ time: MediaTime) {
    condition.lock()
    periodic.append(time)
    condition.broadcast()
    condition.unlock()
  }

  /// Records a boundary observer's hit (call it from the observer's block).
  public func recordBoundary() {
    condition.lock()
    boundaries += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `predicate` holds for the events recorded so far (checked now and after
  /// each new event); false when `timeoutMs` of real time passed first.
  public func waitUntil(
    timeoutMs: Int = 60_000, _ predicate: ([PlayerEvent]) -> Bool
  ) -> Bool {
    waitLocked(timeoutMs: timeoutMs) { predicate(storage) }
  }

  /// Waits for the `count`-th event named `name` and returns it; nil after a timeout.
  public func waitForEvent(named name: String, count: Int = 1, timeoutMs: Int = 60_000)
    -> PlayerEvent?
  {
    guard waitUntil(timeoutMs: timeoutMs, { $0.count { $0.name == name } >= count })
    else { return nil }
    return events.filter { $0.name == name }[count - 1]
  }

  /// Waits until the periodic observer has reported `count` times; false after a timeout.
  public func waitForPeriodic(count: Int, timeoutMs: Int = 60_000) -> Bool {
    waitLocked(timeoutMs: timeoutMs) { periodic.count >= count }
  }

  /// Waits, holding `condition` between checks, until `satisfied` (checked now and after
  /// each change) holds; false when `timeoutMs` of real time passed first.
  private func waitLocked(timeoutMs: Int, _ satisfied: () -> Bool) -> Bool {
    let limit = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
    condition.lock()
    defer { condition.unlock() }
    while !satisfied() {
      if !condition.wait(until: limit) { return satisfied() }
    }
    return true
  }

  /// The names of the events that end an item: it played to its end, failed to, failed to
  /// load, or its preview ended.
  public static let itemEndNames: Set<String> = [
    "didPlayToEnd", "failedToPlayToEnd", "failed", "previewEnded",
  ]

  /// Waits until the item has ended (see `itemEndNames`) and returns that event; nil
  /// after a timeout.
  public func waitForItemEnd(timeoutMs: Int = 60_000) -> PlayerEvent? {
    guard
      waitUntil(
        timeoutMs: timeoutMs, { $0.contains { Self.itemEndNames.contains($0.name) } })
    else { return nil }
    return events.first { Self.itemEndNames.contains($0.name) }
  }
}
