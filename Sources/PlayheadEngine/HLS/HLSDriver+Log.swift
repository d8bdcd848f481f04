import Foundation
import PlayheadCore
import PlayheadHLS

/// What the HLS driver logs (docs/logging.md): each rendition choice at debug, a switch
/// and an abandonment or failover at info, playlist loads at debug. One call per event at
/// the place it happens, so that the loading code stays as it is.
extension HLSDriver {
  /// Logs the level chosen for `segment`, about to be loaded, and why, with the inputs of
  /// the choice, at debug; and, when it differs from the level loaded before (once
  /// something has loaded), the switch at info.
  func logChoice(
    _ segment: MediaSegment, level: Int, previous: Int, reason: VariantChangeReason,
    bufferAhead: MediaTime, phase: ABRPhase
  ) {
    logger.debug(
      "ABR decision",
      metadata: [
        "sequence": "\(segment.mediaSequence)", "level": "\(level)", "previous": "\(previous)",
        "reason": "\(reason.rawValue)",
        "bandwidth": "\(levels[level].bandwidth)",
        "throughput": .bitsPerSecond(bandwidthMeter.estimateBitsPerSecond),
        "lastTransfer": .bitsPerSecond(bandwidthMeter.lastTransferBitsPerSecond),
        "bufferAhead": .seconds(bufferAhead), "phase": "\(phase)",
      ])
    guard level != previous, phase != .starting else { return }
    logger.info(
      "rendition switch",
      metadata: [
        "from": "\(previous)", "to": "\(level)", "reason": "\(reason.rawValue)",
        "fromBandwidth": "\(levels[previous].bandwidth)",
        "toBandwidth": "\(levels[level].bandwidth)",
      ])
  }

  /// Logs a segment download the bitrate controller abandoned for `target`, at info.
  func logAbandonment(
    sequence: Int, level: Int, target: Int, loadedBytes: Int, elapsed: MediaTime
  ) {
    logger.info(
      "segment download abandoned",
      metadata: [
        "sequence": "\(sequence)", "level": "\(level)", "target": "\(target)",
        "loadedBytes": "\(loadedBytes)", "elapsed": .seconds(elapsed),
      ])
  }

  /// Logs a loaded media playlist at debug: the first load of a level, or a reload.
  func logPlaylistLoad(_ media: MediaPlaylist, level: Int, isReload: Bool) {
    logger.debug(
      isReload ? "media playlist reloaded" : "media playlist loaded",
      metadata: [
        "level": "\(level)", "url": .url(media.url),
        "mediaSequence": "\(media.mediaSequence)", "segments": "\(media.segments.count)",
        "live": "\(!media.endList)",
      ])
  }

  /// Logs the move from a URI of `level` that failed to its next redundant one, at info.
  func logFailover(level: Int, failed: URL, after error: PlayheadError) {
    logger.info(
      "failing over to a redundant URI",
      metadata: [
        "level": "\(level)", "failed": .url(failed), "error": "\(error.message)",
      ])
  }
}
