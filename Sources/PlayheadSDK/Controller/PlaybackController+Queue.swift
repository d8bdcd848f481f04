import Foundation
import PlayheadCore
import PlayheadEngine

extension PlaybackController {
  /// Replaces the list of videos; the first session is delivered asynchronously and
  /// replaces the current one (which receives `terminate`).
  ///
  /// An empty list, or one where no video has any source, sends `noPlayableVideosFound`.
  public func setVideos(_ videos: [Video]) {
    queue.async { [self] in
      guard !isClosed else { return }
      terminateCurrent()
      discardPrepared()
      self.videos = videos
      currentIndex = nil
      playlistCompleted = false
      if videos.allSatisfy({ $0.sources.isEmpty }) {
        notify(.noPlayableVideos(videos))
      }
      guard !videos.isEmpty else { return }
      queue.async { [self] in
        if currentIndex == nil, !self.videos.isEmpty { advance(to: 0) }
      }
    }
  }

  /// Replaces the list with a playlist's videos (see `setVideos(_:)`).
  public func setVideos(_ playlist: Playlist) {
    setVideos(playlist.videos)
  }

  /// Moves to the next video's session; no effect after the last one.
  ///
  /// The next session may be delivered asynchronously.
  public func advanceToNext() {
    queue.async { [self] in
      guard !isClosed, let index = currentIndex, index + 1 < videos.count else { return }
      advance(to: index + 1)
    }
  }

  /// Inserts `video` after the video at `index` of the list.
  ///
  /// Sends `didInsert(video, at: index + 1)`, or `failedToInsert` when `index` is outside the
  /// list. Inserting right after the current video makes it the next one.
  public func insert(video: Video, afterVideoAt index: Int) {
    queue.async { [self] in
      guard !isClosed, index >= 0, index < videos.count else {
        notify(.insertFailed(video))
        return
      }
      videos.insert(video, at: index + 1)
      if let current = currentIndex {
        if current > index { currentIndex = current + 1 }
        if current == index { discardPrepared() }
      }
      notify(.inserted(video, index + 1))
      if let current = currentIndex, current == index, let runtime = self.current,
        runtime.isReady
      {
        prepareNext(after: current)
      }
    }
  }

  // MARK: Sessions (on the queue)

  /// Makes the session of `videos[index]` current and delivers it.
  func advance(to index: Int) {
    guard index < videos.count else { return }
    terminateCurrent()
    let runtime: SessionRuntime
    if let prepared, prepared.listIndex == index, prepared.session.video == videos[index] {
      runtime = prepared
      self.prepared = nil
    } else {
      discardPrepared()
      runtime = makeRuntime(for: videos[index], listIndex: index)
    }
    currentIndex = index
    current = runtime
    runtime.videoGate.isOpen = true
    runtime.bumper?.videoGate.isOpen = true
    notify(.advanced(runtime.session))
    connectPluginEvents(runtime)
    if let failure = runtime.session.setupError {
      runtime.hasFailed = true
      sendLifecycle(.fail, runtime, error: failure.playheadError)
      moveOnAfterFailure(runtime)
      return
    }
    observe(runtime)
    applyMute(to: runtime)
    startThumbnails(runtime)
    if readSettings({ $0.autoPlay }) { performPlay(runtime, isRequest: false) }
  }

  /// Lets the session's plug-ins send lifecycle events (`PlaybackSession.send`) while it is
  /// current; the clock time is filled in when the plug-in left it out. Call on the queue.
  private func connectPluginEvents(_ runtime: SessionRuntime) {
    let session = runtime.session
    session.connectEvents { [weak self, weak runtime] event in
      guard let self, let runtime else { return }
      self.queue.async { [weak runtime] in
        guard let runtime, runtime === self.current else { return }
        let stamped =
          event.clockTime.isNumeric
          ? event
          : LifecycleEvent(
            type: event.type, error: event.error, currentTime: event.currentTime,
            previousTime: event.previousTime, clockTime: self.clock.now,
            properties: event.properties)
        self.notify(.lifecycle(session, stamped))
      }
    }
  }

