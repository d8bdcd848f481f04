import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// Plays an HLS stream as runs of segments: loads the master and media playlists,
/// chooses a rendition per segment, downloads (and decrypts) segments ahead of the play
/// position on its own thread, and hands the loader one demuxer per run.
///
/// Nothing before a seek target is fetched: a seek restarts downloading at the segment
/// that contains the target.
final class HLSDriver: MediaSourceDriver, @unchecked Sendable {
  // Unchecked Sendable: the `var`s are guarded by `lock` or used by one thread as their
  // comments say; `abr` and the load controls are the downloader thread's.
  let url: URL
  let configuration: HLSConfiguration
  /// The clock network waits and exclusions read (see `init`).
  let clock: any Clock
  /// The data-source stack every request of the stream goes through (the player's, with
  /// the item's refresher).
  let stack: DataSourceStack
  /// Loads playlists, keys and segments over `stack` (its loads in flight are the
  /// watchdog's "busy").
  let loader: DataLoader
  /// Whether `stop()` cancels the loader's loads: not when it is another stream's (an
  /// alternate rendition shares its main stream's loader, so stopping it never cancels a
  /// request; the main stream's stop cancels them all).
  let ownsLoader: Bool
  let bandwidthMeter: BandwidthMeter
  /// Chooses the rendition of every segment; used only by the downloader thread (and
  /// once while opening).
  let abr: any ABRController
  /// Decides how far ahead to download (scene presets and the buffer optimiser): the
  /// player's item load control when a player opened the stream, else one from the
  /// configuration's scene or buffer settings; nil keeps a fixed `forwardBufferDuration`.
  let loadControl: (any LoadControl)?
  /// The player's load control for the item, with the item's forward end and target.
  let itemLoadControl: ItemLoadControl?
  /// The item-time ranges of the current level's segments held by the disk cache, as
  /// last computed, with what they were computed for.
  var cachedRangesMemo: (key: CachedRangesKey, ranges: [MediaTimeRange])?
  let levels: [HLSLevel]
  let master: MasterPlaylist?
  let queue: HLSSegmentQueue
  let lock = NSLock()
  /// Where the driver logs (`HLSDriver+Log`): the player's logger, else `playhead.hls`.
  let logger: Logger
  /// Media playlists by level, as last loaded; set with `setPlaylistLocked`.
  var playlists: [Int: MediaPlaylist] = [:]
  /// The segment end times of each playlist in `playlists`.
  var timelines: [Int: HLSSegmentTimeline] = [:]
  var playlistLoadClock: [Int: MediaTime] = [:]
  /// When each live playlist last changed (its last media sequence number moved).
  var unchangedSince: [Int: MediaTime] = [:]
  /// Which URI of each level is in use (failover moves it on).
  var activeURI: [Int: Int] = [:]
  /// URIs excluded after failing, until the clock reaches the value.
  var excludedUntil: [URL: MediaTime] = [:]
  var currentLevel: Int
  var playbackPosition: MediaTime = .zero
  /// Where the downloader continues: the item time of the next segment to load.
  var nextLoadTime: MediaTime = .zero
  var nextLoadSequence: Int?
  var keyCache: [URL: [UInt8]] = [:]
  /// The keys of Common Encryption samples, made at the first fMP4 run.
  var sampleKeys: SampleKeyResolver?
  var initCache: [String: Data] = [:]
  /// Whether the download thread has been started (the thread itself is not kept:
  /// holding it would make a cycle through its closure).
  var downloaderStarted = false
  var stopped = false
  var bytes: Int64 = 0
  var openedFirstRun: MediaRun?
  /// Raised when playback moves or the driver stops, to wake a downloader that waits
  /// for buffer space.
  let positionSignal = WakeSignal()
  /// Limits set by the application while playing; nil = the configuration's.
  var selectionOverride: VariantSelection?
  /// A seek announced by `willSeek` whose run has not been made yet.
  var pendingSeek: (time: MediaTime, generation: Int)?
  /// Where a live stream's segments lie on the item timeline (nil for VOD).
  var liveTimeline: HLSLiveTimeline?
  /// Counts playlist loads: the interstitial schedule is read again after each.
  var interstitialRevision = 0
  /// The interstitial schedule as last read (`HLSDriver+Interstitials`), with the level and
  /// revision it was read for; nil inside when the playlist had none.
  var interstitialCache: (level: Int, revision: Int, schedule: InterstitialSchedule?)?
  /// The ad periods last found, and the playlist they were found in.
  var adPeriodCache: (key: AdPeriodCacheKey, periods: [AdPeriod])?
  /// When the live playlist is next reloaded after loading reached its last segment.
  var liveReloadDue: MediaTime?
  /// Set while the downloader waits on the clock for that reload.
  var awaitsLiveReload = false
  /// Called (without the lock held) when a playlist load changed what the driver reports
  /// (the live window), so the player can update the item while the loader idles.
  var changeHandler: (@Sendable () -> Void)?
  /// Told of errors the driver recovered from (a failed redundant URI); they wait in
  /// `unreportedErrors` until a handler is set.
  var recoverableErrorHandler: (@Sendable (PlayheadError) -> Void)?
  var unreportedErrors: [PlayheadError] = []
  /// Where playback is, asked (without the lock held) instead of the position the player
  /// reports: the playback simulator's pass-through consumer sets it (decision 0011).
  var positionProvider: (@Sendable () -> MediaTime)?
  /// Told (on the downloader thread, without the lock held) about every segment download
  /// that completed or was abandoned.
  var segmentLoadObserver: (@Sendable (HLSSegmentLoadRecord) -> Void)?
  /// How often the downloader re-checks a full buffer on the clock; playback moving also
  /// wakes it. The playback simulator, which has no position reports to wake it, sets a
  /// frame's time. Set before downloading starts; read by the downloader only.
  var bufferRecheckInterval = HLSDriver.defaultBufferRecheckInterval

