import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia

/// The presentation state of one asset in a player: status, timing, buffering, logs.
///
/// An item may be in at most one player at a time. Its properties read the snapshot the
/// player's playback thread last published (whole, never field by field); reading them
/// is thread-safe.
public final class PlayerItem: Sendable, Identifiable, Hashable {
  /// Whether the item can be played.
  public enum Status: Sendable, Equatable {
    /// Not yet opened.
    case unknown
    /// Opened and ready; the player can present it.
    case readyToPlay
    /// The item cannot be played; create a new item to try again.
    case failed(PlayheadError)
  }

  public let id: UInt64
  public let asset: Asset
  private let published = Locked(ItemSnapshot())
  private let settings = Locked(ItemSettings())
  private let weakOwner = Locked(WeakOwner())

  /// The playback loop the item is in (held weakly); the loop sets it when the item joins.
  var owner: PlaybackLoop? {
    get { weakOwner.withLock { $0.loop } }
    set { weakOwner.withLock { $0.loop = newValue } }
  }

  private struct WeakOwner: Sendable {
    weak var loop: PlaybackLoop?
  }

  /// Creates an item for `asset`.
  public init(asset: Asset) {
    self.id = IdentifierSource.next()
    self.asset = asset
  }

  /// Creates an item for the media at `url`.
  public convenience init(url: URL) {
    self.init(asset: Asset(url: url))
  }

