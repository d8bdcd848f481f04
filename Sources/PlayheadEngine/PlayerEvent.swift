import Foundation
import PlayheadCore
import PlayheadNet

/// Something that happened in a player, in the order it happened.
///
/// Every event carries `clockTime`, the player's clock when it happened, so that tests
/// on a `ManualClock` can measure gaps exactly; `itemTime` is the item's media time.
public struct PlayerEvent: Sendable {
  /// What happened.
  public enum Kind: Sendable {
    /// The player's current item changed (nil when the queue ran out).
    case currentItemChanged(PlayerItem?)
    /// An item's status changed (readyToPlay or failed).
    case itemStatusChanged(PlayerItem, PlayerItem.Status)
    /// The duration of an item became known or changed.
    case durationChanged(PlayerItem, MediaTime)
    /// The rate changed.
    case rateChanged(Float)
    /// The time-control status changed.
    case timeControlStatusChanged(TimeControlStatus)
    /// The first video frame (or, without video, the first audio) of an item was presented.
    case firstFramePresented(PlayerItem)
    /// The item's buffer ran dry while playing (the "stalled" notification).
    case playbackStalled(PlayerItem)
    /// Playback resumed after a stall.
    case playbackRecovered(PlayerItem)
    /// `isPlaybackBufferEmpty` changed.
    case bufferEmptyChanged(PlayerItem, Bool)
    /// `isPlaybackLikelyToKeepUp` changed.
    case likelyToKeepUpChanged(PlayerItem, Bool)
    /// `isPlaybackBufferFull` changed.
    case bufferFullChanged(PlayerItem, Bool)
    /// The item's seekable time ranges changed (a live window moved).
    case seekableTimeRangesChanged(PlayerItem, [MediaTimeRange])
    /// The item's HLS Interstitials were read (again): once for VOD, after every reload
    /// of a live playlist that has or had some (`PlayerItem.interstitialSchedule`).
    case interstitialsChanged(PlayerItem, InterstitialSchedule)
    /// Playback of a live stream fell too far behind the edge and jumps forward.
    case liveCatchUp(PlayerItem, from: MediaTime, to: MediaTime)
    /// The item's loaded time ranges changed.
    case loadedTimeRangesChanged(PlayerItem, [MediaTimeRange])
    /// A seek finished (`finished` false when a later seek interrupted it).
    case seekCompleted(PlayerItem, finished: Bool)
    /// The item played to its end (the did-play-to-end notification).
    case didPlayToEnd(PlayerItem)
    /// The item could not play to its end (the failed-to-play-to-end notification).
    case failedToPlayToEnd(PlayerItem, PlayheadError)
    /// The item reached its `previewDuration` and ended there (seed 003's preview); sent
    /// instead of `didPlayToEnd`.
    case previewEnded(PlayerItem)
    /// Playback reached one of the item's `pausePoints` and paused there by itself (an ad
    /// break); the last frame shown is the one due at that time.
    case pausePointReached(PlayerItem, MediaTime)
    /// The rendition being loaded changed (HLS), with the reason.
    case variantChanged(PlayerItem, VariantInfo, VariantChangeReason)
    /// The item's selected audio rendition changed (nil: the variant's own audio): the
    /// start choice, the application's selection, or a variant switch to another group.
    case audioRenditionChanged(PlayerItem, RenditionInfo?)
    /// The item's selected subtitle rendition changed (nil: none); its segment list is
    /// in `PlayerItem.subtitleSegments` when the event arrives.
    case subtitleRenditionChanged(PlayerItem, RenditionInfo?)
    /// A cue of the item's selected text track became active; the event's `itemTime` is
    /// the time of the change (the cue's start, or where a seek or the start landed).
    case textCueEntered(PlayerItem, TimedTextCue)
    /// A cue of the item's selected text track stopped being active (at its end, after a
    /// seek, or because the track was deselected or changed).
    case textCueExited(PlayerItem, TimedTextCue)
    /// The text track's cues are in: the whole sidecar file, or every segment of a
    /// rendition up to the look-ahead; once per selection, after the enters of the cues
    /// active at the position.
    case textTrackLoaded(PlayerItem, RenditionInfo, cueCount: Int)
    /// A file, playlist or segment of the text track could not be loaded or parsed
    /// (`.unsupportedFormat` naming the WebVTT line, `.unsupportedScheme` for a local file
    /// of network content, …); the track stays selected and playback goes on.
    case textTrackFailed(PlayerItem, RenditionInfo, PlayheadError)
    /// `Player.resume(at:)` started rebuilding the item's source.
    case resumeStarted(PlayerItem, MediaTime)
    /// The rebuilt source is ready at the requested time.
    case resumeCompleted(PlayerItem)
    /// The rebuilt source could not be opened.
    case resumeFailed(PlayerItem, PlayheadError)
    /// The media could not be decoded and the application's backup URL is played instead.
    case backupSourceUsed(PlayerItem, URL)
    /// Software decoding is used although hardware decoding was requested.
    case softwareDecodingUsed(PlayerItem, reason: String)
    /// The item's current download speed (`PlayerItem.currentDownloadSpeed`, SPEC S9)
    /// changed: after each HLS segment, and after each measured stretch (256 KiB, or the
    /// end of a response) of progressive HTTP media.
    case downloadSpeedChanged(PlayerItem, bitsPerSecond: Double)
    /// A new entry was added to the item's access log.
    case accessLogEntryAdded(PlayerItem)
    /// A new entry was added to the item's error log.
    case errorLogEntryAdded(PlayerItem, PlayheadError)
    /// An expired URL of the item was replaced by the fresh one the application's
    /// `urlSourceExpiredHandler` gave; loading goes on from where it was.
    case sourceRefreshed(PlayerItem, SourceRefreshRecord)
    /// An expired URL could not be refreshed (the handler's `onError`, its timeout, or too
    /// many attempts); the load fails with `.sourceExpired`, and the item fails
    /// (`failed` while opening, `failedToPlayToEnd` once its buffer has played out).
    case sourceRefreshFailed(PlayerItem, SourceRefreshFailure)
  }

