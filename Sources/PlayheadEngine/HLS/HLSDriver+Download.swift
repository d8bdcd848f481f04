import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

extension HLSDriver {
  /// How close to the item's forward end a segment may start and still not be loaded
  /// (rounding in the playlist's durations).
  static let forwardEndTolerance = MediaTime(value: 1, timescale: 1000)

  /// How often a full buffer is re-checked on the clock when playback does not move (the
  /// default of `bufferRecheckInterval`).
  static let defaultBufferRecheckInterval = MediaTime(value: 1, timescale: 4)

  var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Whether the stream is live (its playlist had no end list when opened).
  var isLive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return liveTimeline != nil
  }

  func startDownloading() {
    lock.lock()
    defer { lock.unlock() }
    guard !downloaderStarted else { return }
    downloaderStarted = true
    clock.startThread(named: "playhead.hls.download") { [self] in
      _ = runDownloads(returnsWhenLoaded: false)
    }
  }

  /// Downloads segments while the buffer is below its target, until stopped: the loop of
  /// the downloader thread.
  ///
  /// With `returnsWhenLoaded` it also returns once every segment of the generation has
  /// been loaded (or loading failed, with the error), which is how the playback simulator
  /// runs it on its own thread; otherwise it returns nil when stopped.
  func runDownloads(returnsWhenLoaded: Bool) -> PlayheadError? {
    var finishedGeneration: Int?
    // The level an abandoned download restarts the same segment at.
    var abandonedTo: Int?
    // Whether the last failure moved the level to a redundant copy: the next segment's
    // change of URI is a failover.
    var failedOver = false
    while !isStopped {
      let generation = queue.generation
      if finishedGeneration == generation {
        if returnsWhenLoaded { return queue.failure(generation: generation) }
        // Loading of this stretch is over: nothing to do until a seek restarts the queue
        // (or a stop cancels it). No timeout, so that a fast clock does not race on.
        _ = queue.waitForChange()
        continue
      }
      let position = currentPlaybackPosition
      lock.lock()
      let loadTime = nextLoadTime
      let loading = currentLevel
      lock.unlock()
      let ahead = (queue.bufferedEnd ?? loadTime) - position
      let phase = playbackPhase(bufferAhead: ahead)
      let upcoming = nextSegment(level: loading)
      let chunk = upcoming?.segment.duration ?? .zero
      if abandonedTo == nil, let upcoming, reachesForwardEnd(upcoming.start) {
        finishAtForwardEnd(generation: generation)
        finishedGeneration = generation
        continue
      }
      if abandonedTo == nil,
        !shouldContinueLoading(
          bufferedAhead: ahead, nextChunkDuration: chunk, position: position,
          isPlaying: phase == .playing)
      {
        // A live playlist keeps being reloaded, so the seekable window stays current.
        if isLive { try? refreshPlaylistIfNeeded(level: currentLevelSnapshot) }
        let wasParked = queue.holdings.parked
        queue.setDownloaderParked(ahead: ahead)
        // The item's buffer is full now: the player hears of it at once.
        if !wasParked { notifyChange() }
        // Re-check when playback moves (a poke) or after a little clock time.
        clock.wait(until: clock.now + bufferRecheckInterval, orUntil: positionSignal)
        continue
      }
      if queue.holdings.parked {
        queue.setDownloaderParked(ahead: nil)
        notifyChange()
      }
      do throws(PlayheadError) {
        let (level, reason): (Int, VariantChangeReason)
        if let abandonedTo {
          (level, reason) = (abandonedTo, .abandoned)
        } else if phase == .starting && master != nil {
          (level, reason) = (startLevel(), .initial)
        } else {
          (level, reason) = chooseLevel(bufferAhead: ahead, phase: phase)
        }
        abandonedTo = nil
        try refreshPlaylistIfNeeded(level: level)
        guard let segment = nextSegment(level: level) else {
          if playlist(level)?.endList ?? true {
            queue.finish(generation: generation)
            finishedGeneration = generation
            notifyChange()
          } else {
            try waitForLiveReload(level: level)
          }
          continue
        }
        if reachesForwardEnd(segment.start) {
          finishAtForwardEnd(generation: generation)
          finishedGeneration = generation
          continue
        }
        logChoice(
          segment.segment, level: level, previous: loading, reason: reason, bufferAhead: ahead,
          phase: phase)
        let outcome = try download(segment, level: level, generation: generation)
        guard case .loaded(var downloaded) = outcome else {
          if case .abandoned(let target) = outcome { abandonedTo = target }
          continue
        }
        downloaded.reason = failedOver ? .failover : reason
        failedOver = false
        // A seek may have restarted the queue meanwhile; check and advance atomically. A
        // restart that needs this very segment first takes it instead of fetching it again.
        lock.lock()
        let current = queue.generation
        let appended = generation == current || startsRestartLocked(with: downloaded)
        if appended {
          queue.append(downloaded, generation: current)
          nextLoadTime = downloaded.end
          if nextLoadSequence != nil { nextLoadSequence = downloaded.mediaSequence + 1 }
          currentLevel = level
        }
        lock.unlock()
        // The item's loaded time ranges grew: the player hears of it at once.
        if appended { notifyChange() }
      } catch {
        if isStopped || error.code == .cancelled { return nil }
        if failOver(level: currentLevelSnapshot, after: error) {
          failedOver = true
          continue
        }
        queue.fail(error, generation: generation)
        finishedGeneration = generation
        // Nothing more will load: playback may now play out what is here (it may wait
        // for more), and the reader then gets the error.
        notifyChange()
      }
    }
    return nil
  }

  /// Whether a segment that starts at `start` lies at or after the item's forward end,
  /// where nothing is loaded (decision 0025). The first segment of a stretch is always
  /// loaded (a seek at or past the forward end plays what is there and ends).
  private func reachesForwardEnd(_ start: MediaTime) -> Bool {
    guard let end = itemLoadControl?.forwardEnd, queue.bufferedEnd != nil else { return false }
    return start + Self.forwardEndTolerance >= end
  }

  /// Ends loading of `generation` at the item's forward end: for this stretch the media
  /// ends there, so the last run is flushed and playback ends at the forward end. (A
  /// forward end moved later once loading has stopped takes effect at the next seek.)
  private func finishAtForwardEnd(generation: Int) {
    if queue.holdings.parked { queue.setDownloaderParked(ahead: nil) }
    queue.finish(generation: generation)
    notifyChange()
  }

  /// Whether `segment`, downloaded for an earlier generation, is the first segment the
  /// current one needs (nothing queued yet; call with `lock` held).
  private func startsRestartLocked(with segment: DownloadedSegment) -> Bool {
    guard queue.bufferedEnd == nil else { return false }
    if let sequence = nextLoadSequence { return segment.mediaSequence == sequence }
    let tolerance = MediaTime(value: 1, timescale: 1000)
    return segment.start <= nextLoadTime + tolerance && nextLoadTime + tolerance < segment.end
  }

  private var currentLevelSnapshot: Int {
    lock.lock()
    defer { lock.unlock() }
    return currentLevel
  }

  /// Moves `level` to its next redundant URI after `error` (RFC 8216 §6.2.4): the failed
  /// URI is excluded for `exclusionDurationMs` and the playlist is loaded from the next
  /// one. Returns false when no other URI is left.
  func failOver(level: Int, after error: PlayheadError) -> Bool {
    guard error.category == .source else { return false }
    let uris = levels[level].uris
    guard uris.count > 1 else { return false }
    lock.lock()
    let current = activeURI[level] ?? 0
    excludedUntil[uris[current]] = clock.now + configuration.exclusionDuration
    let next = (1..<uris.count).map { (current + $0) % uris.count }.first { index in
      excludedUntil[uris[index]].map { clock.now >= $0 } ?? true
    }
    if let next { activeURI[level] = next }
    lock.unlock()
    guard next != nil else { return false }
    logFailover(level: level, failed: uris[current], after: error)
    do {
      try loadPlaylist(level: level)
      reportRecoverable(error)
      return true
    } catch {
      return false
    }
  }

  // MARK: Playlists

  func playlist(_ level: Int) -> MediaPlaylist? {
    lock.lock()
    defer { lock.unlock() }
    return playlists[level]
  }

  /// Loads `level`'s media playlist, failing over to its redundant URIs.
  func loadPlaylist(level: Int) throws(PlayheadError) {
    let uris = levels[level].uris
    var lastError = PlayheadError(.connectionFailed, "no URI for level \(level)", url: url)
    for attempt in 0..<uris.count {
      lock.lock()
      let uriIndex = ((activeURI[level] ?? 0) + attempt) % uris.count
      let excluded = excludedUntil[uris[uriIndex]].map { clock.now < $0 } ?? false
      lock.unlock()
      if excluded && attempt < uris.count - 1 { continue }
      let uri = uris[uriIndex]
      do throws(PlayheadError) {
        let (parsed, size) = try Self.loadPlaylist(
          uri, from: loader, importing: master?.definitions,
          source: configuration.playlistSource)
        guard case .media(let media) = parsed else {
          throw PlayheadError(
            .unsupportedFormat, "expected a media playlist at \(uri.absoluteString)", url: uri)
        }
        try HLSSegmentErrors.requirePlayableDurations(media)
        lock.lock()
        let previous = playlists[level]
        setPlaylistLocked(media, level: level)
        playlistLoadClock[level] = clock.now
        activeURI[level] = uriIndex
        liveReloadDue = nil
        bytes += Int64(size)
        let stale = trackLiveChanges(level: level, previous: previous, current: media)
        let handler = changeHandler
        lock.unlock()
        handler?()
        logPlaylistLoad(media, level: level, isReload: previous != nil)
        if let stale { throw stale }
        return
      } catch {
        lastError = error
        lock.lock()
        excludedUntil[uri] = clock.now + configuration.exclusionDuration
        lock.unlock()
        if attempt < uris.count - 1 {
          logFailover(level: level, failed: uri, after: error)
          reportRecoverable(error)
        }
      }
    }
    throw lastError
  }

  /// Follows a live playlist between reloads (call with `lock` held): a media sequence
  /// that went backwards restarts the tracker at the new live start, and a playlist that
  /// has not changed for 3.5 target durations is an error (RFC 8216 §6.3.4).
  private func trackLiveChanges(level: Int, previous: MediaPlaylist?, current: MediaPlaylist)
    -> PlayheadError?
  {
    if let previous, current.mediaSequence < previous.mediaSequence, liveTimeline != nil {
      // A new stream: it continues the timeline from where loading had got to.
      let start = Self.liveStartSequence(current)
      nextLoadSequence = start
      liveTimeline = HLSLiveTimeline(current, sequence: start, startsAt: nextLoadTime)
    } else {
      liveTimeline?.update(with: current)
    }
    guard !current.endList else {
      unchangedSince[level] = nil
      return nil
    }
    let now = clock.now
    guard let previous else {
      unchangedSince[level] = now
      return nil
    }
    if current.mediaSequence < previous.mediaSequence {
      unchangedSince[level] = now
      return nil
    }
    let previousLast = previous.mediaSequence + previous.segments.count
    let currentLast = current.mediaSequence + current.segments.count
    if currentLast != previousLast || unchangedSince[level] == nil {
      unchangedSince[level] = now
      return nil
    }
    let limit = MediaTime(value: Int64(max(1, current.targetDuration)) * 7, timescale: 2)
    if let since = unchangedSince[level], now - since >= limit {
      return PlayheadError(
        .timedOut,
        "the live playlist \(current.url.absoluteString) has not changed for \(String(format: "%.1f", (now - since).seconds)) s (3.5 target durations)",
        url: current.url)
    }
    return nil
  }

  /// Loads the level's playlist if it is missing or, for live streams, due for a reload.
  func refreshPlaylistIfNeeded(level: Int) throws(PlayheadError) {
    lock.lock()
    let existing = playlists[level]
    let loadedAt = playlistLoadClock[level]
    lock.unlock()
    guard let existing else {
      try loadPlaylist(level: level)
      return
    }
    guard !existing.endList, let loadedAt else { return }
    if clock.now >= loadedAt
      + MediaTime(value: Int64(max(1, existing.targetDuration)), timescale: 1)
    {
      try loadPlaylist(level: level)
    }
  }

  /// Waits on the clock until the live playlist is due again (half a target duration
  /// after the edge was reached), then reloads it. A seek or a move of the play position
  /// ends the wait early without a reload; the deadline stays for the next wait.
  private func waitForLiveReload(level: Int) throws(PlayheadError) {
    let target = Int64(max(1, playlist(level)?.targetDuration ?? 2))
    lock.lock()
    let due = liveReloadDue ?? clock.now + MediaTime(value: target, timescale: 2)
    liveReloadDue = due
    awaitsLiveReload = true
    lock.unlock()
    let reached = clock.wait(until: due, orUntil: positionSignal)
    lock.lock()
    awaitsLiveReload = false
    lock.unlock()
    guard reached else { return }
    lock.lock()
    liveReloadDue = nil
    playlistLoadClock[level] = nil
    lock.unlock()
    try loadPlaylist(level: level)
  }

  /// Where a live stream starts: three target durations from the end (RFC 8216 §6.3.3),
  /// or at `EXT-X-START` when the playlist gives one.
  static func liveStartSequence(_ media: MediaPlaylist) -> Int {
    guard let last = media.segments.last else { return media.mediaSequence }
    if let start = media.start {
      let offset = start.timeOffset
      var time = offset >= .zero ? MediaTime.zero : media.totalDuration + offset
      for segment in media.segments {
        if time < segment.duration { return segment.mediaSequence }
        time = time - segment.duration
      }
    }
    let index = max(0, media.segments.count - 3)
    return media.segments[index].mediaSequence <= last.mediaSequence
      ? media.segments[index].mediaSequence : last.mediaSequence
  }

  // MARK: Segments

  /// The next segment to load at `level`, with its item start time.
  func nextSegment(level: Int) -> (segment: MediaSegment, start: MediaTime)? {
    lock.lock()
    let media = playlists[level]
    let timeline = timelines[level]
    let loadTime = nextLoadTime
    let sequence = nextLoadSequence
    lock.unlock()
    guard let media, let timeline else { return nil }
    if let sequence {
      // Live: by media sequence number; a window that slid past us resumes at its start.
      let wanted = max(sequence, media.segments.first?.mediaSequence ?? sequence)
      guard let segment = media.segments.first(where: { $0.mediaSequence == wanted }) else {
        return nil
      }
      lock.lock()
      let start = liveTimeline?.start(ofSequence: wanted) ?? loadTime
      lock.unlock()
      return (segment, start)
    }
    let tolerance = MediaTime(value: 1, timescale: 1000)
    guard let found = timeline.firstSegment(endingAfter: loadTime + tolerance) else {
      return nil
    }
    return (media.segments[found.index], found.start)
  }

  /// Downloads `segment` (and its key and initialisation section) and decrypts it, unless
  /// the bitrate controller abandons it for a lower level on the way. An error names the
  /// segment and the playlist it belongs to (`HLSSegmentErrors`).
  func download(_ entry: (segment: MediaSegment, start: MediaTime), level: Int, generation: Int)
    throws(PlayheadError) -> SegmentDownloadOutcome
  {
    do {
      var outcome = try fetch(entry, level: level, generation: generation)
      if case .loaded(var segment) = outcome {
        segment.uri = entry.segment.uri
        segment.playlistURL = playlist(level)?.url
        outcome = .loaded(segment)
      }
      return outcome
    } catch {
      throw HLSSegmentErrors.naming(
        error, segment: entry.segment.uri, playlist: playlist(level)?.url ?? url)
    }
  }

  /// `download` without the naming of its errors.
  private func fetch(
    _ entry: (segment: MediaSegment, start: MediaTime), level: Int, generation: Int
  )
    throws(PlayheadError) -> SegmentDownloadOutcome
  {
    let segment = entry.segment
    var initData: Data?
    var initIdentity: String?
    if let map = segment.map {
      let identity = "\(map.uri.absoluteString)|\(map.byteRange?.description ?? "")"
      initIdentity = identity
      lock.lock()
      let cached = initCache[identity]
      lock.unlock()
      if let cached {
        initData = cached
      } else {
        let decryption = try decryption(
          key: map.key, iv: map.iv, resource: "the initialization section", url: map.uri,
          isInitializationSection: true)
        let response = try loader.load(
          DataRequest(url: map.uri, range: map.byteRange, purpose: .initializationSection),
          through: decryption)
        let clear = response.data
        initData = clear
        lock.lock()
        initCache[identity] = clear
        bytes += Int64(response.data.count)
        lock.unlock()
      }
    }
    let request = DataRequest(url: segment.uri, range: segment.byteRange, purpose: .segment)
    let decryption = try decryption(
      key: segment.key, iv: segment.iv, resource: "segment \(segment.mediaSequence)",
      url: segment.uri)
    let sampleKey = try sampleKey(of: segment)
    let response: DataResponse
    switch try loadSegmentBody(request, level: level, segment: segment, through: decryption) {
    case .completed(let completed): response = completed
    case .abandoned(let target): return .abandoned(target)
    }
    lock.lock()
    bytes += Int64(response.data.count)
    lock.unlock()
    let data = response.data
    return .loaded(
      DownloadedSegment(
        ordinal: 0, level: level, mediaSequence: segment.mediaSequence,
        discontinuitySequence: segment.discontinuitySequence, start: entry.start,
        duration: segment.duration, initSection: initData, initIdentity: initIdentity,
        data: data, requestClock: response.startClock, arrivalClock: response.endClock,
        transferredBytes: response.data.count, sampleKey: sampleKey))
  }

}
