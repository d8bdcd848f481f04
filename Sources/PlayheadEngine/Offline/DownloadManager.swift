import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// Settings of a `DownloadManager`.
public struct DownloadConfiguration: Sendable {
  /// Timeouts, headers, user agent and retries for every request. A file that fails with
  /// a network error is tried again up to `request.retryCount` times, waiting
  /// `retryBaseDelayMs` (doubling, at most `retryMaxDelayMs`) in between.
  public var request: RequestConfiguration
  /// Bytes between two `downloadingProgress` events while a file downloads (each finished
  /// file also reports).
  public var progressIntervalBytes: Int
  /// Asked for a fresh URL when one expires (the player's
  /// `PlayerConfiguration.urlSourceExpiredHandler`): the playlists `prepare` loads, every
  /// file a download fetches and every resumed range go through it. Nil: an expired URL
  /// fails the download with its HTTP status, as before. See docs/expiry.md.
  public var urlSourceExpiredHandler: URLSourceExpiredHandler?
  /// How expired URLs are recognised and how long and how often a refresh may take
  /// (the timeout runs on the host clock).
  public var sourceRefresh: SourceRefreshOptions
  /// The network downloads go over; nil: files and HTTP(S) with `request`.
  public var network: (any DataSourceFactory)?
  /// Common Encryption keys by key ID for DASH downloads, kept with the download
  /// (`content-keys.json`) so that it plays offline; asked before `contentKeyProvider` and
  /// the licence server.
  public var sampleKeySource: (any SampleKeySource)?
  /// Asked for the keys of a DASH download's key IDs (`ContentKeyRequest.keyID`).
  public var contentKeyProvider: (any ContentKeyProvider)?
  /// A ClearKey licence server for a DASH download's key IDs; nil uses the MPD's http(s)
  /// `Laurl`.
  public var clearKeyLicenseURL: URL?

  public init(
    request: RequestConfiguration = RequestConfiguration(), progressIntervalBytes: Int = 64 * 1024,
    urlSourceExpiredHandler: URLSourceExpiredHandler? = nil,
    sourceRefresh: SourceRefreshOptions = SourceRefreshOptions(),
    network: (any DataSourceFactory)? = nil
  ) {
    self.network = network
    self.request = request
    self.progressIntervalBytes = max(1, progressIntervalBytes)
    self.urlSourceExpiredHandler = urlSourceExpiredHandler
    self.sourceRefresh = sourceRefresh
  }
}

/// Downloads HLS streams and progressive files for offline playback (the seed's
/// `AliMediaDownloader`): `prepare` → `.prepared(mediaInfo)` → `selectTrack` or `select`
/// → `start` → `.downloadingProgress` … `.processingProgress` … → `.completed` (or
/// `.failed`).
///
/// The list of downloads and their states persists in `rootDirectory` (`downloads.json`,
/// written atomically) and survives restarts: a download that was running when the
/// process ended comes back `.suspended`, and `resume` continues it, keeping every file
/// already on disk and fetching the partial one from where its bytes stop. A download
/// becomes `.completed` only after every file is on disk with its expected length, its
/// playlists and its `playhead-offline.json` manifest are written; its folder then plays
/// with `Player(url: folderURL)` and no network. See docs/offline.md.
///
/// Each started download runs on a thread of its own; every method is thread-safe and
/// returns at once except `prepare` (which loads the playlists or probes the file) and
/// `pause`/`cancel`/`delete` (which wait for the download's thread to stop, a moment).
/// Events go to observers in order on one serial queue.
///
/// Example:
/// ```swift
/// let manager = try DownloadManager(rootDirectory: downloads)
/// manager.addObserver { event in if case .completed(_, let asset) = event { print(asset.folderURL) } }
/// let info = try manager.prepare(url: streamURL)
/// try manager.selectTrack(info.tracks[0].trackIndex, for: info.id)
/// try manager.start(info.id)
/// ```
public final class DownloadManager: Sendable {
  /// Where the index, the plans and (by default) the downloaded folders live.
  public let rootDirectory: URL
  public let configuration: DownloadConfiguration

