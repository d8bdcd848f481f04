import Foundation
import PlayheadCore

extension PlaybackLoop {
  /// Publishes what the getters read, each value derived whole from its owners: the
  /// player's snapshot and the current item's (docs/decisions/0046).
  ///
  /// Called before every event and time observer call the loop sends (a seek's completion
  /// follows its event), after every command, and before the loop waits; so whatever another thread learns from the loop
  /// is in the getters by then. It copies values (no allocation): it may run every step.
  func publishState() {
    let player = playerSnapshot()
    snapshotLock.lock()
    snapshot = player
    snapshotLock.unlock()
    if let current { publishItem(current) }
  }

  /// Publishes `active`'s item snapshot.
  func publishItem(_ active: ActiveItem) {
    active.item.publish(itemSnapshot(active))
  }

  /// The player's state as its getters show it. (`queue[0]`, not `queue.first`, which
  /// allocates in a debug build.)
  func playerSnapshot() -> PlayerSnapshot {
    PlayerSnapshot(
      rate: rate, defaultRate: defaultRate, timeControl: timeControl, status: status,
      currentItem: queue.isEmpty ? nil : queue[0], items: queue,
      actionAtItemEnd: actionAtItemEnd)
  }

  /// `active`'s item as its getters show it: the loop's item state, the run's position,
  /// media and figures (the renderers', the loop's, and the loader's read now, after the
  /// renderers', so that no more frames show as rendered than decoded), and the text
  /// renderer's cues. Until the run has opened its media, the media, statistics and
  /// bandwidth estimate are those the item showed when the run began.
  func itemSnapshot(_ active: ActiveItem) -> ItemSnapshot {
    var media = active.origin.media
    var statistics = active.origin.statistics
    var bandwidthEstimate = active.origin.bandwidthEstimate
    if let opened = active.media {
      let video = active.video
      let audio = active.audio
      let loader = active.loader.figures()
      media = opened
      statistics = PlaybackStatistics(
        framesDecoded: loader.framesDecoded, framesRendered: video.framesRendered,
        framesDropped: video.framesDropped, audioSamplesDecoded: loader.audioSamplesDecoded,
        audioSamplesPlayed: audio.samplesPlayed, stallCount: active.stallCount,
        totalStallTime: active.totalStallTime, bytesRead: loader.bytesRead,
        variantSwitchCount: active.variantSwitches, playingTime: playingTime(of: active))
      bandwidthEstimate = loader.bandwidthEstimate ?? bandwidthEstimate
    }
    statistics.timeToFirstFrame = active.state.timeToFirstFrame
    let text = active.text.renderer
    return ItemSnapshot(
      state: active.state, media: media, currentTime: active.position, statistics: statistics,
      bandwidthEstimate: bandwidthEstimate, textCues: text?.cues ?? [],
      activeTextCues: text?.activeCues ?? [])
  }
}

extension PlaybackLoop {
  /// Changes what the application asks of the audio output (from any thread) and wakes
  /// the loop; the audio it writes next applies it.
  func changeSettings(_ body: (inout PlayerSettings) -> Void) {
    settings.withLock { body(&$0) }
    wake.raise()
  }
}
