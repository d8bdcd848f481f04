import Foundation
import PlayheadCore
import PlayheadMedia

extension PlaybackLoop {
  /// Creates the working state and loader for a run of `item` and starts loading it.
  ///
  /// The run starts from what the item showed (`origin`, by default its published
  /// snapshot) and the item state the loop carries on (by default that snapshot's).
  func makeActive(
    _ item: PlayerItem, origin: ItemSnapshot? = nil, state: ItemState? = nil,
    startLoading: Bool = true
  ) -> ActiveItem {
    let origin = origin ?? item.snapshot
    let state = (state ?? origin.state).forNewRun
    let loadControl = ItemLoadControl(item: item, make: configuration.loadControlFactory)
    let mailbox = LoaderMailbox()
    var hls = hlsConfiguration(for: item)
    hls.itemLoadControl = loadControl
    hls.logger = logger(for: item)
    let settings = LoaderSettings(
      decodesVideo: !configuration.isVideoDisabled,
      decodesAudio: !configuration.isAudioDisabled,
      decoderThreadCount: configuration.decoderThreadCount,
      audioFormat: configuration.effectiveAudioFormat,
      // The output's channels are chosen as audio is written (`renderAudio`), so the mode
      // can change while playing; a mono output can only take it from the source.
      audioChannel: configuration.effectiveAudioFormat.channels == 1
        ? configuration.audioOutputChannel : .both,
      videoFramesAhead: configuration.videoFramesAhead,
      audioAhead: MediaTime(value: 1, timescale: 2),
      hls: hls,
      clock: configuration.clock,
      backupURLProvider: configuration.backupURLProvider,
      preferredAudioLanguages: item.readSettings { $0.preferredAudioLanguages },
      initialAudioRendition: state.selectedAudioRendition,
      sources: sources,
      refresher: makeSourceRefresher(for: item, mailbox: mailbox))
    let loader = ItemLoader(asset: item.asset, settings: settings, wake: wake)
    mailbox.attach(loader)
    loader.updateSelection(selection(for: item))
    if let subtitle = state.selectedSubtitleRendition {
      // A resume keeps the selected subtitles.
      loader.selectSubtitleRendition(RenditionSelection(rendition: subtitle))
    }
    let video = VideoRenderer(
      loader: loader, sink: configuration.videoSink,
      lateFrameDropThreshold: configuration.lateFrameDropThreshold
    ) { [unowned self] frame in
      snapshotLock.lock()
      lastPresentedFrame = frame
      snapshotLock.unlock()
    }
    let audio = AudioRenderer(
      loader: loader, sink: configuration.audioSink,
      process: { [unowned self] (buffer) throws(PlayheadError) in
        try renderAudio(buffer, algorithm: item.audioTimePitchAlgorithm)
      },
      drain: { [unowned self] () throws(PlayheadError) in try drainAudioStages() })
    let active = ActiveItem(
      item: item, origin: origin, state: state, loader: loader, loadControl: loadControl,
      video: video, audio: audio)
    active.playRequestClock = clock.now
    item.owner = self
    if startLoading {
      logItemOpening(item)
      loader.start()
    }
    return active
  }

  /// Makes `queue[0]` current (reusing a preloaded loader) or clears the current item.
  func activateHead(startingAt start: MediaTime? = nil) {
    if let old = current {
      finishPeriod(old)
      old.loader.stop()
      // Its last state stays in the item, for a later run to start from.
      publishItem(old)
    }
    current = nil
    if let head = queue.first, let start {
      // The seek reaches the loader before it starts, so it opens at `start`.
      preloaded?.loader.stop()
      preloaded = nil
      let active = makeActive(head, startLoading: false)
      current = active
      performSeek(
        item: head, to: start, toleranceBefore: .zero, toleranceAfter: .zero, completion: nil)
      logItemOpening(head)
      active.loader.start()
    } else if let head = queue.first {
      if let preloaded, preloaded.item === head {
        current = preloaded
        self.preloaded = nil
        current?.playRequestClock = clock.now
      } else {
        preloaded?.loader.stop()
        preloaded = nil
        current = makeActive(head)
      }
    }
    boundaryCursor = .zero
    resetAudioStages()
    resetPeriodicObservers()
    emit(.currentItemChanged(queue.first))
  }

