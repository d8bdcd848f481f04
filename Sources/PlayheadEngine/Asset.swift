import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Media at a URL (file, http or https): a description whose properties load
/// asynchronously.
///
/// An asset only describes media; opening it is a player's (its media-source factory, over
/// its data-source stack). `load` probes the media once, through the stack it is given (by
/// default local files and HTTP(S) on the host clock), on a worker of that stack's clock;
/// every property then has its own load status, and an asset that failed to load reports
/// the same error for every property. A player that plays the asset opens it again with
/// its own stack and configuration.
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

  /// The media's URL. For an offline download folder (see `OfflineAsset`) it is the
  /// folder's playback file (its local master playlist or media file).
  public let url: URL
  /// The completed offline download the asset was created for, when its URL named a
  /// download folder; nil otherwise.
  public let offline: OfflineAsset?
  private let state = Locked(State())

  /// The loads' statuses and what probing found.
  private struct State: Sendable {
    var statuses: [Property: LoadStatus] = [:]
    var probe: AssetProbe?
    var loadError: PlayheadError?
    var opening: OpenCancellation?
    var cancelled = false
    /// Set when the content turned out to be an HLS playlist under another name.
    var contentIsHLS = false
    /// Set when the content turned out to be a DASH manifest under another name.
    var contentIsDASH = false
    /// Whether an open of the asset found encrypted media (nil until one opened).
    var foundProtectedContent: Bool?
  }

  /// Creates an asset; no media is read until a property is loaded or the asset plays.
  ///
  /// A local folder holding a completed offline download plays its local playlist or file
  /// (decrypted with `OfflineKeyRegistry.shared` when encrypted at rest).
  public init(url: URL) {
    let offline = OfflineAsset.resolve(url)
    self.offline = offline
    self.url = offline?.playbackURL ?? url
  }

  /// The load status of `property`.
  public func status(of property: Property) -> LoadStatus {
    state.withLock { $0.statuses[property] ?? .notYetLoaded }
  }

  /// Loads `properties` (all of them when empty) through `stack` (local files and HTTP(S)
  /// with default requests on the host clock when nil); throws the loading error, if any.
  ///
  /// The media is probed once; later loads return what it found (or its error).
  public func load(
    _ properties: [Property] = Property.allCases, through stack: DataSourceStack? = nil
  ) async throws(PlayheadError) {
    let wanted = properties.isEmpty ? Property.allCases : properties
    markLoading(wanted)
    let factory = MediaSourceFactory(stack: stack ?? DataSourceStack())
    let result: Result<Void, PlayheadError> = await withCheckedContinuation { continuation in
      factory.clock.startThread(named: "playhead.asset") {
        do throws(PlayheadError) {
          _ = try self.probe(with: factory)
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
  public func loadDuration(through stack: DataSourceStack? = nil) async throws(PlayheadError)
    -> MediaTime
  {
    try await load([.duration], through: stack)
    return duration
  }

  /// Loads and returns the tracks.
  public func loadTracks(through stack: DataSourceStack? = nil) async throws(PlayheadError)
    -> [AssetTrack]
  {
    try await load([.tracks], through: stack)
    return tracks
  }

  /// Loads and returns whether the asset has a stream Playhead can decode.
  public func loadIsPlayable(through stack: DataSourceStack? = nil) async -> Bool {
    do { try await load([.isPlayable], through: stack) } catch { return false }
    return isPlayable
  }

  /// Stops loading; waiting loads end with `.cancelled`.
  public func cancelLoading() {
    let opening = state.withLock { state in
      state.cancelled = true
      return state.opening
    }
    opening?.cancel()
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

  /// Whether the asset plays through Playhead's HLS engine: its URL names a playlist
  /// (`.m3u8` or `.m3u`), or its content, once opened, is one (`#EXTM3U` first) whatever
  /// its name or Content-Type.
  ///
  /// Before a property has loaded, only the URL's name can tell.
  public var isHLS: Bool {
    if ["m3u8", "m3u"].contains(url.pathExtension.lowercased()) { return true }
    return state.withLock { $0.contentIsHLS }
  }

  /// Whether the asset is a DASH manifest, which plays through the same segment engine as
  /// HLS: its URL names one (`.mpd`), or its content, once opened, is one (an XML document
  /// whose root is `MPD`) whatever its name or Content-Type.
  ///
  /// Before a property has loaded, only the URL's name can tell.
  public var isDASH: Bool {
    if url.pathExtension.lowercased() == "mpd" { return true }
    return state.withLock { $0.contentIsDASH }
  }

  // MARK: What opening tells

  /// The content turned out to be an HLS playlist under another name.
  func noteContentIsHLS() {
    state.withLock { $0.contentIsHLS = true }
  }

  /// The content turned out to be a DASH manifest under another name.
  func noteContentIsDASH() {
    state.withLock { $0.contentIsDASH = true }
  }

  /// An open found the media encrypted (or clear).
  func noteOpened(isProtected: Bool) {
    state.withLock { state in
      state.foundProtectedContent = (state.foundProtectedContent ?? false) || isProtected
    }
  }

  /// Probes the media once with `factory`; later calls return the same probe or error.
  func probe(with factory: MediaSourceFactory) throws(PlayheadError) -> AssetProbe {
    let url = url
    let opening = OpenCancellation()
    let earlier = try state.withLock { (state) throws(PlayheadError) -> AssetProbe? in
      if let probe = state.probe { return probe }
      if let loadError = state.loadError { throw loadError }
      if state.cancelled { throw PlayheadError(.cancelled, "loading cancelled", url: url) }
      state.opening = opening
      return nil
    }
    if let earlier { return earlier }
    do throws(PlayheadError) {
      let probe = try factory.probe(self, cancellation: opening)
      noteOpened(isProtected: probe.hasProtectedContent)
      state.withLock { state in
        state.probe = probe
        state.opening = nil
      }
      return probe
    } catch {
      state.withLock { state in
        state.loadError = error
        state.opening = nil
      }
      throw error
    }
  }
}
