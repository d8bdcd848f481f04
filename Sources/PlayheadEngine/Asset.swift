import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Media at a URL (file, http or https) whose properties load asynchronously.
///
/// Loading any property opens the source and probes it once; every property then has
/// its own load status. An asset that failed to load reports the same error for every
/// property. The demuxer opened while loading is handed to the first player item that
/// plays the asset, so a loaded asset is not opened twice.
public final class Asset: Sendable {
  /// The properties that load asynchronously.
  public enum Property: String, Sendable, CaseIterable {
    case duration, tracks, isPlayable, hasProtectedContent
  }

  /// Where a property's loading stands.
  public enum LoadStatus: Sendable, Equatable {
    case notYetLoaded
    case loading
    case loaded
    case failed(PlayheadError)
    case cancelled
  }

  /// What probing the media found.
  struct Probe: Sendable {
    var containerName: String
    var duration: MediaTime
    var tracks: [AssetTrack]
    /// The opened source, kept for the first player item that plays the asset.
    var driver: (any MediaSourceDriver)?
  }

  /// The media's URL. For an offline download folder (see `OfflineAsset`) it is the
  /// folder's playback file (its local master playlist or media file).
  public let url: URL
  /// The completed offline download the asset was created for, when its URL named a
  /// download folder; nil otherwise.
  public let offline: OfflineAsset?
  let http: HTTPRequestConfiguration
  private let state = Locked(State())

  /// The loads' statuses and what opening the media found.
  private struct State: Sendable {
    var statuses: [Property: LoadStatus] = [:]
    var probe: Probe?
    var loadError: PlayheadError?
    var loadingSource: (any ByteSource)?
    var cancelled = false
    /// Set when the content turned out to be an HLS playlist under another name.
    var contentIsHLS = false
    /// Whether a driver opened for the asset found encrypted media (nil until one opened).
    var foundProtectedContent: Bool?
  }

  /// Creates an asset; no media is read until a property is loaded or the asset plays.
  ///
  /// A local folder holding a completed offline download plays its local playlist or file
  /// (decrypted with `OfflineKeyRegistry.shared` when encrypted at rest).
  public init(url: URL, http: HTTPRequestConfiguration = HTTPRequestConfiguration()) {
    let offline = OfflineAsset.resolve(url)
    self.offline = offline
    self.url = offline?.playbackURL ?? url
    self.http = http
  }

  /// The load status of `property`.
  public func status(of property: Property) -> LoadStatus {
    state.withLock { $0.statuses[property] ?? .notYetLoaded }
  }