  public static func == (lhs: PlayerItem, rhs: PlayerItem) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }

  /// Reads the snapshot the playback loop last published.
  func read<T: Sendable>(_ body: (ItemSnapshot) -> T) -> T {
    published.withLock { body($0) }
  }

  /// The snapshot the playback loop last published.
  var snapshot: ItemSnapshot { published.value }

  /// Replaces the published snapshot (the playback loop playing the item, only).
  func publish(_ snapshot: ItemSnapshot) {
    published.withLock { $0 = snapshot }
  }

  func readSettings<T: Sendable>(_ body: (ItemSettings) -> T) -> T {
    settings.withLock { body($0) }
  }

  func updateSettings(_ body: (inout ItemSettings) -> Void) {
    settings.withLock { body(&$0) }
  }

  /// The item's status.
  public var status: Status { read { $0.state.status } }
  /// The error when `status` is `.failed`.
  public var error: PlayheadError? {
    if case .failed(let error) = status { return error }
    return nil
  }
  /// The duration (`.indefinite` until known or for unbounded media).
  public var duration: MediaTime { read { $0.duration } }
  /// Whether the item is VOD, live or live DVR (known once ready).
  public var streamKind: StreamKind { read { $0.streamKind } }
  /// The stream's renditions, lowest bandwidth first (empty for progressive media).
  public var variants: [VariantInfo] { read { $0.media?.variants ?? [] } }
  /// The ranges the item can be seeked in: the whole duration for VOD; for live streams
  /// the playlist's window, from its oldest segment to the live edge, on a timeline whose
  /// 0 is the first segment of the playlist as first loaded (an EVENT playlist's range
  /// starts at 0 and grows). Empty until ready.
  public var seekableTimeRanges: [MediaTimeRange] { read { $0.state.seekableTimeRanges } }
  /// Every alternate rendition the master playlist offers (audio languages, subtitles,
  /// video angles, closed captions), in playlist order. `audioRenditions` and
  /// `subtitleRenditions` list those of the variant being played, which can be selected.
  public var renditions: [RenditionInfo] { read { $0.media?.renditions ?? [] } }
  /// The I-frame (trick play) variants the stream offers.
  public var iFrameVariants: [VariantInfo] { read { $0.media?.iFrameVariants ?? [] } }
  /// The server-side ad periods the stream marks (HLS `EXT-X-CUE-OUT`/`-CUE-IN`,
  /// `EXT-OATCLS-SCTE35`, SCTE-35 date ranges), on the item timeline; empty until ready
  /// and for other media. A live stream's follow its playlist: each reload may add breaks
  /// and close open ones; those that slid out of the window are gone.
  public var serverSideAdPeriods: [AdPeriod] { read { $0.media?.adPeriods ?? [] } }
  /// The HLS Interstitials of the playlist (RFC 8216bis, Appendix D) on the item timeline,
  /// as last read: nil until ready and for media without any. A live playlist's are read
  /// again on every reload (`interstitialsChanged` tells).
  public var interstitialSchedule: InterstitialSchedule? {
    read { $0.state.interstitials ?? $0.media?.interstitials }
  }
  /// The rendition being loaded, for streams that have renditions.
  public var currentVariant: VariantInfo? { read { $0.state.currentVariant } }
  /// The engine's bandwidth estimate in bits per second (nil for progressive media).
  public var bandwidthEstimate: Double? { read { $0.bandwidthEstimate } }
  /// The current download speed an application shows, in bits per second (SPEC S9): the
  /// speed of the last HLS segment, or of the last measured stretch of a progressive HTTP
  /// file (256 KiB, or the end of a response); nil before one was measured and for local
  /// files. Each change comes with a `downloadSpeedChanged` event.
  public var currentDownloadSpeed: Double? { read { $0.state.currentDownloadSpeed } }
  /// The item's tracks, once opened.
  public var tracks: [AssetTrack] { read { $0.tracks } }
  /// The ranges of media time that are loaded, in order and merged (decision 0025): the
  /// media downloaded since the stretch began (the start or the last seek; HLS segments
  /// queued, the bytes of progressive media read ahead at the file's mean byte rate),
  /// decoded, or kept by the disk cache; all of a local file. They are discontiguous where
  /// the media is (a seek away from what the cache holds). Empty until ready. Announced by
  /// `loadedTimeRangesChanged` events when their shape changes or an end moves by a
  /// second; this property always holds the latest.
  public var loadedTimeRanges: [MediaTimeRange] { read { $0.state.loadedTimeRanges } }
  /// Whether playback has consumed all buffered media and would stall.
  public var isPlaybackBufferEmpty: Bool { read { $0.state.isBufferEmpty } }
  /// Whether the buffer is expected to keep playback going without a stall: frames are
  /// decoded and the load control's `shouldStartPlayback` says the media loaded ahead is
  /// enough (its startup buffer; after a stall, its buffer after a rebuffer), or nothing
  /// more can load (the rest of the media is loaded, or loading holds back at its
  /// target). Playback starts, and resumes after a stall, only once this is true.
  public var isPlaybackLikelyToKeepUp: Bool { read { $0.state.isLikelyToKeepUp } }
  /// Whether the media buffer is full and loading has paused (AVPlayerItem's meaning):
  /// the source holds back at the load control's target (the high-water mark, or the
  /// item's `preferredForwardBufferDuration`) or has everything to the end (a local file
  /// at once). Each change comes with a `bufferFullChanged` event (`playbackBufferFull` /
  /// `playbackBufferNotFull`).
  public var isPlaybackBufferFull: Bool { read { $0.state.isBufferFull } }
  /// The item's current time (the player's position while this item is current).
  public func currentTime() -> MediaTime { read { $0.currentTime } }
  /// Statistics of the item's playback so far.
  public var statistics: PlaybackStatistics { read { $0.statistics } }
  /// The access log (AVPlayerItemAccessLog): one entry per playback period, a play from a
  /// start or seek to an end, pause or seek, split at every rendition switch, so that each
  /// entry covers one rendition (its URI and declared bit rate) with its bytes, stalls,
  /// dropped frames and (the first entry) startup time.
  public func accessLog() -> [AccessLogEntry] { read { $0.state.accessLog } }
  /// The error log: every error met while loading or playing.
  public func errorLog() -> [ErrorLogEntry] { read { $0.state.errorLog } }
  /// Whether the item has no video track (or video is disabled) but has audio.
  public var isAudioOnly: Bool {
    read { snapshot in
      let tracks = snapshot.tracks
      return !tracks.contains { $0.kind == .video } && tracks.contains { $0.kind == .audio }
    }
  }

  /// How much media the player loads ahead of the play position (AVPlayerItem's
  /// meaning; `.zero`, the default, or a non-numeric time leaves it to the load control).
  ///
  /// Above zero it is the forward target: loading stops once that much is loaded ahead
  /// (an HLS stream loads whole segments, so the buffer reaches at most the target plus
  /// one segment), `isPlaybackBufferFull` turns true there, and playback may start or
  /// resume once it is loaded even when the load control asks for more. Settable while
  /// the item plays; the next loading decision uses it.
  public var preferredForwardBufferDuration: MediaTime {
    get { readSettings { $0.preferredForwardBufferDuration } }
    set { updateSettings { $0.preferredForwardBufferDuration = newValue } }
  }
  /// The highest bitrate to choose in bits per second (0 = no limit); used by streaming sources.
  ///
  /// Takes effect at once on a playing stream (from the next segment on).
  public var preferredPeakBitRate: Double {
    get { readSettings { $0.preferredPeakBitRate } }
    set {
      updateSettings { $0.preferredPeakBitRate = max(0, newValue) }
      owner?.variantSelectionChanged(for: self)
    }
  }
  /// The largest resolution to choose (nil = no limit); used by streaming sources.
  public var preferredMaximumResolution: (width: Int, height: Int)? {
    get { readSettings { $0.preferredMaximumResolution } }
    set {
      updateSettings { $0.preferredMaximumResolution = newValue }
      owner?.variantSelectionChanged(for: self)
    }
  }
  /// A rendition chosen by hand (an index into `variants`), or nil for automatic choice;
  /// it wins over the player's configuration and takes effect from the next segment.
  public var preferredVariantIndex: Int? {
    get { readSettings { $0.preferredVariantIndex } }
    set {
      updateSettings { $0.preferredVariantIndex = newValue }
      owner?.variantSelectionChanged(for: self)
    }
  }
  /// How an HLS item's first rendition is chosen, instead of the player's
  /// `HLSConfiguration.startPreference` (nil, the default, keeps the player's). Read when
  /// the item starts loading; a list player sets it per item for its bitrate modes.
  public var startPreference: ABRStartPreference? {
    get { readSettings { $0.startPreference } }
    set { updateSettings { $0.startPreference = newValue } }
  }
  /// Playback ends here when playing forward (`.invalid` = the item's end).
  public var forwardPlaybackEndTime: MediaTime {
    get { readSettings { $0.forwardPlaybackEndTime } }
    set { updateSettings { $0.forwardPlaybackEndTime = newValue } }
  }
  /// Plays only the first `previewDuration` of the item (seed 003's `setPreviewTime`):
  /// playback ends there with `.previewEnded` instead of `.didPlayToEnd`, and a seek past it
  /// goes to it. `.invalid` (the default) plays the whole item; a preview at or past the
  /// media's end changes nothing. Settable while the item plays.
  public var previewDuration: MediaTime {
    get { readSettings { $0.previewDuration } }
    set { updateSettings { $0.previewDuration = newValue } }
  }
  /// Item times at which playback pauses by itself (ad breaks): when playing forward
  /// reaches one, the position stops exactly there, the rate becomes 0 and
  /// `.pausePointReached` is sent. The picture then is the last frame before the point;
  /// the frame at the point is the first one shown when playback goes on, so nothing is
  /// shown twice or for an instant around a break. A point stays until it is removed: playing on from it
  /// does not pause again, but playing across it once more (after a seek back) does. A
  /// seek never pauses at one. Non-numeric times are ignored; settable while playing.
  public var pausePoints: [MediaTime] {
    get { readSettings { $0.pausePoints } }
    set {
      let points = Array(Set(newValue.filter(\.isNumeric))).sorted()
      updateSettings { $0.pausePoints = points }
    }
  }
  /// Where forward playback ends before the media's end: the earlier of
  /// `forwardPlaybackEndTime` and `previewDuration`, when either is set; nil otherwise.
  var forwardEndTime: MediaTime? {
    readSettings { state in
      let preview = state.previewDuration
      let ends = [
        state.forwardPlaybackEndTime.isNumeric ? state.forwardPlaybackEndTime : nil,
        preview.isNumeric && preview >= .zero ? preview : nil,
      ]
      return ends.compactMap { $0 }.min()
    }
  }
  /// Playback ends here when playing in reverse (`.invalid` = the start). Reverse play is
  /// not supported for progressive media, so this is stored and reported only.
  public var reversePlaybackEndTime: MediaTime {
    get { readSettings { $0.reversePlaybackEndTime } }
    set { updateSettings { $0.reversePlaybackEndTime = newValue } }
  }
  /// How audio is stretched at rates other than 1 (time-domain by default).
  public var audioTimePitchAlgorithm: AudioTimePitchAlgorithm {
    get { readSettings { $0.audioTimePitchAlgorithm } }
    set { updateSettings { $0.audioTimePitchAlgorithm = newValue } }
  }
  /// Whether rates above 1 are supported (true once ready).
  public var canPlayFastForward: Bool { status == .readyToPlay }
  /// Whether rates between 0 and 1 are supported (true once ready).
  public var canPlaySlowForward: Bool { status == .readyToPlay }
  /// Whether negative rates are supported: never, for progressive media.
  public var canPlayReverse: Bool { false }

  /// Seeks to `time` within `toleranceBefore`/`toleranceAfter`; see `Player.seek`.
  ///
  /// An item that is not in a player completes with `false` at once.
  public func seek(
    to time: MediaTime, toleranceBefore: MediaTime = .zero, toleranceAfter: MediaTime = .zero,
    completionHandler: (@Sendable (Bool) -> Void)? = nil
  ) {
    guard let owner else {
      completionHandler?(false)
      return
    }
    owner.seek(
      item: self, to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
      completion: completionHandler)
  }

  /// Cancels pending seeks of this item; their completions report `false`.
  public func cancelPendingSeeks() {
    owner?.cancelPendingSeeks(item: self)
  }
}

/// What the application asks of an item (its public setters write it; the playback loop
/// reads it when it decides).
struct ItemSettings: Sendable {
  var preferredForwardBufferDuration: MediaTime = .zero
  var preferredPeakBitRate: Double = 0
  var preferredMaximumResolution: (width: Int, height: Int)?
  var preferredVariantIndex: Int?
  var startPreference: ABRStartPreference?
  var forwardPlaybackEndTime: MediaTime = .invalid
  var previewDuration: MediaTime = .invalid
  /// Sorted, numeric (`PlayerItem.pausePoints`).
  var pausePoints: [MediaTime] = []
  var reversePlaybackEndTime: MediaTime = .invalid
  var audioTimePitchAlgorithm: AudioTimePitchAlgorithm = .timeDomain
  var preferredAudioLanguages: [String] = []
  /// The text tracks the application added and the one it selected.
  var text = ItemTextSettings()
}
