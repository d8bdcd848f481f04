import Foundation
import PlayheadCore
import PlayheadMedia

/// The playback loop's working state for one run of an item (the item with a loader).
///
/// It is the one home of the run's facts (position, renderers, stall and switch counts)
/// and, in `state`, of the item's facts the loop owns; the item's getters read the
/// `ItemSnapshot` the loop derives from them (docs/decisions/0046).
final class ActiveItem {
  let item: PlayerItem
  let loader: ItemLoader
  /// The item's facts the loop owns (status, buffer flags, logs, selections …).
  var state: ItemState
  /// What the item showed when the run began: its media, statistics and bandwidth
  /// estimate stand until the run has its own.
  let origin: ItemSnapshot
  /// The item's load control (the player's, with the item's limits); its HLS downloader
  /// shares it.
  let loadControl: ItemLoadControl
  /// The media as this run opened it (nil until it did).
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
  /// The renderers of the item's video and audio (docs/decisions/0030).
  let video: VideoRenderer
  let audio: AudioRenderer
  /// The text track's renderer and what the loop knows of its loading.
  let text = ActiveText()
  /// The run's stalls and the clock time they lasted, and the clock time it played (the
  /// period under way excluded).
  var stallCount = 0
  var totalStallTime: MediaTime = .zero
  var playingTime: MediaTime = .zero
  var reportedSoftwareDecoding = false
  /// What the loader's messages told and the step has still to report (in order).
  var pendingErrors: [PlayheadError] = []
  var pendingVariants: [(variant: VariantInfo, reason: VariantChangeReason)] = []
  /// How often the rendition changed in this run after its first (`state.currentVariant`).
  var variantSwitches = 0
  /// Where the pending seek landed, once the loader said so.
  var landedSeekTime: MediaTime?
  /// The backup URL the media was opened from, if any.
  var backupURL: URL?
  /// Whether the loader has told an audio (subtitle) rendition selection yet.
  var audioSelectionKnown = false
  var subtitleSelectionKnown = false
  /// The selections last announced by an event (`.none` before the first).
  var emittedAudioRendition: RenditionInfo??
  var emittedSubtitleRendition: RenditionInfo??
  /// Set while `Player.resume(at:)` rebuilds this item's source.
  var isResuming = false
  var period: AccessPeriod?
  /// The loaded time ranges last announced by an event.
  var announcedRanges: [MediaTimeRange] = []
  /// The no-progress watchdog's last view of the item, and the clock time it changed
  /// (nil while the watchdog does not run: paused, opening, ended).
  var progressMark: ProgressMark?
  var progressClock: MediaTime = .zero

  init(
    item: PlayerItem, origin: ItemSnapshot, state: ItemState, loader: ItemLoader,
    loadControl: ItemLoadControl, video: VideoRenderer, audio: AudioRenderer
  ) {
    self.item = item
    self.origin = origin
    self.state = state
    self.loader = loader
    self.loadControl = loadControl
    self.video = video
    self.audio = audio
  }

  /// Every renderer of the item.
  var renderers: [any TrackRenderer] { [video, audio] }

  /// The clock that leads the position now, if one does (else the player's clock, from the
  /// anchor).
  var mediaClock: (any MediaClock)? { media?.hasAudio == true && audio.isClocked ? audio : nil }
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
