import Foundation
import PlayheadCore

/// What the playback loop logs (docs/logging.md): an item's opening, readiness and
/// failure, and stalls at info; seek requests at debug. Every entry names the item
/// (`item` metadata, `PlayerItem.id`). One call per event at the place it happens.
extension PlaybackLoop {
  /// The player's logger with `item`'s id in its metadata, for the item's loaders.
  func logger(for item: PlayerItem) -> Logger {
    var logger = configuration.logger
    logger[metadataKey: "item"] = "\(item.id)"
    return logger
  }

  /// Logs that `item` starts to open.
  func logItemOpening(_ item: PlayerItem) {
    configuration.logger.info(
      "item opening", metadata: ["item": "\(item.id)", "url": .url(item.asset.url)])
  }

  /// Logs that the active item opened, with what it holds.
  func logItemReady(_ active: ActiveItem, _ media: OpenedMedia) {
    configuration.logger.info(
      "item ready",
      metadata: [
        "item": "\(active.item.id)", "kind": "\(media.streamKind.rawValue)",
        "duration": .seconds(media.duration), "tracks": "\(media.tracks.count)",
        "variants": "\(media.variants.count)",
      ])
  }

  /// Logs that the active item failed to open or to play on.
  func logItemFailed(_ active: ActiveItem, _ error: PlayheadError) {
    configuration.logger.info(
      "item failed",
      metadata: [
        "item": "\(active.item.id)", "code": "\(error.code.rawValue)", "error": "\(error.message)",
      ])
  }

  /// Logs that playback stalled: the media ran out at the active item's position.
  func logStallBegan(_ active: ActiveItem) {
    configuration.logger.info(
      "stall began",
      metadata: [
        "item": "\(active.item.id)", "position": .seconds(active.position),
        "stalls": "\(active.stallCount)",
      ])
  }

  /// Logs that playback resumed after a stall of `duration` (clock time).
  func logStallEnded(_ active: ActiveItem, after duration: MediaTime) {
    configuration.logger.info(
      "stall ended",
      metadata: [
        "item": "\(active.item.id)", "position": .seconds(active.position),
        "stalled": .seconds(duration),
      ])
  }

  /// Logs a seek request: the time asked for and where it goes (clamped to the media, or
  /// moved into a live window).
  func logSeek(_ item: PlayerItem, requested: MediaTime, target: MediaTime) {
    configuration.logger.debug(
      "seek requested",
      metadata: [
        "item": "\(item.id)", "requested": .seconds(requested), "target": .seconds(target),
      ])
  }
}