  /// Jumps forward when playback of a live stream has fallen further behind the live
  /// edge than `HLSConfiguration.maximumLiveLatency`: to half that latency from the edge.
  private func catchUpIfTooFarBehind(_ active: ActiveItem, window: MediaTimeRange?) {
    guard let maximum = configuration.hls.maximumLiveLatency, let window, rate != 0,
      active.seek == nil, !active.isResuming, active.media?.streamKind == .live,
      window.end - active.position > maximum
    else { return }
    let target = max(window.start, window.end - maximum.multiplied(byRatio: 1, denominator: 2))
    guard target > active.position else { return }
    emit(.liveCatchUp(active.item, from: active.position, to: target))
    performSeek(
      item: active.item, to: target, toleranceBefore: .zero, toleranceAfter: .zero, completion: nil)
  }

  /// Posts the item's rendition limits to its loader (from any thread).
  func variantSelectionChanged(for item: PlayerItem) {
    post { loop in
      guard let active = loop.current, active.item === item else { return }
      active.loader.updateSelection(loop.selection(for: item))
    }
  }

  /// The player's HLS configuration with the item's start preference, if it has one.
  func hlsConfiguration(for item: PlayerItem) -> HLSConfiguration {
    var hls = configuration.hls
    if let preference = item.readSettings({ $0.startPreference }) {
      hls.startPreference = preference
    }
    return hls
  }

  /// The item's limits, falling back to the player's HLS configuration.
  func selection(for item: PlayerItem) -> VariantSelection {
    let hls = configuration.hls
    return item.readSettings { state in
      let itemPeak = Int(state.preferredPeakBitRate)
      let itemPixels = state.preferredMaximumResolution.map { $0.width * $0.height }
      return VariantSelection(
        preferredPeakBitRate: itemPeak > 0 ? itemPeak : hls.preferredPeakBitRate,
        maximumPixelCount: itemPixels ?? hls.maximumPixelCount,
        manualIndex: state.preferredVariantIndex ?? hls.manualVariantIndex)
    }
  }

  /// The loader opened the media: the item becomes ready.
  func becomeReady(_ active: ActiveItem, _ media: OpenedMedia) {
    active.media = media
    active.state.status = .readyToPlay
    if media.streamKind != .vod && active.seek == nil && !active.isResuming {
      // A live item starts near the edge, not at the start of its timeline.
      let start = media.startTime
      anchor(active, at: start, clock: clock.now)
      for renderer in active.renderers { renderer.reset(to: start) }
      boundaryCursor = start
      resetPeriodicObservers()
      positionMoved(active)
    }
    if status != .readyToPlay { status = .readyToPlay }
    if let backup = active.backupURL {
      emit(.backupSourceUsed(active.item, backup))
    }
    logItemReady(active, media)
    emit(.itemStatusChanged(active.item, .readyToPlay))
    emit(.durationChanged(active.item, media.duration))
    if configuration.prefersHardwareDecoding && media.hasVideo && !active.reportedSoftwareDecoding {
      active.reportedSoftwareDecoding = true
      emit(
        .softwareDecodingUsed(active.item, reason: "no hardware decoder is used on this platform"))
    }
    if configuration.prerendersFirstFrame { active.needsDisplayRefresh = true }
  }

  /// The item could not be opened.
  func itemFailed(_ active: ActiveItem, _ error: PlayheadError) {
    active.failed = true
    active.state.status = .failed(error)
    logError(error, of: active)
    logItemFailed(active, error)
    emit(.errorLogEntryAdded(active.item, error))
    emit(.itemStatusChanged(active.item, .failed(error)))
    failPendingSeek(active)
    if active.isResuming {
      active.isResuming = false
      emit(.resumeFailed(active.item, error))
    }
    if actionAtItemEnd == .advance && queue.count > 1 {
      queue.removeFirst()
      activateHead()
    }
  }