  /// Loads `properties` (all of them when empty); throws the loading error, if any.
  public func load(_ properties: [Property] = Property.allCases) async throws(PlayheadError) {
    let wanted = properties.isEmpty ? Property.allCases : properties
    markLoading(wanted)
    let result: Result<Void, PlayheadError> = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        do throws(PlayheadError) {
          _ = try self.loadSynchronously()
          continuation.resume(returning: .success(()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    record(result, for: wanted)
    if case .failure(let error) = result { throw error }
  }

  private func markLoading(_ properties: [Property]) {
    state.withLock { state in
      for property in properties where state.statuses[property] != .loaded {
        state.statuses[property] = .loading
      }
    }
  }

  private func record(_ result: Result<Void, PlayheadError>, for properties: [Property]) {
    state.withLock { state in
      for property in properties {
        switch result {
        case .success: state.statuses[property] = .loaded
        case .failure(let error):
          state.statuses[property] = error.code == .cancelled ? .cancelled : .failed(error)
        }
      }
    }
  }

  /// Loads and returns the duration (`.indefinite` for unbounded media).
  public func loadDuration() async throws(PlayheadError) -> MediaTime {
    try await load([.duration])
    return duration
  }

  /// Loads and returns the tracks.
  public func loadTracks() async throws(PlayheadError) -> [AssetTrack] {
    try await load([.tracks])
    return tracks
  }

  /// Loads and returns whether the asset has a stream Playhead can decode.
  public func loadIsPlayable() async -> Bool {
    do { try await load([.isPlayable]) } catch { return false }
    return isPlayable
  }

  /// Stops loading; waiting loads end with `.cancelled`.
  public func cancelLoading() {
    let (source, driver) = state.withLock { state in
      state.cancelled = true
      return (state.loadingSource, state.probe?.driver)
    }
    source?.cancel()
    driver?.stop()
  }

  /// Cancels an open that is in progress (used when a player closes while opening);
  /// a finished load is left as it is.
  func cancelLoadingIfOpening() {
    let source = state.withLock { $0.loadingSource }
    source?.cancel()
  }

  /// The duration, once loaded (`.invalid` before).
  public var duration: MediaTime {
    state.withLock { $0.probe?.duration ?? .invalid }
  }

  /// The tracks, once loaded (empty before).
  public var tracks: [AssetTrack] {
    state.withLock { $0.probe?.tracks ?? [] }
  }

  /// The container format name, once loaded.
  public var containerName: String? {
    state.withLock { $0.probe?.containerName }
  }

  /// Whether the asset has an audio or video track that can be decoded, once loaded.
  public var isPlayable: Bool {
    tracks.contains { $0.kind == .video || $0.kind == .audio }
  }

  /// Whether the media is encrypted, once loaded: an HLS stream with an `EXT-X-KEY` or
  /// `EXT-X-SESSION-KEY` whose method is not NONE (AES-128, SAMPLE-AES, keys for a
  /// `ContentKeyProvider` such as `skd://`). Progressive files Playhead opens are clear
  /// (an encrypted track fails to decode and is reported as such). False until the asset
  /// has loaded or a player has opened it.
  public var hasProtectedContent: Bool {
    state.withLock { $0.foundProtectedContent ?? false }
  }

  /// How a player opens the asset's HLS driver: its configuration, clock and start time.
  struct PlayerOpening {
    var hls: HLSConfiguration
    var clock: any Clock
    var startTime: MediaTime?
  }

  /// Opens and probes the asset once; later calls return the same probe or error.
  ///
  /// With `player`, an HLS stream found by sniffing is opened the player's way and its
  /// driver kept in the probe for `takeDriver`; without, an HLS driver only probes and is
  /// stopped.
  func loadSynchronously(player: PlayerOpening? = nil) throws(PlayheadError) -> Probe {
    let url = url
    let earlier = try state.withLock { (state) throws(PlayheadError) -> Probe? in
      if let probe = state.probe { return probe }
      if let loadError = state.loadError { throw loadError }
      if state.cancelled { throw PlayheadError(.cancelled, "loading cancelled", url: url) }
      return nil
    }
    if let earlier { return earlier }
    do throws(PlayheadError) {
      var opened = try openDriver(
        hls: player?.hls ?? HLSConfiguration(), clock: player?.clock ?? HostClock.shared,
        startTime: player?.startTime)
      if isHLS && player == nil {
        // A player opens its own HLS driver with its configuration; this one only probed.
        opened.driver?.stop()
        opened.driver = nil
      }
      state.withLock { state in
        state.probe = opened
        state.loadingSource = nil
      }
      return opened
    } catch {
      state.withLock { state in
        state.loadError = error
        state.loadingSource = nil
      }
      throw error
    }
  }

  /// Whether the asset plays through Playhead's HLS engine: its URL names a playlist
  /// (`.m3u8` or `.m3u`), or its content, once opened, is one (`#EXTM3U` first) whatever
  /// its name or Content-Type.
  ///
  /// Before a property has loaded, only the URL's name can tell.
  public var isHLS: Bool {
    if namesPlaylist { return true }
    return state.withLock { $0.contentIsHLS }
  }

  /// Whether the URL's name says HLS playlist.
  private var namesPlaylist: Bool {
    ["m3u8", "m3u"].contains(url.pathExtension.lowercased())
  }

  /// Opens the asset's media and probes its first run; with a `cache`, HTTP(S) media is
  /// read through it (see `PlayerConfiguration.cache`).
  ///
  /// Media that is not named a playlist is opened and its first bytes sniffed: an HLS
  /// playlist goes to the HLS engine, a DASH manifest or an ffconcat script is refused
  /// with `.unsupportedFormat`, and anything else goes to the demuxer (which refuses
  /// formats outside `ContainerFormats.media`).
  private func openDriver(
    hls: HLSConfiguration = HLSConfiguration(), clock: any Clock = HostClock.shared,
    startTime: MediaTime? = nil, cache: MediaCache? = nil, refresher: SourceRefresher? = nil
  ) throws(PlayheadError) -> Probe {
    if isHLS {
      return try openHLSDriver(
        hls: hls, clock: clock, startTime: startTime, cache: cache, refresher: refresher)
    }
    let opened: any ByteSource
    if let offline {
      opened = try offline.openByteSource()
    } else {
      opened = try ByteSources.open(
        url, http: http, cache: cache, refresher: refresher, clock: clock)
    }
    let wasCancelled = state.withLock { state in
      state.loadingSource = opened
      return state.cancelled
    }
    if wasCancelled { opened.cancel() }
    let (content, sniffed) = try ContentSniffer.sniff(opened)
    if let refusal = content.refusal(at: url) {
      opened.cancel()
      throw refusal
    }
    if content == .hlsPlaylist {
      opened.cancel()
      state.withLock { state in
        state.contentIsHLS = true
        state.loadingSource = nil
      }
      return try openHLSDriver(
        hls: hls, clock: clock, startTime: startTime, cache: cache, refresher: refresher)
    }
    let source = CountingByteSource(sniffed)
    let demuxer = try Demuxer(source: source)
    let driver = ProgressiveDriver(demuxer: demuxer, source: source)
    return try probe(driver, firstRun: try driver.firstRun(), containerName: demuxer.containerName)
  }

  /// Opens the HLS engine's driver on the asset's URL and probes its first run.
  private func openHLSDriver(
    hls: HLSConfiguration, clock: any Clock, startTime: MediaTime?, cache: MediaCache?,
    refresher: SourceRefresher?
  ) throws(PlayheadError) -> Probe {
    var configuration = hls
    configuration.request.headers.merge(http.headers) { current, _ in current }
    if let refresher, !url.isFileURL {
      // Expired URLs are refreshed below the cache, so that cached bytes need none.
      configuration.dataSource = RefreshingDataSource(
        upstream: configuration.dataSource
          ?? HTTPDataSource(configuration: configuration.request),
        refresher: refresher)
    }
    if let cache, MediaCache.isEnabled, !url.isFileURL {
      // The disk cache wraps the data source the driver would choose (it still adds
      // its retries around it).
      configuration.dataSource = CacheDataSource(
        upstream: configuration.dataSource
          ?? HTTPDataSource(configuration: configuration.request),
        cache: cache)
    }
    try offline?.configure(&configuration, clock: clock)
    let driver = try HLSDriver(
      url: url, configuration: configuration, clock: clock, startTime: startTime)
    let run = try driver.prepareFirstRun()
    return try probe(driver, firstRun: run, containerName: "hls")
  }

  /// What the first run of `driver` holds.
  func probe(_ driver: any MediaSourceDriver, firstRun: MediaRun, containerName: String)
    throws(PlayheadError) -> Probe
  {
    let tracks = firstRun.demuxer.streams.filter { !$0.isAttachedPicture }.map(AssetTrack.init)
    guard tracks.contains(where: { $0.kind == .video || $0.kind == .audio }) else {
      driver.stop()
      throw PlayheadError(
        .noPlayableStreams, "no audio or video stream in \(url.absoluteString)", url: url)
    }
    // Every open (a load, or a player's own) tells whether the media is encrypted.
    let isProtected = driver.hasProtectedContent
    state.withLock { state in
      state.foundProtectedContent = (state.foundProtectedContent ?? false) || isProtected
    }
    return Probe(
      containerName: containerName, duration: driver.duration, tracks: tracks, driver: driver)
  }

  /// Hands the opened driver to a player (once); later calls open a fresh one. HLS
  /// streams always open a fresh driver with the player's HLS configuration and clock.
  /// With a `cache` in effect for an HTTP(S) file, a fresh driver reads through it (one
  /// the asset opened to probe, without the cache, is let go); the same with a
  /// `refresher`, which refreshes the file's URL when it expires.
  func takeDriver(
    hls: HLSConfiguration, clock: any Clock, startTime: MediaTime? = nil,
    cache: MediaCache? = nil, refresher: SourceRefresher? = nil
  ) throws(PlayheadError) -> any MediaSourceDriver {
    if isHLS {
      guard
        let driver = try openDriver(
          hls: hls, clock: clock, startTime: startTime, cache: cache, refresher: refresher
        ).driver
      else {
        throw PlayheadError(.invalidState, "the stream could not be opened", url: url)
      }
      return driver
    }
    let readsThroughCache = cache != nil && MediaCache.isEnabled
    if readsThroughCache || refresher != nil, !url.isFileURL {
      let unused = state.withLock { state in
        let driver = state.probe?.driver
        state.probe?.driver = nil
        return driver
      }
      unused?.stop()
      let opened = Result { () throws(PlayheadError) in
        try openDriver(
          hls: hls, clock: clock, startTime: startTime, cache: cache, refresher: refresher)
      }
      state.withLock { $0.loadingSource = nil }
      guard let driver = try opened.get().driver else {
        throw PlayheadError(.invalidState, "the asset could not be opened", url: url)
      }
      return driver
    }
    // Opening may find an HLS playlist under another name: its driver is then the player's.
    let probe = try loadSynchronously(
      player: PlayerOpening(hls: hls, clock: clock, startTime: startTime))
    if let driver = probe.driver {
      state.withLock { $0.probe?.driver = nil }
      return driver
    }
    guard let driver = try openDriver(hls: hls, clock: clock, startTime: startTime).driver else {
      throw PlayheadError(.invalidState, "the asset could not be reopened", url: url)
    }
    return driver
  }
}