  /// The downloads, their runs and the observers.
  let state: Locked<State>

  struct State: Sendable {
    var records: [DownloadID: DownloadRecord] = [:]
    var order: [DownloadID] = []
    var prepared: [DownloadID: PreparedHLS] = [:]
    var running: [DownloadID: DownloadControl] = [:]
    var keys: [DownloadID: [UInt8]] = [:]
    /// The fresh URL of each refreshed resource per download (by its original URL), kept
    /// for later runs in this process; never persisted.
    var freshURLs: [DownloadID: [URL: URL]] = [:]
    var observers: [UUID: @Sendable (DownloadEvent) -> Void] = [:]
    var lastSaveError: PlayheadError?
  }

  /// The last failure to write the index (a full disk, say) while a download ran, when
  /// there was one; the downloads go on, and the next successful write catches up.
  public var lastPersistenceError: PlayheadError? {
    state.withLock { $0.lastSaveError }
  }
  let eventQueue = DispatchQueue(label: "playhead.downloads.events")

  /// Opens (or creates) the manager in `rootDirectory`, reading its index: downloads that
  /// were running become `.suspended`. Throws `.ioError` when the folder cannot be made and
  /// `.unsupportedFormat` when the index is damaged.
  public init(rootDirectory: URL, configuration: DownloadConfiguration = DownloadConfiguration())
    throws(PlayheadError)
  {
    self.rootDirectory = rootDirectory.standardizedFileURL
    self.configuration = configuration
    try AtomicFile.makeDirectory(self.rootDirectory)
    let loaded = try Self.loadIndex(
      self.rootDirectory.appendingPathComponent(DownloadIndex.fileName))
    var changed = false
    var initial = State()
    for var record in loaded {
      if record.state == .downloading {
        record.state = .suspended
        changed = true
      }
      initial.records[record.id] = record
      initial.order.append(record.id)
    }
    state = Locked(initial)
    if changed {
      try state.withLock { (state) throws(PlayheadError) in try saveIndex(state) }
    }
  }

  // MARK: Listing

  /// Every download, in the order they were prepared.
  public var downloads: [DownloadRecord] {
    state.withLock { state in state.order.compactMap { state.records[$0] } }
  }

  /// The download with this ID, if any.
  public func record(for id: DownloadID) -> DownloadRecord? {
    state.withLock { $0.records[id] }
  }

  /// The completed download's folder as an `OfflineAsset`; throws `.invalidState` unless
  /// the download is `.completed`.
  public func offlineAsset(for id: DownloadID) throws(PlayheadError) -> OfflineAsset {
    let record = try existing(id)
    guard record.state == .completed else {
      throw PlayheadError(
        .invalidState, "download \(id) is \(record.state.rawValue), not completed")
    }
    return try OfflineAsset(folderURL: record.folderURL)
  }

  // MARK: Observers

  /// Adds an observer of every download's events; returns its token for `removeObserver`.
  @discardableResult
  public func addObserver(_ handler: @escaping @Sendable (DownloadEvent) -> Void) -> UUID {
    let token = UUID()
    state.withLock { $0.observers[token] = handler }
    return token
  }

  /// Stops delivering events to the observer with this token.
  public func removeObserver(_ token: UUID) {
    state.withLock { $0.observers[token] = nil }
  }

  /// Blocks until every event sent so far has reached the observers. Never call it from an
  /// observer (it would wait for itself).
  public func waitForPendingEvents() {
    eventQueue.sync {}
  }

  func deliver(_ event: DownloadEvent) {
    let handlers = state.withLock { Array($0.observers.values) }
    eventQueue.async {
      for handler in handlers { handler(event) }
    }
  }

  // MARK: Prepare and select