  /// Opens `url`: loads the playlist, and for a master playlist chooses the start level.
  ///
  /// `liveEdge` places a live media playlist on another stream's timeline (an alternate
  /// rendition of it): its last segment then ends at that time. `loader` loads over
  /// `stack` (a fresh one when nil); one given is another stream's, or the opener's, and
  /// `ownsLoader` says whether `stop()` cancels it.
  init(
    url: URL, configuration: HLSConfiguration, clock: any Clock, stack: DataSourceStack,
    startTime: MediaTime? = nil, liveEdge: MediaTime? = nil, loader: DataLoader? = nil,
    ownsLoader: Bool = true
  ) throws(PlayheadError) {
    self.url = url
    self.stack = stack
    self.configuration = configuration
    // Network waits (retry delays, live reloads, buffer rechecks) are on the player's
    // clock; in fast mode its scheduler moves time only once the decoder has done all it
    // can, so they never make frames late (decision 0028).
    self.clock = clock
    self.logger = configuration.logger ?? Logger(label: "playhead.hls")
    self.queue = HLSSegmentQueue(clock: clock)
    let meter = BandwidthMeter(
      configuration: BandwidthMeter.Configuration(
        defaultEstimateBitsPerSecond: Double(configuration.defaultBandwidthEstimate)))
    self.bandwidthMeter = meter
    itemLoadControl = configuration.itemLoadControl
    if let itemLoadControl = configuration.itemLoadControl {
      loadControl = itemLoadControl
    } else if configuration.scene != nil || configuration.bufferSettings != nil {
      loadControl = DefaultLoadControl(
        scene: configuration.scene ?? .none,
        settings: configuration.bufferSettings ?? BufferSettings())
    } else {
      loadControl = nil
    }
    if let make = configuration.makeABRController {
      abr = make()
    } else {
      var abrConfiguration = DefaultABRController.Configuration()
      abrConfiguration.startPreference = configuration.startPreference
      abr = DefaultABRController(configuration: abrConfiguration)
    }
    let loader = loader ?? DataLoader(factory: stack, clock: clock)
    self.loader = loader
    self.ownsLoader = ownsLoader
    let (playlist, size) = try Self.loadPlaylist(
      url, from: loader, importing: nil, source: configuration.playlistSource)
    bytes += Int64(size)
    switch playlist {
    case .master(let master):
      self.master = master
      levels = HLSLevel.levels(from: master.variants)
      guard !levels.isEmpty else {
        throw PlayheadError(.noPlayableStreams, "the master playlist has no variants", url: url)
      }
      currentLevel = 0
      currentLevel = initialLevel()
    case .media(let media):
      try HLSSegmentErrors.requirePlayableDurations(media)
      master = nil
      levels = [
        HLSLevel(
          index: 0, uris: [url], bandwidth: 0, averageBandwidth: nil, resolution: nil, codecs: nil,
          frameRate: nil)
      ]
      currentLevel = 0
      setPlaylistLocked(media, level: 0)
      playlistLoadClock[0] = clock.now
    }
    if playlists[currentLevel] == nil { try loadPlaylist(level: currentLevel) }
    if let media = playlists[currentLevel], !media.endList {
      // Live: the timeline starts at the playlist's first segment; playback starts near
      // the live edge (or at the start time, when one is given).
      let timeline =
        liveTimeline ?? liveEdge.map { HLSLiveTimeline(media, endingAt: $0) }
        ?? HLSLiveTimeline(media)
      liveTimeline = timeline
      let sequence =
        startTime.flatMap { timeline.sequence(containing: $0) } ?? Self.liveStartSequence(media)
      nextLoadSequence = sequence
      nextLoadTime = timeline.start(ofSequence: sequence) ?? .zero
      playbackPosition = startTime.map { max(nextLoadTime, $0) } ?? nextLoadTime
    } else if let startTime {
      // Open at the segment that holds the start time: nothing before it is fetched.
      nextLoadTime = max(.zero, startTime)
      playbackPosition = nextLoadTime
    }
    // A starved queue wakes the player, whose watchdog then sees it.
    queue.onStarved = { [weak self] in self?.notifyChange() }
  }

