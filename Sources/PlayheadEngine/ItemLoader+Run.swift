import Foundation
import PlayheadCore
import PlayheadMedia

extension ItemLoader {
  /// The loading thread: open, then decode ahead until stopped.
  func run() {
    // A seek requested before the media opened (a resume, a start time) opens there.
    condition.lock()
    let initialSeek = pendingSeek
    var hls = settings.hls
    if let selection = pendingSelection {
      // The item's rendition limits apply from the very first segment.
      hls.preferredPeakBitRate = selection.preferredPeakBitRate
      hls.maximumPixelCount = selection.maximumPixelCount
      hls.manualVariantIndex = selection.manualIndex
    }
    condition.unlock()
    var source = asset
    var tried: Set<URL> = [asset.url]
    var prepared: (any MediaSourceDriver, MediaRun, DecodePipeline)?
    while prepared == nil {
      do throws(PlayheadError) {
        prepared = try open(source, hls: hls, initialSeek: initialSeek)
        if prepared == nil { return }
      } catch {
        // No decoder for the media's codecs: the application may give a backup URL
        // (the seed's H.265 fallback), tried once each.
        if error.code == .decoderUnavailable || error.code == .noPlayableStreams,
          let provider = settings.backupURLProvider, let backup = provider(source.url, error),
          !tried.contains(backup), tried.count < 4
        {
          tried.insert(backup)
          source = Asset(url: backup, http: asset.http)
          condition.lock()
          status.backupURL = backup
          condition.unlock()
          continue
        }
        finish(with: .failed(error))
        return
      }
    }
    guard let (driver, run, pipeline) = prepared else { return }
    let tracks = run.demuxer.streams.filter { !$0.isAttachedPicture }.map(AssetTrack.init)
    let bitrates = tracks.compactMap(\.estimatedDataRate).reduce(0, +)
    let opened = OpenedMedia(
      duration: driver.duration, tracks: tracks, hasVideo: pipeline.videoStream != nil,
      hasAudio: pipeline.audioStream != nil, nominalFrameDuration: pipeline.nominalFrameDuration,
      indicatedBitrate: Double(driver.variant(of: run)?.bandwidth ?? bitrates),
      streamKind: driver.streamKind, variants: driver.variants, renditions: driver.renditions,
      iFrameVariants: driver.iFrameVariants)
    condition.lock()
    status.phase = .ready(opened)
    hasVideo = opened.hasVideo
    hasAudio = opened.hasAudio
    status.videoEnded = !hasVideo
    status.audioEnded = !hasAudio
    status.bufferedRange = MediaTimeRange(start: run.itemStart, duration: .zero)
    status.variant = driver.variant(of: run)
    condition.unlock()
    notifyLoop()

    decodeLoop(pipeline, run: run, driver: driver)
  }

  /// Opens `source` and makes its first pipeline; nil when the loader was stopped.
  private func open(_ source: Asset, hls: HLSConfiguration, initialSeek: SeekRequest?)
    throws(PlayheadError) -> (any MediaSourceDriver, MediaRun, DecodePipeline)?
  {
    let driver = try source.takeDriver(
      hls: hls, clock: settings.clock, startTime: initialSeek?.target, cache: settings.cache)
    condition.lock()
    let wasStopped = stopped
    self.driver = driver
    let selection = pendingSelection
    condition.unlock()
    if let selection { driver.updateSelection(selection) }
    if wasStopped {
      driver.stop()
      return nil
    }
    let run = try driver.firstRun()
    let pipeline = try DecodePipeline(
      demuxer: run.demuxer, settings: settings, itemStart: run.itemStart)
    if let initialSeek, driver.seeksByRuns {
      condition.lock()
      if pendingSeek?.generation == initialSeek.generation { pendingSeek = nil }
      condition.unlock()
      pipeline.filter(from: initialSeek)
    }
    return (driver, run, pipeline)
  }