  /// Playback broke after the item was ready (read error, sink error).
  func playbackFailed(_ active: ActiveItem, _ error: PlayheadError) {
    guard !active.hasEnded else { return }
    active.hasEnded = true
    active.loader.stop()
    finishPeriod(active)
    logError(error, of: active)
    emit(.errorLogEntryAdded(active.item, error))
    emit(.failedToPlayToEnd(active.item, error))
    afterItemEnded()
  }

  /// The item played to `endTime`.
  func itemReachedEnd(_ active: ActiveItem, at endTime: MediaTime) {
    if let error = active.loader.snapshot().streamError {
      playbackFailed(active, error)
      return
    }
    if let error = endedEarlyError(active, at: endTime) {
      active.position = endTime
      positionMoved(active)
      playbackFailed(active, error)
      return
    }
    active.hasEnded = true
    active.position = endTime
    firePeriodicObservers(active, at: endTime)
    fireBoundaryObservers(active, upTo: endTime)
    positionMoved(active)
    finishPeriod(active)
    if let preview = previewEnd(active), endTime >= preview {
      emit(.previewEnded(active.item))
    } else {
      emit(.didPlayToEnd(active.item))
    }
    afterItemEnded()
  }

  private func afterItemEnded() {
    switch actionAtItemEnd {
    case .advance:
      let endClock = clock.now
      if !queue.isEmpty { queue.removeFirst() }
      activateHead()
      if let next = current {
        // Continue on the same clock instant so that back-to-back items have no gap.
        anchor(next, at: .zero, clock: endClock)
      } else {
        setRate(0)
        finishSinks()
      }
    case .pause:
      setRate(0)
    case .none:
      break
    }
  }

  /// Starts the next queue item's loader once the current one has read everything.
  func preloadNextIfNeeded(_ loaderStatus: LoaderStatus) {
    guard preloaded == nil, queue.count > 1, loaderStatus.videoEnded && loaderStatus.audioEnded
    else { return }
    preloaded = makeActive(queue[1])
  }

  /// Adds `error` to the item's error log.
  private func logError(_ error: PlayheadError, of active: ActiveItem) {
    active.state.errorLog.append(
      ErrorLogEntry(clockTime: clock.now, uri: active.item.asset.url.absoluteString, error: error))
  }

  /// Takes in what the loader reported since the last step (buffering, errors,
  /// renditions, live window, download speed) and raises the events of what changed.
  func reportLoaderProgress(_ active: ActiveItem, _ loaderStatus: LoaderStatus) {
    reportBuffering(active, loaderStatus)
    let errors = active.pendingErrors
    active.pendingErrors.removeAll()
    for error in errors {
      logError(error, of: active)
      emit(.errorLogEntryAdded(active.item, error))
    }
    let variants = active.pendingVariants
    active.pendingVariants.removeAll()
    for (variant, reported) in variants where variant != active.state.currentVariant {
      let reason: VariantChangeReason = active.state.currentVariant == nil ? .initial : reported
      if active.state.currentVariant != nil { active.variantSwitches += 1 }
      active.state.currentVariant = variant
      emit(.variantChanged(active.item, variant, reason))
      // The access log has one entry per rendition played: a switch closes the period.
      if active.period != nil {
        finishPeriod(active)
        startPeriod(active)
      }
    }
    let seekable: [MediaTimeRange]
    if let live = loaderStatus.seekableRange {
      seekable = [live]
    } else if let duration = active.media?.duration, duration.isNumeric {
      seekable = [MediaTimeRange(start: .zero, duration: duration)]
    } else {
      seekable = []
    }
    if seekable != active.state.seekableTimeRanges {
      active.state.seekableTimeRanges = seekable
      emit(.seekableTimeRangesChanged(active.item, seekable))
    }
    if let schedule = loaderStatus.interstitials,
      schedule.revision != active.state.interstitials?.revision
    {
      active.state.interstitials = schedule
      emit(.interstitialsChanged(active.item, schedule))
    }
    if let periods = loaderStatus.liveAdPeriods, let media = active.media,
      periods != media.adPeriods
    {
      active.media?.adPeriods = periods
    }
    reportRenditions(active)
    catchUpIfTooFarBehind(active, window: loaderStatus.seekableRange)
    if let speed = loaderStatus.downloadSpeed, speed > 0,
      speed != active.state.currentDownloadSpeed
    {
      active.state.currentDownloadSpeed = speed
      emit(.downloadSpeedChanged(active.item, bitsPerSecond: speed))
    }
  }

