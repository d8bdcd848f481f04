import Foundation
import PlayheadCore
import PlayheadMedia

/// The thumbnail track of one session: loads it once, looks thumbnails up and loads their
/// pictures, and reports each failed asset once through `report`.
///
/// Thread-safe (state under `lock`); the controller makes one per session whose video has
/// a thumbnails file.
final class SessionThumbnails: @unchecked Sendable {
  // Unchecked Sendable: `state` and `reported` are guarded by `lock`; the rest never
  // changes.
  let trackURL: URL
  let loader: ThumbnailLoader
  private let report: @Sendable (PlayheadError) -> Void
  private let lock = NSLock()
  private var state = State.idle
  private var reported: Set<URL> = []

  private enum State {
    case idle
    case loading(Task<Result<ThumbnailTrack, PlayheadError>, Never>)
    case loaded(ThumbnailTrack)
    case failed(PlayheadError)
    case cancelled
  }

  init(trackURL: URL, loader: ThumbnailLoader, report: @escaping @Sendable (PlayheadError) -> Void)
  {
    self.trackURL = trackURL
    self.loader = loader
    self.report = report
  }

  /// Starts loading the track unless it is loading, loaded, failed or cancelled.
  func start() {
    lock.lock()
    defer { lock.unlock() }
    guard case .idle = state else { return }
    let loader = self.loader
    let url = trackURL
    let task = Task.detached { [weak self] () -> Result<ThumbnailTrack, PlayheadError> in
      let result: Result<ThumbnailTrack, PlayheadError>
      do throws(PlayheadError) {
        result = .success(try await loader.loadTrack(from: url))
      } catch {
        result = .failure(error)
      }
      self?.finishLoading(result)
      return result
    }
    state = .loading(task)
  }

  /// The track once loaded; nil while loading, after a failure, or before `start()`.
  var loadedTrack: ThumbnailTrack? {
    lock.lock()
    defer { lock.unlock() }
    if case .loaded(let track) = state { return track }
    return nil
  }

  /// The track, waiting for the load (started if needed).
  func track() async throws(PlayheadError) -> ThumbnailTrack {
    start()
    switch currentState {
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
    let track = try await track()
    do {
      return try await loader.thumbnail(at: time, in: track)
    } catch {
      if error.code != .cancelled, let url = track.thumbnail(at: time)?.imageURL {
        reportOnce(error, key: url)
      }
      throw error
    }
  }

  private var currentState: State {
    lock.lock()
    defer { lock.unlock() }
    return state
  }

  /// Cancels the loads; later calls throw `.cancelled` and nothing more is reported.
  func cancel() {
    lock.lock()
    let current = state
    state = .cancelled
    lock.unlock()
    if case .loading(let task) = current { task.cancel() }
    loader.cancelAll()
  }

  private func finishLoading(_ result: Result<ThumbnailTrack, PlayheadError>) {
    lock.lock()
    guard case .loading = state else {
      lock.unlock()
      return
    }
    switch result {
    case .success(let track): state = .loaded(track)
    case .failure(let error): state = .failed(error)
    }
    lock.unlock()
    if case .failure(let error) = result, error.code != .cancelled {
      reportOnce(error, key: trackURL)
    }
  }

  private func reportOnce(_ error: PlayheadError, key: URL) {
    lock.lock()
    if case .cancelled = state {
      lock.unlock()
      return
    }
    let isNew = reported.insert(key).inserted
    lock.unlock()
    if isNew { report(error) }
  }
}
