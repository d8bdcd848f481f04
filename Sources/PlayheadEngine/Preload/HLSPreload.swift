import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadNet

/// Preloads an HLS stream through an `HLSDriver` opened exactly as a player opens it, so
/// that the master playlist, the start-level choice and the media playlist are the
/// player's; then fetches the initialisation section, keys and segments covering the
/// duration, and the same of the alternate audio rendition a player would start with.
/// A DASH manifest is preloaded the same way through its translation (`isDASH`).
struct HLSPreload {
  let job: PreloadJob
  let cache: MediaCache
  private var resources: [URL] = []
  private var fetched: Set<String> = []

  /// Whether the source is a DASH manifest: its playlists are its translation's.
  let isDASH: Bool

  init(job: PreloadJob, cache: MediaCache, isDASH: Bool = false) {
    self.job = job
    self.cache = cache
    self.isDASH = isDASH
  }

  mutating func run() throws(PlayheadError) -> PreloadReport {
    let url = job.task.url
    let settings = job.configuration
    var hls = settings.hls
    if isDASH {
      hls.playlistSource = DASHPlaylistSource(
        manifestURL: url, wallClock: MediaSourceFactory.wallClock(of: settings.clock))
    }
    if job.task.config.startPreference != .automatic {
      hls.startPreference = job.task.config.startPreference
    }
    let stack = job.makeStack(cache)
    let loader = stack.stack.loader()
    job.loader.register(job) { loader.cancelAll() }
    resources.append(url)
    let driver = try HLSDriver(
      url: url, configuration: hls, clock: settings.clock, stack: stack.stack, loader: loader)
    // The driver starts no thread (its downloader runs only for playback); stopping it
    // on a cancel interrupts the load in flight.
    job.loader.register(job) { driver.stop() }
    try job.checkpoint()
    let level = driver.startLevel()
    try driver.refreshPlaylistIfNeeded(level: level)
    driver.lock.lock()
    let levelURL = driver.levels[level].uris[driver.activeURI[level] ?? 0]
    driver.lock.unlock()
    // A DASH source's media playlists are its translation's, not resources.
    if driver.master != nil && !isDASH { resources.append(levelURL) }
    guard let media = driver.playlist(level) else {
      throw PlayheadError(.invalidState, "the media playlist did not load", url: url)
    }
    guard media.endList else {
      throw PlayheadError(
        .unsupportedFormat,
        "live streams cannot be preloaded (their segments move on): \(levelURL.absoluteString)",
        url: levelURL)
    }
    let duration = job.task.config.duration
    var covered = try fetchSegments(of: media, through: driver, duration: duration)
    var audio: RenditionInfo?
    let group = driver.alternateRenditions(.audio, for: nil)
    if let chosen = RenditionChoice.startRendition(
      in: group, preferredLanguages: job.task.config.preferredAudioLanguages),
      let uri = chosen.uri, let audioURL = URL(string: uri)
    {
      try job.checkpoint()
      let lane = try driver.openAlternate(chosen, at: .zero)
      defer { lane.stop() }
      guard let laneDriver = lane as? HLSDriver, let audioMedia = laneDriver.playlist(0) else {
        throw PlayheadError(.invalidState, "the audio playlist did not load", url: audioURL)
      }
      if !isDASH { resources.append(audioURL) }
      audio = chosen
      let audioCovered = try fetchSegments(of: audioMedia, through: laneDriver, duration: duration)
      covered = min(covered, audioCovered)
    }
    return PreloadReport(
      url: url, variant: driver.master == nil ? nil : driver.info(for: level),
      audioRendition: audio, cachedDuration: covered, resources: resources,
      bytesFromNetwork: stack.bytesFromNetwork, bytesFromCache: stack.bytesFromCache)
  }

  /// Fetches the segments of `media` that start before `duration` (with their
  /// initialisation sections and AES-128 keys); returns the media time they cover.
  private mutating func fetchSegments(
    of media: MediaPlaylist, through driver: HLSDriver, duration: MediaTime
  ) throws(PlayheadError) -> MediaTime {
    var start = MediaTime.zero
    for segment in media.segments {
      guard start < duration else { break }
      try job.checkpoint()
      if let map = segment.map {
        try fetch(
          DataRequest(url: map.uri, range: map.byteRange, purpose: .initializationSection),
          through: driver)
      }
      if let key = segment.key, key.method == .aes128, key.isLoadable, let keyURL = key.uri,
        driver.configuration.contentKeyProvider == nil
      {
        try fetch(DataRequest(url: keyURL, purpose: .key), through: driver)
      }
      if !segment.gap {
        try fetch(
          DataRequest(url: segment.uri, range: segment.byteRange, purpose: .segment),
          through: driver)
      }
      start = start + segment.duration
    }
    return start
  }

  /// Loads `request` through the driver's loader (the cache, with the player's retries)
  /// once per resource and range.
  private mutating func fetch(_ request: DataRequest, through driver: HLSDriver)
    throws(PlayheadError)
  {
    let identity = "\(request.url.absoluteString)|\(request.range?.description ?? "")"
    guard fetched.insert(identity).inserted else { return }
    try job.checkpoint()
    _ = try driver.loader.load(request)
    resources.append(request.url)
  }
}
