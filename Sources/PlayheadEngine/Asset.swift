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
public final class Asset: @unchecked Sendable {
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
  struct Probe: @unchecked Sendable {
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
  private let lock = NSLock()
  private var statuses: [Property: LoadStatus] = [:]
  private var probe: Probe?
  private var loadError: PlayheadError?
  private var loadingSource: (any ByteSource)?
  private var cancelled = false
  /// Set when the content turned out to be an HLS playlist under another name.
  private var contentIsHLS = false
  /// Whether a driver opened for the asset found encrypted media (nil until one opened).
  private var foundProtectedContent: Bool?

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
    lock.lock()
    defer { lock.unlock() }
    return statuses[property] ?? .notYetLoaded
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
    lock.lock()
    defer { lock.unlock() }
    for property in properties where statuses[property] != .loaded { statuses[property] = .loading }
  }

  private func record(_ result: Result<Void, PlayheadError>, for properties: [Property]) {
    lock.lock()
    defer { lock.unlock() }
    for property in properties {
      switch result {
      case .success: statuses[property] = .loaded
      case .failure(let error):
        statuses[property] = error.code == .cancelled ? .cancelled : .failed(error)
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
    lock.lock()
    cancelled = true
    let source = loadingSource
    let driver = probe?.driver
    lock.unlock()
    source?.cancel()
    driver?.stop()
  }

  /// Cancels an open that is in progress (used when a player closes while opening);
  /// a finished load is left as it is.
  func cancelLoadingIfOpening() {
    lock.lock()
    let source = loadingSource
    lock.unlock()
    source?.cancel()
  }

  /// The duration, once loaded (`.invalid` before).
  public var duration: MediaTime {
    lock.lock()
    defer { lock.unlock() }
    return probe?.duration ?? .invalid
  }

  /// The tracks, once loaded (empty before).
  public var tracks: [AssetTrack] {
    lock.lock()
    defer { lock.unlock() }
    return probe?.tracks ?? []
  }

  /// The container format name, once loaded.
  public var containerName: String? {
    lock.lock()
    defer { lock.unlock() }
    return probe?.containerName
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
    lock.lock()
    defer { lock.unlock() }
    return foundProtectedContent ?? false
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
    lock.lock()
    if let probe {
      lock.unlock()
      return probe
    }
    if let loadError {
      lock.unlock()
      throw loadError
    }
    if cancelled {
      lock.unlock()
      throw PlayheadError(.cancelled, "loading cancelled", url: url)
    }
    lock.unlock()
    do throws(PlayheadError) {
      var opened = try openDriver(
        hls: player?.hls ?? HLSConfiguration(), clock: player?.clock ?? HostClock.shared,
        startTime: player?.startTime)
      if isHLS && player == nil {
        // A player opens its own HLS driver with its configuration; this one only probed.
        opened.driver?.stop()
        opened.driver = nil
      }
      lock.lock()
      self.probe = opened
      loadingSource = nil
      lock.unlock()
      return opened
    } catch {
      lock.lock()
      loadError = error
      loadingSource = nil
      lock.unlock()
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
    lock.lock()
    defer { lock.unlock() }
    return contentIsHLS
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
    lock.lock()
    loadingSource = opened
    let wasCancelled = cancelled
    lock.unlock()
    if wasCancelled { opened.cancel() }
    let (content, sniffed) = try ContentSniffer.sniff(opened)
    if let refusal = content.refusal(at: url) {
      opened.cancel()
      throw refusal
    }
    if content == .hlsPlaylist {
      opened.cancel()
      lock.lock()
      contentIsHLS = true
      loadingSource = nil
      lock.unlock()
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
    lock.lock()
    foundProtectedContent = (foundProtectedContent ?? false) || isProtected
    lock.unlock()
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
      lock.lock()
      let unused = probe?.driver
      probe?.driver = nil
      lock.unlock()
      unused?.stop()
      let opened = Result { () throws(PlayheadError) in
        try openDriver(
          hls: hls, clock: clock, startTime: startTime, cache: cache, refresher: refresher)
      }
      lock.lock()
      loadingSource = nil
      lock.unlock()
      guard let driver = try opened.get().driver else {
        throw PlayheadError(.invalidState, "the asset could not be opened", url: url)
      }
      return driver
    }
    // Opening may find an HLS playlist under another name: its driver is then the player's.
    let probe = try loadSynchronously(
      player: PlayerOpening(hls: hls, clock: clock, startTime: startTime))
    lock.lock()
    if let driver = probe.driver {
      self.probe?.driver = nil
      lock.unlock()
      return driver
    }
    lock.unlock()
    guard let driver = try openDriver(hls: hls, clock: clock, startTime: startTime).driver else {
      throw PlayheadError(.invalidState, "the asset could not be reopened", url: url)
    }
    return driver
  }
}