  // MARK: MediaSourceDriver

  /// Returns the first run; the run made while probing is handed over, not remade, as
  /// its demuxer has already consumed the first segments.
  func firstRun() throws(PlayheadError) -> MediaRun {
    lock.lock()
    if let run = openedFirstRun {
      openedFirstRun = nil
      lock.unlock()
      return run
    }
    lock.unlock()
    startDownloading()
    let run = try makeRun(fromOrdinal: 0, generation: queue.generation)
    return run
  }

  /// Makes the first run now (for probing) and keeps it for `firstRun()`.
  func prepareFirstRun() throws(PlayheadError) -> MediaRun {
    let run = try firstRun()
    lock.lock()
    openedFirstRun = run
    lock.unlock()
    return run
  }

  var seeksByRuns: Bool { true }

  func updateSelection(_ selection: VariantSelection) {
    lock.lock()
    selectionOverride = selection
    lock.unlock()
    positionSignal.raise()
  }

  func willSeek(to time: MediaTime) {
    lock.lock()
    let generation = restartLocked(at: time)
    pendingSeek = (time, generation)
    lock.unlock()
    positionSignal.raise()
  }

  func run(at time: MediaTime) throws(PlayheadError) -> MediaRun? {
    lock.lock()
    let generation: Int
    if let pending = pendingSeek, pending.time == time, pending.generation == queue.generation {
      generation = pending.generation
    } else {
      generation = restartLocked(at: time)
    }
    pendingSeek = nil
    lock.unlock()
    positionSignal.raise()
    return try makeRun(fromOrdinal: 0, generation: generation)
  }

  /// Restarts downloading at the segment containing `time`; call with `lock` held.
  private func restartLocked(at time: MediaTime) -> Int {
    if let timeline = liveTimeline, let sequence = timeline.sequence(containing: time) {
      // Live: by media sequence number, from the segment that holds the time.
      nextLoadSequence = sequence
      nextLoadTime = timeline.start(ofSequence: sequence) ?? time
      playbackPosition = max(nextLoadTime, time)
    } else {
      nextLoadTime = max(.zero, time)
      nextLoadSequence = nil
      playbackPosition = nextLoadTime
    }
    return queue.restart()
  }

  func nextRun(after run: MediaRun) throws(PlayheadError) -> MediaRun? {
    guard let feed = run.context as? HLSRunFeed else { return nil }
    guard let next = try queue.segment(ordinal: feed.endOrdinal, generation: feed.generation)
    else { return nil }
    return try makeRun(first: next, generation: feed.generation)
  }

  func isLastRun(_ run: MediaRun) -> Bool {
    guard let feed = run.context as? HLSRunFeed else { return true }
    return queue.hasEnded(before: feed.endOrdinal, generation: feed.generation)
  }