  /// Loads what `url` offers and adds a `.requested` download for it: an HLS stream's
  /// playlists (master, variants, renditions) or a progressive file's length and streams.
  /// Blocks the calling thread while it loads; the async variant does not.
  ///
  /// `folderURL` is where the files go (default `<root>/media/<id>`); a folder another
  /// download uses throws `.invalidArgument`. Live streams and DRM-protected streams throw
  /// `.unsupportedFormat`; network failures throw their error. Sends `.prepared`.
  public func prepare(url: URL, folderURL: URL? = nil) throws(PlayheadError) -> DownloadMediaInfo {
    let id = DownloadID.make()
    let folder = (folderURL ?? ownedFoldersURL.appendingPathComponent(id.rawValue))
      .standardizedFileURL
    let clash = state.withLock { state in
      state.records.values.first { $0.folderURL.standardizedFileURL.path == folder.path }
    }
    if let clash {
      throw PlayheadError(
        .invalidArgument, "the folder \(folder.path) is used by download \(clash.id)", url: folder)
    }
    let info: DownloadMediaInfo
    var hls: PreparedHLS?
    let refresher = makeRefresher(for: id, sourceURL: url)
    do throws(PlayheadError) {
      let progressive =
        Self.isStream(url)
        ? nil
        : try ProgressiveDownloadPlanner.mediaInfo(
          url, id: id, configuration: configuration, refresher: refresher)
      if let progressive {
        info = progressive
      } else {
        var planner = HLSDownloadPlanner(loader: playlistLoader(for: url, refresher: refresher))
        let loaded = try planner.prepare(url)
        hls = loaded
        info = HLSDownloadPlanner.mediaInfo(loaded, id: id)
      }
    } catch {
      state.withLock { $0.freshURLs[id] = nil }
      throw error
    }
    let record = DownloadRecord(
      id: id, sourceURL: url, folderURL: folder, state: .requested, mediaInfo: info,
      progress: DownloadProgress(expectedBytes: Self.estimate(info, selection: DownloadSelection()))
    )
    let saved = state.withLock { state in
      state.records[id] = record
      state.order.append(id)
      state.prepared[id] = hls
      return Result { () throws(PlayheadError) in try saveIndex(state) }
    }
    if case .failure(let error) = saved {
      state.withLock { state in
        state.records[id] = nil
        state.order.removeAll { $0 == id }
        state.prepared[id] = nil
        state.freshURLs[id] = nil
      }
      throw error
    }
    deliver(.prepared(id, info))
    return info
  }

  /// `prepare(url:folderURL:)` on a thread of its own.
  public func prepare(url: URL, folderURL: URL? = nil) async throws(PlayheadError)
    -> DownloadMediaInfo
  {
    let result: Result<DownloadMediaInfo, PlayheadError> = await withCheckedContinuation {
      continuation in
      HostClock.shared.startThread(named: "playhead.download.prepare") {
        continuation.resume(
          returning: Result { () throws(PlayheadError) in
            try self.prepare(url: url, folderURL: folderURL)
          })
      }
    }
    return try result.get()
  }

  /// Sets what `start` downloads; only before `start` (`.requested` or `.cancelled`),
  /// otherwise `.invalidState`. An out-of-range variant index throws `.invalidArgument`.
  public func select(_ selection: DownloadSelection, for id: DownloadID) throws(PlayheadError) {
    try state.withLock { (state) throws(PlayheadError) in
      guard var record = state.records[id] else { throw Self.unknown(id) }
      guard record.state == .requested || record.state == .cancelled else {
        throw PlayheadError(
          .invalidState,
          "download \(id) is \(record.state.rawValue); the selection can change only before start")
      }
      if let index = selection.variantIndex {
        let count = record.mediaInfo?.tracks.filter { $0.kind == .video }.count ?? 0
        guard index >= 0, index < max(count, 1) else {
          throw PlayheadError(
            .invalidArgument, "variant \(index) does not exist; the stream has \(count)")
        }
      }
      record.selection = selection
      if let info = record.mediaInfo {
        record.progress.expectedBytes = Self.estimate(info, selection: selection)
      }
      state.records[id] = record
      try saveIndex(state)
    }
  }

