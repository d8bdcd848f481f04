import Foundation
import PlayheadCore

/// The facts of an item that the playback loop playing it owns, each stored here and
/// nowhere else (docs/decisions/0046): the loop's working state (`ActiveItem.state`),
/// changed only on its thread and published to the item's getters whole, inside an
/// `ItemSnapshot`.
///
/// What the application asks of the item is in `ItemSettings`; what the loader measures
/// is in its `LoaderStatus`; what a run of the item does (position, renderers, stall and
/// switch counts) is in its `ActiveItem`. A new run (a resume, or the item joining a
/// player again) starts from the state its item last published.
struct ItemState: Sendable {
  var status: PlayerItem.Status = .unknown
  var seekableTimeRanges: [MediaTimeRange] = []
  /// The HLS Interstitials as last announced (`interstitialsChanged`).
  var interstitials: InterstitialSchedule?
  /// The rendition being played as last announced (`variantChanged`).
  var currentVariant: VariantInfo?
  /// The download speed as last announced (`downloadSpeedChanged`).
  var currentDownloadSpeed: Double?
  var loadedTimeRanges: [MediaTimeRange] = []
  /// The buffer flags as last announced (`bufferEmptyChanged`, `likelyToKeepUpChanged`,
  /// `bufferFullChanged`).
  var isBufferEmpty = true
  var isLikelyToKeepUp = false
  var isBufferFull = false
  /// Clock time from the play request to the first presented frame (`.invalid` until then).
  var timeToFirstFrame: MediaTime = .invalid
  var accessLog: [AccessLogEntry] = []
  var errorLog: [ErrorLogEntry] = []
  /// The alternate renditions and selections as the loader's messages told them.
  var audioRenditions: [RenditionInfo] = []
  var selectedAudioRendition: RenditionInfo?
  var subtitleRenditions: [RenditionInfo] = []
  var selectedSubtitleRendition: RenditionInfo?
  var subtitleSegments: SubtitleSegmentList?

  /// The state a new run of the item starts from (the item joins a player, or a resume
  /// rebuilds its source): nothing buffered or announced by the run yet; the status, the
  /// logs, the lists and the selections go on.
  var forNewRun: ItemState {
    var copy = self
    copy.currentVariant = nil
    copy.isBufferEmpty = true
    copy.isLikelyToKeepUp = false
    copy.isBufferFull = false
    return copy
  }
}

/// What a `PlayerItem`'s getters read: an immutable value the playback loop derives from
/// the owners of the item's facts (`PlaybackLoop.itemSnapshot(_:)`) and publishes whole.
///
/// It is never changed in place; the loop replaces it (before every event and callback
/// it sends, after every command, and before it waits), so a getter read in an event
/// handler sees at least the state the event reports.
struct ItemSnapshot: Sendable {
  /// The loop's item state as of the publication.
  let state: ItemState
  /// The media as the item's latest run opened it (nil before any did).
  let media: OpenedMedia?
  let currentTime: MediaTime
  let statistics: PlaybackStatistics
  let bandwidthEstimate: Double?
  /// The cues of the selected text track's renderer.
  let textCues: [TimedTextCue]
  let activeTextCues: [TimedTextCue]

  init(
    state: ItemState = ItemState(), media: OpenedMedia? = nil, currentTime: MediaTime = .zero,
    statistics: PlaybackStatistics = PlaybackStatistics(), bandwidthEstimate: Double? = nil,
    textCues: [TimedTextCue] = [], activeTextCues: [TimedTextCue] = []
  ) {
    self.state = state
    self.media = media
    self.currentTime = currentTime
    self.statistics = statistics
    self.bandwidthEstimate = bandwidthEstimate
    self.textCues = textCues
    self.activeTextCues = activeTextCues
  }

  var duration: MediaTime { media?.duration ?? .indefinite }
  var tracks: [AssetTrack] { media?.tracks ?? [] }
  var streamKind: StreamKind { media?.streamKind ?? .vod }
}