  var duration: MediaTime {
    lock.lock()
    defer { lock.unlock() }
    return contentEndLocked ?? .indefinite
  }

  /// Where the media ends on the item timeline once the playlist has its end list; nil
  /// while it may grow. Call with `lock` held.
  var contentEndLocked: MediaTime? {
    guard let media = playlists[currentLevel], media.endList else { return nil }
    return liveTimeline?.range.end ?? timelines[currentLevel]?.total ?? media.totalDuration
  }

  /// Stores `media` as `level`'s playlist, with its segment timeline; call with `lock`
  /// held (or from `init`).
  func setPlaylistLocked(_ media: MediaPlaylist, level: Int) {
    playlists[level] = media
    timelines[level] = HLSSegmentTimeline(media)
    interstitialRevision += 1
  }

  var streamKind: StreamKind {
    lock.lock()
    defer { lock.unlock() }
    guard let media = playlists[currentLevel] else { return .vod }
    if media.endList { return .vod }
    return media.playlistType == .event ? .liveDVR : .live
  }

  var variants: [VariantInfo] {
    levels.map { info(for: $0.index) }
  }

  /// For live streams: from the oldest segment still in the playlist to the live edge,
  /// on the timeline that starts at the first segment of the playlist as first loaded;
  /// nil for VOD.
  var seekableRange: MediaTimeRange? {
    lock.lock()
    defer { lock.unlock() }
    return liveTimeline?.range
  }

  func seekTarget(for time: MediaTime) -> MediaTime {
    lock.lock()
    defer { lock.unlock() }
    guard let window = liveTimeline?.range else { return time }
    if contentEndLocked != nil { return min(max(time, window.start), window.end) }
    let target = MediaTime(
      value: Int64(max(1, playlists[currentLevel]?.targetDuration ?? 1)), timescale: 1)
    return min(max(time, window.start), max(window.start, window.end - target))
  }

  var renditions: [RenditionInfo] {
    (master?.renditions ?? []).map(Self.info)
  }

  /// The ad periods of the current level's playlist (CUE-OUT/CUE-IN, SCTE-35 date ranges)
  /// in item time: a VOD playlist's times as they are; a live window's shifted to where its
  /// first segment lies on the item timeline, so they change with each reload (new breaks
  /// appear, open ones end). Found once per playlist loaded.
  var serverSideAdPeriods: [AdPeriod] {
    lock.lock()
    defer { lock.unlock() }
    guard let media = playlists[currentLevel] else { return [] }
    let origin: MediaTime
    if let timeline = liveTimeline {
      guard let first = media.segments.first,
        let start = timeline.start(ofSequence: first.mediaSequence)
      else { return [] }
      origin = start
    } else {
      guard media.endList else { return [] }
      origin = .zero
    }
    let key = AdPeriodCacheKey(
      level: currentLevel, firstSequence: media.segments.first?.mediaSequence ?? 0,
      segmentCount: media.segments.count, isEnded: media.endList, origin: origin)
    if let cached = adPeriodCache, cached.key == key { return cached.periods }
    let periods = media.adPeriods().periods.map { period in
      var shifted = period
      shifted.start = period.start + origin
      return shifted
    }
    adPeriodCache = (key, periods)
    return periods
  }

  var iFrameVariants: [VariantInfo] {
    (master?.iFrameVariants ?? []).enumerated().map { index, variant in
      VariantInfo(
        index: index, bandwidth: variant.bandwidth, width: variant.resolution?.width,
        height: variant.resolution?.height, codecs: variant.codecs, uri: variant.uri.absoluteString)
    }
  }

  func variant(of run: MediaRun) -> VariantInfo? {
    guard let feed = run.context as? HLSRunFeed else { return nil }
    return info(for: feed.first.level)
  }

  func variantReason(of run: MediaRun) -> VariantChangeReason? {
    (run.context as? HLSRunFeed)?.first.reason
  }

  var bandwidth: (estimate: Double, lastTransfer: Double)? {
    (
      bandwidthMeter.estimateBitsPerSecond,
      bandwidthMeter.lastTransferBitsPerSecond ?? bandwidthMeter.estimateBitsPerSecond
    )
  }

