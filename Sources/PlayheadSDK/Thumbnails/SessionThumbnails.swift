import Foundation
import PlayheadCore
import PlayheadMedia

/// The thumbnail track of one session: loads it once, looks thumbnails up and loads their
/// pictures, and reports each failed asset once through `report`.
///
/// Thread-safe (state in one `Locked`); the controller makes one per session whose video has
/// a thumbnails file, or whose source is a DASH MPD (its thumbnail tile sets).
final class SessionThumbnails: Sendable {
  /// Where the track comes from.
  enum Origin: Sendable, Equatable {
    /// A WebVTT thumbnails file; its failure to load is reported.
    case webVTT
    /// The session's DASH MPD: no usable thumbnail set gives no track, and a failure to
    /// load the MPD is not reported here (playback reports its manifest's errors).
    case dashManifest
  }

  let trackURL: URL
  let origin: Origin
  let loader: ThumbnailLoader
  private let report: @Sendable (PlayheadError) -> Void
  private let state = Locked(State())

  private struct State: Sendable {
    var phase = Phase.idle
    var reported: Set<URL> = []
  }

  private enum Phase: Sendable {
    case idle
    case loading(Task<Result<ThumbnailTrack?, PlayheadError>, Never>)
    /// Loaded; nil when the MPD has no usable thumbnail set.
    case loaded(ThumbnailTrack?)
    case failed(PlayheadError)
    case cancelled
  }

  init(
    trackURL: URL, origin: Origin = .webVTT, loader: ThumbnailLoader,
    report: @escaping @Sendable (PlayheadError) -> Void
  ) {
    self.trackURL = trackURL
    self.origin = origin
    self.loader = loader
    self.report = report
  }

  /// Starts loading the track unless it is loading, loaded, failed or cancelled.
  func start() {
    let loader = self.loader
    let url = trackURL
    let origin = self.origin
    // The task is made under the lock, so that only one load starts; it takes the lock
    // itself only when it finishes.
    state.withLock { state in
      guard case .idle = state.phase else { return }
      let task = Task.detached { [weak self] () -> Result<ThumbnailTrack?, PlayheadError> in
        let result: Result<ThumbnailTrack?, PlayheadError>
        do throws(PlayheadError) {
          switch origin {
          case .webVTT: result = .success(try await loader.loadTrack(from: url))
          case .dashManifest: result = .success(try await loader.loadDASHTrack(from: url))
          }
        } catch {
          result = .failure(error)
        }
        self?.finishLoading(result)
        return result
      }
      state.phase = .loading(task)
    }
  }

  /// The track once loaded; nil while loading, after a failure, or before `start()`.
  var loadedTrack: ThumbnailTrack? {
    if case .loaded(let track) = currentPhase { return track }
    return nil
  }

  /// The track, waiting for the load (started if needed); nil when an MPD has none.
  func track() async throws(PlayheadError) -> ThumbnailTrack? {
    start()
    switch currentPhase {
    case .loaded(let track):
      return track
    case .failed(let error):
      throw error
    case .loading(let task):
      return try await task.value.get()
    case .idle, .cancelled:
      throw PlayheadError(.cancelled, "the session's thumbnails were discarded", url: trackURL)
    }
  }

  /// The thumbnail for `time` with its picture; nil when the track has none for it.
  ///
  /// A picture that cannot be loaded is reported once per image URL, and thrown.
  func thumbnail(at time: MediaTime) async throws(PlayheadError) -> Thumbnail? {
    guard let track = try await track() else { return nil }
    do {
      return try await loader.thumbnail(at: time, in: track)
    } catch {
      if error.code != .cancelled, let url = track.thumbnail(at: time)?.imageURL {
        reportOnce(error, key: url)
      }
      throw error
    }
  }

  private var currentPhase: Phase { state.withLock { $0.phase } }

  /// Cancels the loads; later calls throw `.cancelled` and nothing more is reported.
  func cancel() {
    let current = state.withLock { state in
      defer { state.phase = .cancelled }
      return state.phase
    }
    if case .loading(let task) = current { task.cancel() }
    loader.cancelAll()
  }

  private func finishLoading(_ result: Result<ThumbnailTrack?, PlayheadError>) {
    let finished = state.withLock { state -> Bool in
      guard case .loading = state.phase else { return false }
      switch result {
      case .success(let track): state.phase = .loaded(track)
      case .failure(let error): state.phase = .failed(error)
      }
      return true
    }
    guard finished else { return }
    if case .failure(let error) = result, error.code != .cancelled, origin == .webVTT {
      reportOnce(error, key: trackURL)
    }
  }

  private func reportOnce(_ error: PlayheadError, key: URL) {
    let isNew = state.withLock { state -> Bool in
      if case .cancelled = state.phase { return false }
      return state.reported.insert(key).inserted
    }
    if isNew { report(error) }
  }
}
