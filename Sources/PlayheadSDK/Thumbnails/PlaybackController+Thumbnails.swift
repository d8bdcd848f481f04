import Foundation
import PlayheadCore
import PlayheadMedia

extension PlaybackController {
  /// The thumbnails track of the current session, once loaded; nil while it loads, when it
  /// failed, when the video has none, or when `thumbnailSeekingEnabled` is false.
  ///
  /// The track is the video's WebVTT thumbnails file (`thumbnailsFileURL(of:)`); when it has
  /// none and the session's source is a DASH MPD (`deliveryMethod == .dash`), it is the
  /// MPD's DASH-IF thumbnail tile set (`ThumbnailTrack.init(mpd:…)`, widest tiles), loaded
  /// through the player's data-source stack. The WebVTT file wins when both exist. A live
  /// (dynamic) MPD gives no thumbnails yet.
  public var thumbnailTrack: ThumbnailTrack? {
    guard thumbnailSeekingEnabled else { return nil }
    return queue.sync { current?.thumbnails }?.loadedTrack
  }

  /// Where the current session's thumbnail for `time` is, without loading anything; nil
  /// until the track is loaded (see `thumbnailTrack`) and where the track has none (see
  /// `ThumbnailTrack`'s lookup rule).
  public func thumbnailReference(at time: MediaTime) -> ThumbnailReference? {
    thumbnailTrack?.thumbnail(at: time)
  }

  /// The current session's thumbnail for `time`, with its picture fetched, decoded and
  /// cropped (sprite sheets are cached by image URL).
  ///
  /// Waits for the thumbnails file if it is still loading (and starts loading it if
  /// thumbnail seeking was switched on after the session began). Returns nil when
  /// `thumbnailSeekingEnabled` is false, when there is no session, when its video has no
  /// thumbnails (see `thumbnailTrack`), and where the track has no thumbnail for `time`.
  /// Throws the thumbnails file's or the image's error (the session also receives
  /// `thumbnailAssetFailedToLoad`, once per file; not for a DASH MPD that fails to load,
  /// which playback reports), and `.cancelled` once the session is discarded.
  public func thumbnail(at time: MediaTime) async throws(PlayheadError) -> Thumbnail? {
    guard thumbnailSeekingEnabled else { return nil }
    let seeking = await withCheckedContinuation {
      (continuation: CheckedContinuation<SessionThumbnails?, Never>) in
      queue.async { [self] in
        guard let runtime = current else {
          continuation.resume(returning: nil)
          return
        }
        continuation.resume(returning: thumbnails(for: runtime))
      }
    }
    guard let seeking else { return nil }
    return try await seeking.thumbnail(at: time)
  }

  /// The thumbnails file of `video`: its `thumbnailVTTURL`, else the source of its first
  /// text track of kind `thumbnails` (as the Playback API lists them); nil when neither.
  public static func thumbnailsFileURL(of video: Video) -> URL? {
    if let url = video.thumbnailVTTURL { return url }
    return video.textTracks.first { $0.kind == "thumbnails" && $0.src != nil }?.src
  }

  /// Starts loading the session's thumbnails file when thumbnail seeking is on and the
  /// video has one. Call on the queue, when the session becomes current.
  func startThumbnails(_ runtime: SessionRuntime) {
    guard readSettings({ $0.thumbnailSeekingEnabled }) else { return }
    thumbnails(for: runtime)?.start()
  }

  /// The session's thumbnails, made on first use; nil for a session that cannot play or
  /// has no thumbnails file and no DASH source. Call on the queue.
  func thumbnails(for runtime: SessionRuntime) -> SessionThumbnails? {
    if let existing = runtime.thumbnails { return existing }
    guard runtime.session.setupError == nil, !runtime.session.isTerminated,
      let (url, origin) = Self.thumbnailsOrigin(of: runtime.session)
    else { return nil }
    // Thumbnails come through the players' own stack (their network, cache and requests).
    let loader = ThumbnailLoader(stack: basePlayerConfiguration.makeDataSourceStack())
    let made = SessionThumbnails(trackURL: url, origin: origin, loader: loader) {
      [weak self, weak runtime] error in
      guard let self, let runtime else { return }
      self.sendLifecycleFromAnyQueue(.thumbnailAssetFailedToLoad, runtime, error: error)
    }
    runtime.thumbnails = made
    return made
  }

  /// Where `session`'s thumbnails come from: its video's WebVTT file, else its DASH source's
  /// MPD; nil when neither.
  static func thumbnailsOrigin(of session: PlaybackSession) -> (URL, SessionThumbnails.Origin)? {
    if let url = thumbnailsFileURL(of: session.video) { return (url, .webVTT) }
    if let source = session.source, source.deliveryMethod == .dash {
      return (source.url, .dashManifest)
    }
    return nil
  }

  /// Sends a lifecycle event of `runtime`'s session from any thread (through the queue);
  /// nothing is sent once the session is terminated.
  func sendLifecycleFromAnyQueue(
    _ type: LifecycleEventType, _ runtime: SessionRuntime, error: PlayheadError? = nil
  ) {
    queue.async { [self] in
      guard !isClosed, !runtime.session.isTerminated else { return }
      sendLifecycle(type, runtime, error: error)
    }
  }
}
