import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Opens an asset's media as a driver over a data-source stack: the one place that sniffs
/// what the bytes are (content, not name) and opens the progressive driver or the HLS
/// engine's. A player owns one, built from its stack; an asset loading its properties on
/// its own makes one from the stack it is given.
///
/// Media that is not named a playlist is opened and its first bytes sniffed: an HLS
/// playlist goes to the HLS engine, a DASH manifest to the same engine through its
/// translation (`DASHPlaylistSource`), an ffconcat script is refused with
/// `.unsupportedFormat`, and anything else goes to the demuxer (which refuses formats
/// outside `ContainerFormats.media`). A completed offline download plays from its folder
/// (`OfflineAsset.playbackStack`), never from the network.
struct MediaSourceFactory: Sendable {
  /// The player's stack (network, recorder, cache, retries).
  let stack: DataSourceStack

  var clock: any Clock { stack.clock }

  /// What opening found.
  struct Opened {
    var driver: any MediaSourceDriver
    /// FFmpeg's container name, or "hls" or "dash".
    var containerName: String
    var isHLS: Bool
  }

  /// Opens `asset`'s media; an HLS stream with `hls`, at `startTime`, its expired URLs
  /// refreshed through `refresher`. `cancellation` reaches the open while it blocks.
  func open(
    _ asset: Asset, hls: HLSConfiguration = HLSConfiguration(), startTime: MediaTime? = nil,
    refresher: SourceRefresher? = nil, cancellation: OpenCancellation = OpenCancellation()
  ) throws(PlayheadError) -> Opened {
    let itemStack: DataSourceStack
    var hls = hls
    if let offline = asset.offline {
      itemStack = try offline.playbackStack(request: stack.request, clock: clock)
      if let kept = try OfflineContentKeys.load(from: offline.folderURL) {
        hls.sampleKeySource =
          hls.sampleKeySource.map { ChainedSampleKeys(first: $0, second: kept) } ?? kept
      }
    } else {
      itemStack = asset.url.isFileURL ? stack : stack.with(refresher: refresher)
    }
    if asset.isDASH {
      return try openDASH(
        asset, stack: itemStack, hls: hls, startTime: startTime, cancellation: cancellation)
    }
    if asset.isHLS {
      return try openHLS(
        asset, stack: itemStack, hls: hls, startTime: startTime, cancellation: cancellation)
    }
    let url = asset.url
    let reader = DataSourceReader(
      source: itemStack.makeDataSource(), request: DataRequest(url: url, purpose: .media))
    try cancellation.register { reader.cancel() }
    try reader.open()
    let content = try ContentSniffer.sniff(reader)
    if content == .dashManifest {
      reader.cancel()
      asset.noteContentIsDASH()
      return try openDASH(
        asset, stack: itemStack, hls: hls, startTime: startTime, cancellation: cancellation)
    }
    if let refusal = content.refusal(at: url) {
      reader.cancel()
      throw refusal
    }
    if content == .hlsPlaylist {
      reader.cancel()
      asset.noteContentIsHLS()
      return try openHLS(
        asset, stack: itemStack, hls: hls, startTime: startTime, cancellation: cancellation)
    }
    let demuxer = try Demuxer(reader: reader)
    return Opened(
      driver: ProgressiveDriver(demuxer: demuxer), containerName: demuxer.containerName,
      isHLS: false)
  }

  /// Opens `asset` and reads what its first run holds, then lets it go.
  func probe(_ asset: Asset, cancellation: OpenCancellation) throws(PlayheadError) -> AssetProbe {
    let opened = try open(asset, cancellation: cancellation)
    defer { opened.driver.stop() }
    try cancellation.register { opened.driver.stop() }
    let run = try opened.driver.firstRun()
    let tracks = run.demuxer.streams.filter { !$0.isAttachedPicture }.map(AssetTrack.init)
    guard tracks.contains(where: { $0.kind == .video || $0.kind == .audio }) else {
      throw PlayheadError(
        .noPlayableStreams, "no audio or video stream in \(asset.url.absoluteString)",
        url: asset.url)
    }
    return AssetProbe(
      containerName: opened.containerName, duration: opened.driver.duration, tracks: tracks,
      hasProtectedContent: opened.driver.hasProtectedContent)
  }

  private func openHLS(
    _ asset: Asset, stack itemStack: DataSourceStack, hls: HLSConfiguration,
    startTime: MediaTime?, cancellation: OpenCancellation
  ) throws(PlayheadError) -> Opened {
    let loader = DataLoader(factory: itemStack, clock: clock)
    try cancellation.register { loader.cancelAll() }
    let driver = try HLSDriver(
      url: asset.url, configuration: hls, clock: clock, stack: itemStack, startTime: startTime,
      loader: loader, ownsLoader: true)
    return Opened(driver: driver, containerName: "hls", isHLS: true)
  }

  /// Opens a DASH manifest with the segment engine, its playlists translated from the MPD.
  private func openDASH(
    _ asset: Asset, stack itemStack: DataSourceStack, hls: HLSConfiguration,
    startTime: MediaTime?, cancellation: OpenCancellation
  ) throws(PlayheadError) -> Opened {
    let loader = DataLoader(factory: itemStack, clock: clock)
    try cancellation.register { loader.cancelAll() }
    var configuration = hls
    configuration.playlistSource = DASHPlaylistSource(
      manifestURL: asset.url, wallClock: Self.wallClock(of: clock))
    let driver = try HLSDriver(
      url: asset.url, configuration: configuration, clock: clock, stack: itemStack,
      startTime: startTime, loader: loader, ownsLoader: true)
    return Opened(driver: driver, containerName: "dash", isHLS: true)
  }
}

extension MediaSourceFactory {
  /// A wall clock that runs with `clock` from now: the host's date when it is made, moved on
  /// as `clock` moves (a live MPD's availability then follows the player's clock, manual
  /// ones included).
  static func wallClock(of clock: any Clock) -> @Sendable () -> Date {
    let startDate = Date()
    let startClock = clock.now
    return { startDate.addingTimeInterval((clock.now - startClock).seconds) }
  }
}

/// What probing an asset's media found.
struct AssetProbe: Sendable {
  var containerName: String
  var duration: MediaTime
  var tracks: [AssetTrack]
  var hasProtectedContent: Bool
}

/// Reaches an open that blocks (a request, a probe) from another thread: `cancel()` runs
/// every action registered so far, and any registered later at once.
final class OpenCancellation: Sendable {
  private let state = Locked<(cancelled: Bool, actions: [@Sendable () -> Void])>((false, []))

  init() {}

  /// Whether `cancel()` was called.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Adds `action`; after `cancel()` runs it and throws `.cancelled`.
  func register(_ action: @escaping @Sendable () -> Void) throws(PlayheadError) {
    let cancelled = state.withLock { state -> Bool in
      if !state.cancelled { state.actions.append(action) }
      return state.cancelled
    }
    if cancelled {
      action()
      throw PlayheadError(.cancelled, "opening was cancelled")
    }
  }

  /// Runs every action, now and for those registered later. Safe from any thread.
  func cancel() {
    let actions = state.withLock { state -> [@Sendable () -> Void] in
      state.cancelled = true
      defer { state.actions.removeAll() }
      return state.actions
    }
    for action in actions { action() }
  }
}
