import Foundation
import PlayheadCore
import PlayheadEngine
import PlayheadNet

/// How a playback controller refreshes the sources of videos that came from the catalog
/// (seed 000's manifest-URL time to live): when a session's manifest URL has outlived
/// `manifestTTLSeconds` (or the server rejects it as expired, or its signature has
/// expired), the controller fetches the video again from `service` and plays on from the
/// same position on the fresh source's URL.
///
/// The time to live counts from when the session is made (the controller does not know
/// when the video was fetched; make sessions soon after fetching) and again from each
/// refresh. Only the manifest URL (the session source's URL: the master or media
/// playlist, or the progressive file) is refreshed from the catalog; other resources whose
/// URLs expire (segments and keys the playlists name) go to the controller's
/// `urlSourceExpiredHandler`. Videos without an `id` are not re-fetched.
public struct CatalogSourceRefresh: Sendable {
  /// The catalog to fetch videos from again.
  public var service: PlaybackService
  /// How long a manifest URL stays valid, in seconds; nil leaves expiry to the server's
  /// status (403, 410) and the signer of the player configuration's `sourceRefresh`.
  public var manifestTTLSeconds: Int64?
  /// The playback-authorization token for the re-fetch, if the catalog needs one.
  public var authToken: String?

  public init(service: PlaybackService, manifestTTLSeconds: Int64? = nil, authToken: String? = nil)
  {
    self.service = service
    self.manifestTTLSeconds = manifestTTLSeconds.map { max(1, $0) }
    self.authToken = authToken
  }
}

/// The application's hook for a session's expired URLs: the session, the expired request
/// and the callback to answer once (`onSuccess(newURL)` or `onError(message)`), from any
/// thread. Called on a loading thread.
public typealias SessionSourceExpiredHandler =
  @Sendable (PlaybackSession, ExpiredURLSource, SourceRefreshCallback) -> Void

/// One session's refresh state: the manifest's current URL and when it expires, and the
/// handlers to ask. Shared by the session's player (loading threads) and the controller;
/// the mutable fields are in one `Locked`.
final class SessionSourceRefresh: Sendable {
  private let catalog: CatalogSourceRefresh?
  private let appHandler: SessionSourceExpiredHandler?
  private let engineHandler: URLSourceExpiredHandler?
  private let wallClockSeconds: @Sendable () -> Int64
  private let state = Locked(State())

  private struct State: Sendable {
    /// Weak: the session's player configuration holds this object through its handlers.
    weak var session: PlaybackSession?
    var originalManifest: URL?
    var manifestURL: URL?
    var manifestExpiry: Int64?
  }

  /// Whether anything is configured to refresh with.
  var isActive: Bool { catalog != nil || appHandler != nil }

  init(
    catalog: CatalogSourceRefresh?, appHandler: SessionSourceExpiredHandler?,
    configuration: PlayerConfiguration
  ) {
    self.catalog = catalog
    self.appHandler = appHandler
    self.engineHandler = configuration.urlSourceExpiredHandler
    self.wallClockSeconds = configuration.sourceRefresh.wallClockSeconds
  }

  /// Routes the player's expired URLs through this session's handlers.
  func install(into configuration: inout PlayerConfiguration) {
    guard isActive else { return }
    configuration.urlSourceExpiredHandler = { [self] expired, callback in
      handle(expired, callback)
    }
    let previous = configuration.sourceRefresh.expiryProvider
    configuration.sourceRefresh.expiryProvider = { [self] url in
      manifestExpiry(of: url) ?? previous?(url)
    }
  }

  /// Ties the state to the session made with it; the lease starts now.
  func attach(_ session: PlaybackSession) {
    // Read before taking the lock: the session's getters and the wall clock are calls out.
    let url = session.source?.url
    // A video without an id cannot be fetched again, so its manifest gets no lease.
    let expiry = session.video.id == nil ? nil : catalog?.manifestTTLSeconds.map(leaseEnd)
    state.withLock { state in
      state.session = session
      state.originalManifest = url
      state.manifestURL = url
      state.manifestExpiry = expiry
    }
  }

  /// The manifest URL the session plays now (the source's URL until refreshed).
  var currentManifestURL: URL? { state.withLock { $0.manifestURL } }

  private func manifestExpiry(of url: URL) -> Int64? {
    state.withLock { url == $0.manifestURL ? $0.manifestExpiry : nil }
  }

  private func handle(_ expired: ExpiredURLSource, _ callback: SourceRefreshCallback) {
    let (session, isManifest) = state.withLock {
      ($0.session, expired.originalURL == $0.originalManifest)
    }
    guard let session else {
      callback.onError("the session is not ready")
      return
    }
    if isManifest, let catalog, let id = session.video.id, let current = session.source {
      Task.detached { [self] in
        await refetch(id: id, like: current, catalog: catalog, callback: callback)
      }
      return
    }
    if let appHandler {
      appHandler(session, expired, callback)
    } else if let engineHandler {
      engineHandler(expired, callback)
    } else {
      callback.onError(
        "no refresh handler for the expired \(expired.purpose.rawValue) \(expired.url.absoluteString)"
      )
    }
  }

  /// Fetches the video again and answers with the URL of its source most like `current`.
  private func refetch(
    id: String, like current: Source, catalog: CatalogSourceRefresh,
    callback: SourceRefreshCallback
  ) async {
    let result: PlaybackServiceVideoResult
    do {
      result = try await catalog.service.findVideo(
        PlaybackServiceRequest(identifier: id, authToken: catalog.authToken))
    } catch {
      callback.onError("the catalog could not refresh video \(id): \(error.message)")
      return
    }
    let sources = result.video.sources
    let chosen =
      sources.first {
        $0.deliveryMethod == current.deliveryMethod && $0.mimeType == current.mimeType
      }
      ?? sources.first { $0.deliveryMethod == current.deliveryMethod }
      ?? (try? SourceSelectionPolicy.default.chooseSource(for: result.video))
    guard let chosen else {
      callback.onError("the catalog's video \(id) has no playable source any more")
      return
    }
    renewLease(chosen.url, ttlSeconds: catalog.manifestTTLSeconds)
    callback.onSuccess(chosen.url)
  }

  /// The manifest is `url` from now on, valid for `ttlSeconds` (nil: no time to live).
  private func renewLease(_ url: URL, ttlSeconds: Int64?) {
    let expiry = ttlSeconds.map(leaseEnd)
    state.withLock { state in
      state.manifestURL = url
      state.manifestExpiry = expiry
    }
  }

  /// When a lease of `ttlSeconds` taken now ends (the end of time when that overflows).
  private func leaseEnd(_ ttlSeconds: Int64) -> Int64 {
    let (end, overflow) = wallClockSeconds().addingReportingOverflow(ttlSeconds)
    return overflow ? .max : end
  }
}