  public var kind: Kind
  /// The player's clock when the event happened.
  ///
  /// For `playbackStalled` this is when the position froze at the end of the media, which
  /// the player may notice later (a thread that woke late); the stall counts from then.
  public var clockTime: MediaTime
  /// The current item's time when the event happened (`.invalid` without an item).
  public var itemTime: MediaTime

  /// A short lower-camel-case name for logs and JSON lines (`didPlayToEnd`, `playbackStalled`, …).
  public var name: String {
    switch kind {
    case .currentItemChanged: return "currentItemChanged"
    case .itemStatusChanged(_, let status):
      switch status {
      case .unknown: return "itemStatusUnknown"
      case .readyToPlay: return "readyToPlay"
      case .failed: return "failed"
      }
    case .durationChanged: return "durationChanged"
    case .rateChanged: return "rateChanged"
    case .timeControlStatusChanged(let status):
      switch status {
      case .paused: return "paused"
      case .waitingToPlayAtSpecifiedRate: return "waiting"
      case .playing: return "playing"
      }
    case .firstFramePresented: return "firstFrame"
    case .playbackStalled: return "playbackStalled"
    case .playbackRecovered: return "playbackRecovered"
    case .bufferEmptyChanged(_, let empty):
      return empty ? "playbackBufferEmpty" : "playbackBufferNotEmpty"
    case .likelyToKeepUpChanged(_, let likely):
      return likely ? "playbackLikelyToKeepUp" : "playbackUnlikelyToKeepUp"
    case .bufferFullChanged(_, let full):
      return full ? "playbackBufferFull" : "playbackBufferNotFull"
    case .loadedTimeRangesChanged: return "loadedTimeRangesChanged"
    case .seekableTimeRangesChanged: return "seekableTimeRangesChanged"
    case .liveCatchUp: return "liveCatchUp"
    case .interstitialsChanged: return "interstitialsChanged"
    case .backupSourceUsed: return "backupSourceUsed"
    case .seekCompleted: return "seekCompleted"
    case .didPlayToEnd: return "didPlayToEnd"
    case .failedToPlayToEnd: return "failedToPlayToEnd"
    case .previewEnded: return "previewEnded"
    case .pausePointReached: return "pausePointReached"
    case .variantChanged: return "trackChanged"
    case .audioRenditionChanged: return "audioRenditionChanged"
    case .subtitleRenditionChanged: return "subtitleRenditionChanged"
    case .textCueEntered: return "textCueEntered"
    case .textCueExited: return "textCueExited"
    case .textTrackLoaded: return "textTrackLoaded"
    case .textTrackFailed: return "textTrackFailed"
    case .resumeStarted: return "resumeBegin"
    case .resumeCompleted: return "resumeComplete"
    case .resumeFailed: return "resumeFail"
    case .softwareDecodingUsed: return "softwareDecodingUsed"
    case .downloadSpeedChanged: return "downloadSpeed"
    case .accessLogEntryAdded: return "accessLogEntry"
    case .errorLogEntryAdded: return "errorLogEntry"
    case .sourceRefreshed: return "sourceRefreshed"
    case .sourceRefreshFailed: return "sourceRefreshFailed"
    }
  }

  /// The error the event carries, if any.
  public var error: PlayheadError? {
    switch kind {
    case .itemStatusChanged(_, .failed(let error)): return error
    case .failedToPlayToEnd(_, let error): return error
    case .errorLogEntryAdded(_, let error): return error
    case .resumeFailed(_, let error): return error
    case .textTrackFailed(_, _, let error): return error
    case .sourceRefreshFailed(_, let failure): return failure.error
    default: return nil
    }
  }
}
