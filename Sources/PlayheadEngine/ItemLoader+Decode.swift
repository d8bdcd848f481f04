import Foundation
import PlayheadCore
import PlayheadMedia

extension ItemLoader {
  /// Decodes ahead of the play position until stopped: the variant's runs give the video
  /// (and the audio, unless an alternate audio rendition's lane gives it), each source
  /// moving to its next run when one ends.
  func decodeLoop(_ first: RunPipeline, driver: any MediaSourceDriver) {
    var main = first
    while true {
      condition.lock()
      while !stopped && pendingSeek == nil && pendingAudioSelection == nil
        && pendingSubtitleSelection == nil && (isFullLocked() || isEndedLocked())
      {
        condition.unlock()
        settings.clock.wait(for: work)
        condition.lock()
      }
      if stopped {
        condition.unlock()
        return
      }
      let seek = pendingSeek
      pendingSeek = nil
      let audioSelection = pendingAudioSelection
      pendingAudioSelection = nil
      let subtitleSelection = pendingSubtitleSelection
      pendingSubtitleSelection = nil
      let generation = status.generation
      let needs = needsLocked()
      let lane = audioLane
      condition.unlock()

      do throws(PlayheadError) {
        if let subtitleSelection {
          applySubtitleSelection(subtitleSelection, driver: driver)
        }
        if let audioSelection {
          try applyAudioSelection(
            audioSelection, main: &main, driver: driver, seekPending: seek != nil)
        }
        if let seek {
          try restart(at: seek, main: &main, driver: driver)
          continue
        }
        if audioSelection != nil || subtitleSelection != nil { continue }
        if needs.video || (needs.audio && lane == nil) {
          try stepMain(&main, needs: needs, lane: lane, driver: driver, generation: generation)
        }
        if needs.audio, let lane {
          try stepLane(lane, driver: driver, generation: generation)
        }
      } catch {
        if error.code == .cancelled && isStopped { return }
        endStream(with: error, generation: generation)
      }
    }
  }

  /// Continues decoding at `seek.target`: new runs from the segment that holds it (or a
  /// demuxer seek for progressive media). An audio lane restarts there too and waits
  /// for the video to decide where the seek lands.
  private func restart(at seek: SeekRequest, main: inout RunPipeline, driver: any MediaSourceDriver)
    throws(PlayheadError)
  {
    condition.lock()
    let lane = audioLane
    condition.unlock()
    if let fresh = try driver.run(at: seek.target) {
      let pipeline = try DecodePipeline(
        demuxer: fresh.demuxer, settings: lane == nil ? settings : settings.withoutAudio,
        itemStart: fresh.itemStart, requiresStream: lane == nil,
        timestampJumpThreshold: fresh.timestampJumpThreshold)
      pipeline.filter(from: seek)
      main = RunPipeline(run: fresh, pipeline: pipeline)
      noteVariant(driver.variant(of: fresh), reason: driver.variantReason(of: fresh))
    } else {
      try main.pipeline.seek(seek)
    }
    embeddedText.beginStretch(at: seek.target)
    var waits = false
    if let lane, let laneRun = try lane.driver.run(at: seek.target) {
      let pipeline = try DecodePipeline(
        demuxer: laneRun.demuxer, settings: settings.audioOnly, itemStart: laneRun.itemStart,
        timestampJumpThreshold: laneRun.timestampJumpThreshold)
      waits = main.pipeline.videoStream != nil
      if !waits { pipeline.startAudio(at: seek.target) }
      lane.current = RunPipeline(run: laneRun, pipeline: pipeline)
    }
    condition.lock()
    runVideoDrained = false
    runAudioDrained = false
    audioLaneWaitsForSeek = waits
    status.bufferedRange = MediaTimeRange(start: seek.target, duration: .zero)
    condition.unlock()
  }

  /// One step of the variant's pipeline; at the end of its run, moves to the next run.
  private func stepMain(
    _ main: inout RunPipeline, needs: (video: Bool, audio: Bool), lane: AudioLane?,
    driver: any MediaSourceDriver, generation: Int
  ) throws(PlayheadError) {
    let givesAudio = lane == nil
    let output = try main.pipeline.step(
      needVideo: needs.video, needAudio: needs.audio && givesAudio)
    guard main.pipeline.isFinished else {
      condition.lock()
      runVideoDrained = main.pipeline.isVideoDrained
      if givesAudio { runAudioDrained = main.pipeline.isAudioDrained }
      let audioKnownEnded = status.audioEnded
      condition.unlock()
      // The last run's audio ends when its decoder drains, not when the video's does:
      // the audio output holds back its filters' tail until it learns of the end, and
      // the video, a few frames ahead, drains only as the position (which that audio
      // leads) moves on.
      let audioEnded =
        givesAudio && !audioKnownEnded && main.pipeline.hasGivenAllAudio
        && driver.isLastRun(main.run)
      deliver(
        output, generation: generation, bytesRead: bytesRead(driver), audioEnded: audioEnded)
      landAudioLane(after: output)
      return
    }
    // The run has given everything: hand that over first, then find what follows.
    var failure = main.pipeline.terminalError
    var next: MediaRun?
    if failure == nil {
      do throws(PlayheadError) {
        next = try driver.nextRun(after: main.run)
      } catch {
        failure = error
      }
    }
    let ended = failure == nil && next == nil
    condition.lock()
    runVideoDrained = next == nil
    if givesAudio { runAudioDrained = next == nil }
    condition.unlock()
    deliver(
      output, generation: generation, bytesRead: bytesRead(driver), videoEnded: ended,
      audioEnded: ended && givesAudio)
    landAudioLane(after: output)
    if let failure {
      if failure.code == .cancelled && isStopped { throw failure }
      endStream(with: failure, generation: generation)
      return
    }
    guard let next else { return }
    // The media goes on in a new run (a rendition switch or a discontinuity); a switch
    // to a variant with other rendition groups keeps the selected renditions.
    followRenditionGroups(into: next, main: &main, driver: driver)
    condition.lock()
    let laneNow = audioLane
    condition.unlock()
    main = RunPipeline(
      run: next,
      pipeline: try DecodePipeline(
        demuxer: next.demuxer, settings: laneNow == nil ? settings : settings.withoutAudio,
        itemStart: next.itemStart, requiresStream: laneNow == nil,
        timestampJumpThreshold: next.timestampJumpThreshold))
    noteVariant(driver.variant(of: next), reason: driver.variantReason(of: next))
    condition.lock()
    runVideoDrained = false
    if laneNow == nil { runAudioDrained = false }
    condition.unlock()
  }