  private func decodeLoop(
    _ firstPipeline: DecodePipeline, run firstRun: MediaRun, driver: any MediaSourceDriver
  ) {
    var pipeline = firstPipeline
    var run = firstRun
    while true {
      condition.lock()
      while !stopped && pendingSeek == nil && (isFullLocked() || isEndedLocked()) {
        condition.wait()
      }
      if stopped {
        condition.unlock()
        return
      }
      let seek = pendingSeek
      pendingSeek = nil
      let generation = status.generation
      let needs = needsLocked()
      condition.unlock()

      do throws(PlayheadError) {
        if let seek {
          if let fresh = try driver.run(at: seek.target) {
            run = fresh
            pipeline = try DecodePipeline(
              demuxer: fresh.demuxer, settings: settings, itemStart: fresh.itemStart)
            pipeline.filter(from: seek)
            noteVariant(driver.variant(of: fresh))
          } else {
            try pipeline.seek(seek)
          }
          condition.lock()
          runVideoDrained = false
          runAudioDrained = false
          condition.unlock()
          condition.lock()
          status.bufferedRange = MediaTimeRange(start: seek.target, duration: .zero)
          condition.unlock()
          continue
        }
        let output = try pipeline.step(needVideo: needs.video, needAudio: needs.audio)
        guard pipeline.isFinished else {
          condition.lock()
          runVideoDrained = pipeline.isVideoDrained
          runAudioDrained = pipeline.isAudioDrained
          condition.unlock()
          deliver(output, generation: generation, bytesRead: driver.bytesRead, mediaEnded: false)
          continue
        }
        // The run has given everything: hand that over first, then find what follows.
        var failure = pipeline.terminalError
        var next: MediaRun?
        if failure == nil {
          do throws(PlayheadError) {
            next = try driver.nextRun(after: run)
          } catch {
            failure = error
          }
        }
        condition.lock()
        runVideoDrained = next == nil
        runAudioDrained = next == nil
        condition.unlock()
        deliver(
          output, generation: generation, bytesRead: driver.bytesRead,
          mediaEnded: failure == nil && next == nil)
        if let failure {
          if failure.code == .cancelled && isStopped { return }
          endStream(with: failure, generation: generation)
          continue
        }
        if let next {
          // The media goes on in a new run (a rendition switch or a discontinuity).
          run = next
          pipeline = try DecodePipeline(
            demuxer: next.demuxer, settings: settings, itemStart: next.itemStart)
          noteVariant(driver.variant(of: next))
          condition.lock()
          runVideoDrained = false
          runAudioDrained = false
          condition.unlock()
        }
      } catch {
        if error.code == .cancelled && isStopped { return }
        endStream(with: error, generation: generation)
      }
    }
  }

  private func noteVariant(_ variant: VariantInfo?) {
    condition.lock()
    if let variant, variant != status.variant {
      status.variant = variant
      status.variantChanges += 1
    }
    condition.unlock()
  }

  private var isStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  /// Which decoded queues are below their targets.
  func needsLocked() -> (video: Bool, audio: Bool) {
    guard case .ready = status.phase else { return (false, false) }
    let video =
      hasVideo && !status.videoEnded && !runVideoDrained
      && videoQueue.count < settings.videoFramesAhead
    let audio =
      hasAudio && !status.audioEnded && !runAudioDrained
      && status.queuedAudioDuration < settings.audioAhead
    return (video, audio)
  }

  /// Whether every decoded queue holds its target (or its stream has ended).
  func isFullLocked() -> Bool {
    let needs = needsLocked()
    return !needs.video && !needs.audio
  }

  func isEndedLocked() -> Bool {
    guard case .ready = status.phase else { return true }
    return status.videoEnded && status.audioEnded
  }

  private func deliver(_ output: DecodeOutput, generation: Int, bytesRead: Int64, mediaEnded: Bool)
  {
    condition.lock()
    defer {
      condition.unlock()
      notifyLoop()
    }
    status.bytesRead = bytesRead
    status.bandwidth = driver?.bandwidth
    status.seekableRange = driver?.seekableRange
    status.framesDecoded += output.videoFrames.count
    status.audioSamplesDecoded += output.audioSamplesDecoded
    status.recoverableErrors.append(contentsOf: output.recoverableErrors)
    // A seek requested while this step ran makes its output stale.
    guard generation == status.generation, pendingSeek == nil else { return }
    videoQueue.append(contentsOf: output.videoFrames)
    for buffer in output.audioBuffers {
      audioQueue.append(buffer)
      status.queuedAudioDuration = status.queuedAudioDuration + buffer.mediaDuration
    }
    status.queuedVideoFrames = videoQueue.count
    if let resolved = output.resolvedSeekTime, status.resolvedSeekTime == nil {
      status.resolvedSeekTime = resolved
    }
    if let end = output.demuxedUpTo, let range = status.bufferedRange, end > range.end {
      status.bufferedRange = MediaTimeRange(start: range.start, end: end)
    }
    if mediaEnded {
      status.videoEnded = true
      status.audioEnded = true
    }
    status.isFull = isFullLocked()
  }

  private func endStream(with error: PlayheadError, generation: Int) {
    condition.lock()
    if generation == status.generation {
      status.streamError = error
      status.videoEnded = true
      status.audioEnded = true
    }
    condition.unlock()
    notifyLoop()
  }

  private func finish(with phase: LoaderStatus.Phase) {
    condition.lock()
    status.phase = phase
    condition.unlock()
    notifyLoop()
  }
}
