import Foundation
import PlayheadCore
import PlayheadMedia

/// The playback loop's working state for one item that has a loader.
final class ActiveItem {
  let item: PlayerItem
  let loader: ItemLoader
  /// The item's load control (the player's, with the item's limits); its HLS downloader
  /// shares it.
  let loadControl: ItemLoadControl
  var media: OpenedMedia?
  /// The item time at `anchorClock`; the position moves from there at the rate.
  var anchorItemTime: MediaTime = .zero
  var anchorClock: MediaTime = .zero
  var position: MediaTime = .zero
  /// Set while a seek waits for its first data.
  var seek: PendingSeek?
  /// Set when the frame at the position must be shown even though the player is paused.
  var needsDisplayRefresh = false
  var firstFramePresented = false
  var playRequestClock: MediaTime?
  /// The clock time at which the current stall began: when the position reached the end
  /// of the media it could present, which a late wake finds in the past.
  var stalledSince: MediaTime?
  /// Set while the position waits at the end of the presentable media without a stall
  /// (fast mode, or before anything was presented); the clock re-anchors on release.
  var isHeld = false
  var hasEnded = false
  var failed = false
  /// The text track's renderer and what the loop knows of its loading.
  let text = ActiveText()
  /// The end of the last audio handed to the sink (the audio clock's limit).
  var audioWrittenEnd: MediaTime?
  var lastVideoEnd: MediaTime = .zero
  var lastAudioEnd: MediaTime = .zero
  var framesRendered = 0
  var framesDropped = 0
  var audioSamplesPlayed = 0
  var stallCount = 0
  var totalStallTime: MediaTime = .zero
  var playingTime: MediaTime = .zero
  var reportedErrors = 0
  /// How many of the source refresher's events were already emitted.
  var reportedRefreshEvents = 0
  var reportedSoftwareDecoding = false
  var reportedVariant: VariantInfo?
  /// The loader's rendition selection counts already mirrored into the item.
  var reportedAudioSelectionChanges = 0
  var reportedSubtitleSelectionChanges = 0
  /// The selections last announced by an event (`.none` before the first).
  var emittedAudioRendition: RenditionInfo??
  var emittedSubtitleRendition: RenditionInfo??
  /// Set while `Player.resume(at:)` rebuilds this item's source.
  var isResuming = false
  var period: AccessPeriod?
  var bufferEmpty = true
  var likelyToKeepUp = false
  var bufferFull = false
  /// Whether every decoded queue held its target at the last report.
  var decodedFull = false
  /// The loaded time ranges last announced by an event.
  var announcedRanges: [MediaTimeRange] = []
  /// The no-progress watchdog's last view of the item, and the clock time it changed
  /// (nil while the watchdog does not run: paused, opening, ended).
  var progressMark: ProgressMark?
  var progressClock: MediaTime = .zero

  init(item: PlayerItem, loader: ItemLoader, loadControl: ItemLoadControl) {
    self.item = item
    self.loader = loader
    self.loadControl = loadControl
  }
}

/// A seek waiting for its data, with the completion to call.
struct PendingSeek {
  var generation: Int
  var target: MediaTime
  var completion: (@Sendable (Bool) -> Void)?
}

/// A playback period being recorded for the access log.
struct AccessPeriod {
  var startClock: MediaTime
  var startItemTime: MediaTime
  var startBytes: Int64
  var startStalls: Int
  var startDropped: Int
  /// The rendition playing when the period started (nil for progressive media).
  var variant: VariantInfo?
}