  /// One step of the audio lane's pipeline; at the end of its run, moves to the next run.
  private func stepLane(_ lane: AudioLane, driver: any MediaSourceDriver, generation: Int)
    throws(PlayheadError)
  {
    let output = try lane.current.pipeline.step(needVideo: false, needAudio: true)
    guard lane.current.pipeline.isFinished else {
      condition.lock()
      runAudioDrained = lane.current.pipeline.isAudioDrained
      condition.unlock()
      deliver(output, generation: generation, bytesRead: bytesRead(driver))
      return
    }
    var failure = lane.current.pipeline.terminalError
    var next: MediaRun?
    if failure == nil {
      do throws(PlayheadError) {
        next = try lane.driver.nextRun(after: lane.current.run)
      } catch {
        failure = error
      }
    }
    condition.lock()
    runAudioDrained = next == nil
    condition.unlock()
    deliver(
      output, generation: generation, bytesRead: bytesRead(driver),
      audioEnded: failure == nil && next == nil)
    if let failure {
      if failure.code == .cancelled && isStopped { throw failure }
      endStream(with: failure, generation: generation)
      return
    }
    guard let next else { return }
    lane.current = RunPipeline(
      run: next,
      pipeline: try DecodePipeline(
        demuxer: next.demuxer, settings: settings.audioOnly, itemStart: next.itemStart,
        timestampJumpThreshold: next.timestampJumpThreshold))
    condition.lock()
    runAudioDrained = false
    condition.unlock()
  }

  /// Once the video decided where a seek lands, the audio lane starts there.
  private func landAudioLane(after output: DecodeOutput) {
    guard let resolved = output.resolvedSeekTime else { return }
    condition.lock()
    let lane = audioLaneWaitsForSeek ? audioLane : nil
    audioLaneWaitsForSeek = false
    condition.unlock()
    lane?.current.pipeline.startAudio(at: resolved)
  }

  /// Bytes read by the variant's source and the audio lane's.
  func bytesRead(_ driver: any MediaSourceDriver) -> Int64 {
    condition.lock()
    let lane = audioLane
    condition.unlock()
    return driver.bytesRead + (lane?.driver.bytesRead ?? 0)
  }

  /// Tells the loop of a change of rendition, with why it was chosen.
  func noteVariant(_ variant: VariantInfo?, reason: VariantChangeReason?) {
    condition.lock()
    if let variant, variant != status.variant {
      status.variant = variant
      postLocked(.variantChanged(variant, reason ?? .throughput))
    }
    condition.unlock()
  }

  var isStopped: Bool {
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
      hasAudio && !status.audioEnded && !runAudioDrained && !audioLaneWaitsForSeek
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

  func deliver(
    _ output: DecodeOutput, generation: Int, bytesRead: Int64, videoEnded: Bool = false,
    audioEnded: Bool = false
  ) {
    condition.lock()
    defer {
      condition.unlock()
      notifyLoop()
    }
    status.bytesRead = bytesRead
    status.bandwidth = driver?.bandwidth
    status.downloadSpeed = driver?.downloadSpeed
    status.seekableRange = driver?.seekableRange
    status.framesDecoded += output.videoFrames.count
    status.audioSamplesDecoded += output.audioSamplesDecoded
    for error in output.recoverableErrors { postLocked(.recoverableError(error)) }
    // Subtitle cues are facts of the file, whatever the generation; they go in before the
    // frames of the same time, so the loop sees them first.
    embeddedText.add(output.textEvents)
    // A seek requested while this step ran makes its output stale.
    guard generation == status.generation, pendingSeek == nil else { return }
    if let end = output.demuxedUpTo { embeddedText.demuxed(upTo: end) }
    if videoEnded || audioEnded { embeddedText.reachedEnd() }
    videoQueue.append(contentsOf: output.videoFrames)
    for buffer in output.audioBuffers {
      audioQueue.append(buffer)
      status.queuedAudioDuration = status.queuedAudioDuration + buffer.mediaDuration
    }
    status.queuedVideoFrames = videoQueue.count
    if let resolved = output.resolvedSeekTime, !status.seekLanded {
      status.seekLanded = true
      postLocked(.seekLanded(generation: generation, time: resolved))
    }
    if let end = output.demuxedUpTo, let range = status.bufferedRange, end > range.end {
      status.bufferedRange = MediaTimeRange(start: range.start, end: end)
    }
    if videoEnded { status.videoEnded = true }
    if audioEnded { status.audioEnded = true }
    status.isFull = isFullLocked()
  }

  func endStream(with error: PlayheadError, generation: Int) {
    condition.lock()
    if generation == status.generation {
      embeddedText.reachedEnd()
      status.streamError = error
      status.videoEnded = true
      status.audioEnded = true
    }
    condition.unlock()
    notifyLoop()
  }
}