  /// The speed of the last segment transfer the meter sampled; nil before one (the
  /// default estimate is not a measured speed).
  var downloadSpeed: Double? { bandwidthMeter.lastTransferBitsPerSecond }

  /// The menu entry of level `index`, with the URI in use.
  func info(for index: Int) -> VariantInfo {
    let level = levels[index]
    lock.lock()
    let uriIndex = activeURI[index] ?? 0
    lock.unlock()
    return VariantInfo(
      index: index, bandwidth: level.bandwidth, width: level.resolution?.width,
      height: level.resolution?.height, codecs: level.codecs,
      uri: level.uris[min(uriIndex, level.uris.count - 1)].absoluteString)
  }

  var bytesRead: Int64 {
    lock.lock()
    defer { lock.unlock() }
    return bytes
  }

  /// Sets the play position without waking the downloader (it sees the change at its
  /// next check): deterministic tests drive the position this way.
  func setPlaybackPosition(_ position: MediaTime) {
    lock.lock()
    playbackPosition = position
    lock.unlock()
  }

  func playbackPositionChanged(_ position: MediaTime) {
    lock.lock()
    let moved = position != playbackPosition
    playbackPosition = position
    lock.unlock()
    if moved { positionSignal.raise() }
  }

  func setChangeHandler(_ handler: @escaping @Sendable () -> Void) {
    lock.lock()
    changeHandler = handler
    lock.unlock()
  }

  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    if ownsLoader { loader.cancelAll() }
    queue.cancel()
    positionSignal.raise()
  }

  // MARK: Runs

  private func makeRun(fromOrdinal ordinal: Int, generation: Int) throws(PlayheadError) -> MediaRun
  {
    guard let first = try queue.segment(ordinal: ordinal, generation: generation) else {
      throw PlayheadError(.noPlayableStreams, "the stream has no segments to play", url: url)
    }
    return try makeRun(first: first, generation: generation)
  }

  private func makeRun(first: DownloadedSegment, generation: Int) throws(PlayheadError) -> MediaRun
  {
    let feed = try HLSRunFeed(queue: queue, first: first, generation: generation, url: url)
    let demuxer: Demuxer
    do {
      demuxer = try Demuxer(
        reader: DataSourceReader(source: feed, request: DataRequest(url: url, purpose: .segment)),
        isSeekable: false, readMayWait: { feed.nextReadMayWait })
      try attachDecryptor(to: demuxer, feed: feed)
    } catch {
      throw HLSSegmentErrors.naming(error, in: feed)
    }
    // Timestamps that restart or leap inside a run (no EXT-X-DISCONTINUITY) are re-based
    // once they jump by more than a segment can last.
    let target = max(1, playlist(first.level)?.targetDuration ?? 1)
    return MediaRun(
      demuxer: demuxer, itemStart: first.start, context: feed,
      timestampJumpThreshold: MediaTime(value: Int64(target), timescale: 1))
  }
}

extension HLSDriver {
  /// Whether a session key of the master playlist or a key of a loaded media playlist has
  /// a method other than NONE.
  var hasProtectedContent: Bool {
    let encrypted = { (key: EncryptionKey) in key.method != .none }
    if master?.sessionKeys.contains(where: encrypted) ?? false { return true }
    lock.lock()
    let loaded = Array(playlists.values)
    lock.unlock()
    return loaded.contains { playlist in
      playlist.segments.contains { $0.keys.contains(where: encrypted) }
    }
  }
}

extension HLSDriver {
  func setRecoverableErrorHandler(_ handler: @escaping @Sendable (PlayheadError) -> Void) {
    lock.lock()
    recoverableErrorHandler = handler
    let pending = unreportedErrors
    unreportedErrors.removeAll()
    lock.unlock()
    for error in pending { handler(error) }
  }

  /// Reports an error the driver recovered from (the item's error log shows it).
  func reportRecoverable(_ error: PlayheadError) {
    lock.lock()
    let handler = recoverableErrorHandler
    if handler == nil { unreportedErrors.append(error) }
    lock.unlock()
    handler?(error)
  }
}

/// Which playlist the cached ad periods came from: a live reload that changes the window,
/// or a level switch, finds them again.
struct AdPeriodCacheKey: Equatable {
  var level: Int
  var firstSequence: Int
  var segmentCount: Int
  var isEnded: Bool
  var origin: MediaTime
}