  /// Clock time spent playing, including the period under way.
  func playingTime(of active: ActiveItem) -> MediaTime {
    guard isClockRunning(active) else { return active.playingTime }
    return active.playingTime + (clock.now - active.anchorClock)
  }

  /// Tells the loader where playback is (the item's `currentTime` is published with the
  /// rest of its snapshot).
  func positionMoved(_ active: ActiveItem) {
    active.loader.playbackPositionChanged(active.position)
  }

  func setTimeControl(_ newValue: TimeControlStatus) {
    guard newValue != timeControl else { return }
    timeControl = newValue
    current?.audio.setPlaying(newValue == .playing)
    emit(.timeControlStatusChanged(newValue))
  }

  /// Changes the rate; 0 pauses. Negative rates are not supported and are ignored.
  func setRate(_ newRate: Float) {
    guard newRate >= 0, newRate.isFinite, newRate != rate else { return }
    let now = clock.now
    if let active = current {
      // Stalled, held or still waiting to start, the position did not move with the clock.
      if isClockRunning(active) {
        active.position = positionAt(now, active)
        active.playingTime = active.playingTime + (now - active.anchorClock)
        positionMoved(active)
      }
      anchor(active, at: active.position, clock: now)
      if rate == 0, newRate != 0, !active.firstFramePresented {
        // Time to first frame counts from the play request, not from when an item that
        // was opened ahead of time (a queue's or the SDK's next item) started loading.
        active.playRequestClock = now
      }
      if newRate == 0 {
        finishPeriod(active)
      } else if rate != 0 {
        finishPeriod(active)
        startPeriod(active)
      }
    }
    rate = newRate
    emit(.rateChanged(newRate))
    if newRate == 0 {
      setTimeControl(.paused)
    } else if timeControl == .paused {
      setTimeControl(.waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate))
    }
  }

  func startPeriod(_ active: ActiveItem) {
    guard active.period == nil else { return }
    // The first entry counts the bytes read to start playing too.
    let isFirst = active.state.accessLog.isEmpty
    active.period = AccessPeriod(
      startClock: clock.now, startItemTime: active.position,
      startBytes: isFirst ? 0 : active.loader.snapshot().bytesRead, startStalls: active.stallCount,
      startDropped: active.video.framesDropped, variant: active.state.currentVariant)
  }

  func finishPeriod(_ active: ActiveItem) {
    guard let period = active.period else { return }
    active.period = nil
    let bytes = active.loader.snapshot().bytesRead - period.startBytes
    let watched = max(.zero, active.position - period.startItemTime)
    let first = active.state.accessLog.isEmpty
    let assetURL = active.item.asset.url
    let uri =
      period.variant.flatMap { URL(string: $0.uri, relativeTo: assetURL)?.absoluteString }
      ?? assetURL.absoluteString
    let entry = AccessLogEntry(
      uri: uri,
      playbackStartClockTime: period.startClock,
      playbackStartItemTime: period.startItemTime,
      durationWatched: watched,
      bytesTransferred: bytes,
      observedBitrate: watched.seconds > 0 ? Double(bytes) * 8 / watched.seconds : 0,
      indicatedBitrate: period.variant.map { Double($0.bandwidth) }
        ?? active.media?.indicatedBitrate ?? 0,
      stallCount: active.stallCount - period.startStalls,
      droppedVideoFrameCount: active.video.framesDropped - period.startDropped,
      startupTime: first ? active.state.timeToFirstFrame : .invalid)
    active.state.accessLog.append(entry)
    emit(.accessLogEntryAdded(active.item))
  }
}