  /// Selects one track of the media info (the seed's `selectTrack`): a video track sets the
  /// variant, an audio or subtitle track the language; a progressive file's track changes
  /// nothing. Throws `.invalidArgument` for an unknown index.
  public func selectTrack(_ trackIndex: Int, for id: DownloadID) throws(PlayheadError) {
    let record = try existing(id)
    guard let track = record.mediaInfo?.tracks.first(where: { $0.trackIndex == trackIndex })
    else {
      throw PlayheadError(.invalidArgument, "download \(id) has no track \(trackIndex)")
    }
    var selection = record.selection
    switch track.kind {
    case .video: selection.variantIndex = track.variantIndex
    case .audio: selection.audioLanguage = track.language ?? track.name
    case .subtitles: selection.subtitleLanguage = track.language ?? track.name
    case .file: break
    }
    try select(selection, for: id)
  }

  // MARK: Helpers

  func existing(_ id: DownloadID) throws(PlayheadError) -> DownloadRecord {
    guard let record = state.withLock({ $0.records[id] }) else { throw Self.unknown(id) }
    return record
  }

  static func unknown(_ id: DownloadID) -> PlayheadError {
    PlayheadError(.invalidArgument, "no download with ID \(id)")
  }

  /// Whether `url` names an HLS playlist or a DASH manifest (downloaded as a stream);
  /// other URLs have their content sniffed when prepared (see
  /// `ProgressiveDownloadPlanner.mediaInfo`).
  static func isStream(_ url: URL) -> Bool {
    ["m3u8", "m3u", "mpd"].contains(url.pathExtension.lowercased())
  }

  /// Whether `record` downloads a stream (HLS, or DASH as a local HLS stream): as
  /// prepared, or by its URL's name.
  static func isStream(_ record: DownloadRecord) -> Bool {
    record.mediaInfo.map { $0.kind == .hls } ?? isStream(record.sourceURL)
  }

  /// The stack downloads go through: `configuration.network` (files and HTTP(S) by
  /// default) with `configuration.request`, on the host clock; with a `refresher`, expired
  /// HTTP URLs are refreshed (below the retries). `retries` false leaves retries to the
  /// download's own loop (a file fetch).
  func dataStack(for url: URL, refresher: SourceRefresher?, retries: Bool = true)
    -> DataSourceStack
  {
    var request = configuration.request
    if !retries { request.retryCount = 0 }
    let stack = DataSourceStack(request: request, network: configuration.network)
    return url.isFileURL ? stack : stack.with(refresher: refresher)
  }

  /// The loader playlists load through: `dataStack`, with retries.
  func playlistLoader(for url: URL, refresher: SourceRefresher?) -> DataLoader {
    dataStack(for: url, refresher: refresher).loader()
  }

  /// A refresher for one run of download `id` (nil without a handler), starting on the
  /// fresh URLs earlier runs in this process got, and keeping the ones it gets.
  ///
  /// Its timeout runs on the host clock: downloads run on no player clock.
  func makeRefresher(for id: DownloadID, sourceURL: URL) -> SourceRefresher? {
    guard let handler = configuration.urlSourceExpiredHandler else { return nil }
    let refresher = SourceRefresher(
      handler: handler, options: configuration.sourceRefresh, clock: HostClock.shared,
      sourceURL: sourceURL,
      onEvent: { [weak self] event in
        guard let self, case .refreshed(let record) = event else { return }
        self.state.withLock {
          $0.freshURLs[id, default: [:]][record.expired.originalURL] = record.newURL
        }
      })
    let known = state.withLock { $0.freshURLs[id] ?? [:] }
    for (original, url) in known { refresher.adopt(url, for: original) }
    return refresher
  }

  /// The estimated size of what `selection` downloads, from the media info.
  static func estimate(_ info: DownloadMediaInfo, selection: DownloadSelection) -> Int64 {
    let videos = info.tracks.filter { $0.kind == .video || $0.kind == .file }
    guard !videos.isEmpty else { return 0 }
    var chosen = videos.max { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
    if let index = selection.variantIndex {
      chosen = videos.first { $0.variantIndex == index } ?? chosen
    } else if let cap = selection.maxBitrate {
      chosen =
        videos.filter { ($0.bandwidth ?? 0) <= cap }.max {
          ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0)
        }
        ?? videos.min { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
    }
    return chosen?.estimatedSizeBytes ?? 0
  }
}
