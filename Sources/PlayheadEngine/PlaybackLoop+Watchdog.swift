import Foundation
import PlayheadCore

/// What counts as progress for the no-progress watchdog: any change of these.
struct ProgressMark: Equatable {
  var position: MediaTime
  var generation: Int
  var framesDecoded: Int
  var audioSamplesDecoded: Int
  var framesRendered: Int
  var audioSamplesPlayed: Int
  var bytesRead: Int64
  var sourceBytes: Int64
}

extension PlaybackLoop {
  /// The no-progress watchdog (docs/decisions/0023), run after every step: an item that
  /// should be playing and has made no progress for `noProgressTimeoutMs` of the player's
  /// clock, with no network work pending, ends with `failedToPlayToEnd` and a
  /// `.noProgress` error that says what stalled. Returns the deadline the loop waits for:
  /// the step's `next`, or the watchdog's when that is sooner and may be waited for.
  ///
  /// A clock that does not advance by itself (`ManualClock` in fast mode, or a clock a
  /// test moves) moves only when a thread waits for a deadline, and a loop that waits for
  /// the decoder or the network off the clock must not make it move; so on such a clock
  /// the watchdog's deadline is given (and the watchdog fires) only while the source is
  /// starved (a reader waits for media its downloader holds back), a state that lasts
  /// until something moves the position. On a clock that runs by itself (`HostClock`) any
  /// lack of progress counts.
  func watchProgress(after next: MediaTime?) -> MediaTime? {
    let boundMs = configuration.noProgressTimeoutMs
    guard boundMs > 0, let active = current else { return next }
    let status = active.loader.snapshot()
    guard rate != 0, !active.hasEnded, !active.failed, active.media != nil else {
      active.progressMark = nil
      return next
    }
    let now = clock.now
    let activity = status.sourceActivity
    let mark = ProgressMark(
      position: active.position, generation: status.generation,
      framesDecoded: status.framesDecoded, audioSamplesDecoded: status.audioSamplesDecoded,
      framesRendered: active.video.framesRendered, audioSamplesPlayed: active.audio.samplesPlayed,
      bytesRead: status.bytesRead, sourceBytes: activity.bytesDelivered)
    if mark != active.progressMark || activity.isBusy {
      // Progress, or a wait that ends by its own timeout: the bound counts from now.
      active.progressMark = mark
      active.progressClock = now
    }
    let due = active.progressClock + MediaTime(milliseconds: Int64(boundMs))
    let mayWait = clock.advancesByItself || activity.isStarved
    if now >= due && mayWait {
      playbackFailed(active, noProgressError(active, status))
      return clock.now
    }
    guard mayWait else { return next }
    return next.map { min($0, due) } ?? due
  }

  /// The `.noProgress` error for `active`, which has made no progress for the bound.
  private func noProgressError(_ active: ActiveItem, _ status: LoaderStatus) -> PlayheadError {
    // The bound, not the clock's reading: a loop that wakes a little late says the same.
    let idle = Self.secondsText(MediaTime(milliseconds: Int64(configuration.noProgressTimeoutMs)))
    var parts: [String] = []
    if let seek = active.seek {
      parts.append("a seek to \(Self.secondsText(seek.target)) s has no data yet")
    } else if !active.firstFramePresented {
      parts.append("nothing has been presented yet")
    }
    let video = status.videoEnded ? "video ended" : "\(status.queuedVideoFrames) video frames"
    let audio =
      status.audioEnded
      ? "audio ended" : "\(Self.secondsText(status.queuedAudioDuration)) s of audio"
    parts.append("the decoder holds \(video) and \(audio) ahead")
    let source = status.sourceActivity.detail
    parts.append(source.isEmpty ? "no download or read is under way" : source)
    return PlayheadError(
      .noProgress,
      "playback of \(active.item.asset.url.absoluteString) made no progress for \(idle) s "
        + "at \(Self.secondsText(active.position)) s (noProgressTimeoutMs "
        + "\(configuration.noProgressTimeoutMs)): " + parts.joined(separator: "; "),
      url: active.item.asset.url)
  }

  /// Seconds with three decimals.
  static func secondsText(_ time: MediaTime) -> String {
    time.isNumeric ? String(format: "%.3f", time.seconds) : "\(time)"
  }
}