  /// Makes a session for `video` through the provider chain, with its bumper if any.
  func makeRuntime(for video: Video, listIndex: Int) -> SessionRuntime {
    let gate = SessionVideoGate(target: videoView)
    let refresh = makeSourceRefresh()
    let session = provider.makeSession(
      for: video, context: context(gate: gate, isBumper: false, refresh: refresh))
    refresh.attach(session)
    let runtime = SessionRuntime(session: session, videoGate: gate)
    runtime.listIndex = listIndex
    attachAds(runtime)
    if session.setupError == nil, let bumperVideo = bumperVideo(for: video) {
      let bumperGate = SessionVideoGate(target: videoView)
      let bumperSession = provider.makeSession(
        for: bumperVideo, context: context(gate: bumperGate, isBumper: true))
      if bumperSession.player != nil {
        runtime.bumper = BumperRuntime(session: bumperSession, videoGate: bumperGate)
      } else {
        manager.log("bumper skipped: \(bumperSession.setupError?.message ?? "no player")")
      }
    }
    return runtime
  }

  /// The bumper for `video`: its `bumper_id` custom field (looked up) wins over the
  /// controller's bumper video.
  private func bumperVideo(for video: Video) -> Video? {
    let (configured, lookup) = readSettings { ($0.bumperVideo, $0.bumperLookup) }
    if let bumperID = video.customFields["bumper_id"], !bumperID.isEmpty, let lookup {
      if let found = lookup(bumperID) { return found }
      manager.log("bumper video \(bumperID) not found; using the configured bumper if any")
    }
    return configured
  }

  /// The context a provider builds a session's player with.
  private func context(
    gate: SessionVideoGate, isBumper: Bool, refresh: SessionSourceRefresh? = nil
  ) -> PlaybackSessionContext {
    let (options, peak, preview) = readSettings {
      ($0.options, $0.preferredPeakBitRate, $0.previewDuration)
    }
    var configuration = basePlayerConfiguration
    refresh?.install(into: &configuration)
    configuration.videoSink = gate
    configuration.audioSink = audioOutput
    var buffer = configuration.hls.bufferSettings ?? BufferSettings()
    buffer.optimizer = options.bufferOptimizer
    configuration.hls.bufferSettings = buffer
    return PlaybackSessionContext(
      playerConfiguration: configuration, options: options,
      preferredPeakBitRate: isBumper ? 0 : peak, isBumper: isBumper,
      previewDuration: isBumper ? .invalid : preview)
  }

  /// Prepares the session after `index` ahead of time (its player opens and buffers).
  ///
  /// Not in fast mode (a `ManualClock` that advances on every wait): the preparing player's
  /// waits would move the shared clock under the session that is playing.
  func prepareNext(after index: Int) {
    let next = index + 1
    guard next < videos.count, prepared == nil, !isClosed, !isFastClock else { return }
    prepared = makeRuntime(for: videos[next], listIndex: next)
  }

  /// Whether the players run on a fast-mode clock.
  var isFastClock: Bool {
    basePlayerConfiguration.timing == .fast
  }

  /// Sends `terminate` to the current session and discards it.
  func terminateCurrent() {
    guard let runtime = current else { return }
    current = nil
    removeObservers(runtime)
    runtime.videoGate.isOpen = false
    runtime.bumper?.videoGate.isOpen = false
    detachAds(runtime)
    sendLifecycle(.terminate, runtime)
    runtime.thumbnails?.cancel()
    refreshQoE(runtime)
    _ = runtime.bumper?.session.terminate()
    _ = runtime.session.terminate()
  }

  /// Closes the session prepared ahead (it was never delivered, so it gets no events).
  func discardPrepared() {
    guard let runtime = prepared else { return }
    prepared = nil
    detachAds(runtime)
    _ = runtime.bumper?.session.terminate()
    _ = runtime.session.terminate()
  }

  /// After a session ended: the next one with autoAdvance, or the end of the list.
  func moveOnAfterEnd(_ runtime: SessionRuntime) {
    guard runtime === current, !runtime.didMoveOn, readSettings({ $0.autoAdvance }) else { return }
    runtime.didMoveOn = true
    goToNextOrComplete()
  }

  /// After a session could not play: as after its end, per autoAdvance.
  func moveOnAfterFailure(_ runtime: SessionRuntime) {
    moveOnAfterEnd(runtime)
  }

  private func goToNextOrComplete() {
    guard let index = currentIndex else { return }
    if index + 1 < videos.count {
      queue.async { [self] in
        if currentIndex == index { advance(to: index + 1) }
      }
    } else if !playlistCompleted {
      playlistCompleted = true
      notify(.playlistComplete(videos))
    }
  }
}
