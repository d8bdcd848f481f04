import Foundation
import PlayheadCore

/// A player that plays a queue of items back to back.
///
/// The next item is opened and buffered while the current one finishes, and starts on
/// the same clock instant the current one ends, so there is no gap. Items that fail to
/// open are skipped.
public final class QueuePlayer: Player, @unchecked Sendable {
  // Unchecked Sendable: restates `Player`'s; it adds no stored properties.
  /// Creates a queue player with `items` (the first becomes current).
  public init(items: [PlayerItem], configuration: PlayerConfiguration = PlayerConfiguration()) {
    super.init(configuration: configuration, actionAtItemEnd: .advance, items: items)
  }

  /// The items in the queue, the current one first.
  public func items() -> [PlayerItem] {
    loop.read { $0.items }
  }

  /// Ends the current item and makes the next one current.
  public func advanceToNextItem() {
    loop.post { loop in
      guard !loop.queue.isEmpty else { return }
      loop.queue.removeFirst()
      loop.activateHead()
      if let next = loop.current { loop.anchor(next, at: .zero, clock: loop.clock.now) }
    }
  }

  /// Whether `item` could be inserted after `afterItem` (false when it is already queued).
  public func canInsert(_ item: PlayerItem, after afterItem: PlayerItem?) -> Bool {
    let queued = items()
    guard !queued.contains(item) else { return false }
    return afterItem.map { queued.contains($0) } ?? true
  }

  /// Inserts `item` after `afterItem`, or at the end when `afterItem` is nil.
  public func insert(_ item: PlayerItem, after afterItem: PlayerItem?) {
    loop.post { loop in
      guard !loop.queue.contains(item) else { return }
      if let afterItem, let index = loop.queue.firstIndex(of: afterItem) {
        loop.queue.insert(item, at: index + 1)
        if index == 0, let preloaded = loop.preloaded, preloaded.item !== item {
          preloaded.loader.stop()
          loop.preloaded = nil
        }
      } else {
        loop.queue.append(item)
      }
      if loop.current == nil { loop.activateHead() }
    }
  }

  /// Removes `item` from the queue; removing the current item advances.
  public func remove(_ item: PlayerItem) {
    loop.post { loop in
      guard let index = loop.queue.firstIndex(of: item) else { return }
      loop.queue.remove(at: index)
      if index == 0 {
        loop.activateHead()
      } else {
        if loop.preloaded?.item === item {
          loop.preloaded?.loader.stop()
          loop.preloaded = nil
        }
      }
    }
  }

  /// Removes every item; playback stops.
  public func removeAllItems() {
    loop.post { loop in
      loop.queue.removeAll()
      loop.activateHead()
    }
  }
}
