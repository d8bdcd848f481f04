import Foundation
import PlayheadCore
import PlayheadMedia

extension ItemLoader {
  /// Applies the application's audio choice at the play position. A rendition that is
  /// not in the variant's group, or whose playlist cannot be opened, is logged and
  /// changes nothing.
  func applyAudioSelection(
    _ selection: RenditionSelection, main: inout RunPipeline, driver: any MediaSourceDriver,
    seekPending: Bool
  ) throws(PlayheadError) {
    let group = driver.alternateRenditions(.audio, for: main.run)
    let target = selection.rendition.flatMap { RenditionChoice.counterpart(of: $0, in: group) }
    if let wanted = selection.rendition, target == nil {
      noteRecoverable(
        PlayheadError(
          .invalidArgument, "the audio rendition \(wanted.name) is not in the variant's group"))
      return
    }
    // A file's audio streams: another stream of the same demuxer (nil: the default one).
    if let stream = target ?? group.first(where: \.isDefault) ?? group.first,
      stream.streamIndex != nil
    {
      try switchAudioStream(to: stream, main: &main, seekPending: seekPending)
      return
    }
    condition.lock()
    let position = playbackPosition
    condition.unlock()
    // A pending seek restarts every run anyway, so nothing is restarted here for it.
    try switchAudio(
      to: target, at: position, main: &main, driver: driver, restartsMain: !seekPending)
  }

  /// Plays `target`'s audio (nil, or a rendition without a playlist of its own: the
  /// variant's own audio) from `time`, or from the end of the audio already decoded when
  /// that comes first, and never before the play position.
  ///
  /// A new lane opens before anything is dropped, so a rendition that fails to open
  /// leaves the current audio playing. Going back to the variant's audio restarts the
  /// variant's run at the switch time when `restartsMain` (a selection while playing).
  func switchAudio(
    to target: RenditionInfo?, at time: MediaTime, main: inout RunPipeline,
    driver: any MediaSourceDriver, restartsMain: Bool
  ) throws(PlayheadError) {
    condition.lock()
    let old = audioLane
    let position = playbackPosition
    let queueEnd = audioQueue.last.map { $0.pts + $0.mediaDuration }
    condition.unlock()
    let wantsLane = target?.uri != nil && settings.decodesAudio
    if (wantsLane && old?.rendition.uri == target?.uri) || (!wantsLane && old == nil) {
      // The same playlist (or the variant's audio) keeps playing.
      recordAudioSelection(target)
      return
    }
    let switchTime = max(position, min(time, queueEnd ?? position))
    var lane: AudioLane?
    if wantsLane, let target {
      do throws(PlayheadError) {
        let opened = try openAudioLane(target, driver: driver, at: switchTime)
        opened.current.pipeline.startAudio(at: switchTime)
        lane = opened
      } catch {
        if error.code == .cancelled && isStopped { throw error }
        noteRecoverable(error)
        return
      }
    }
    condition.lock()
    audioLane = lane
    audioLaneWaitsForSeek = false
    trimAudioQueueLocked(from: switchTime)
    runAudioDrained = false
    if lane != nil {
      hasAudio = true
      status.audioEnded = false
    }
    status.isFull = isFullLocked()
    condition.unlock()
    old?.driver.stop()
    if lane != nil {
      if old == nil { main.pipeline.disableAudio() }
    } else {
      let variantHasAudio =
        settings.decodesAudio && main.run.demuxer.bestStream(of: .audio) != nil
      if variantHasAudio && restartsMain {
        try restartMain(at: switchTime, main: &main, driver: driver)
      } else if !variantHasAudio {
        condition.lock()
        hasAudio = false
        status.audioEnded = true
        condition.unlock()
      }
    }
    recordAudioSelection(target)
  }

  /// Restarts the variant's runs at `time` with its audio decoded again: the decoded
  /// video is dropped and the frame at `time` is shown again.
  private func restartMain(
    at time: MediaTime, main: inout RunPipeline, driver: any MediaSourceDriver
  ) throws(PlayheadError) {
    condition.lock()
    videoQueue.removeAll()
    status.queuedVideoFrames = 0
    runVideoDrained = false
    runAudioDrained = false
    hasAudio = true
    status.videoEnded = !hasVideo
    status.audioEnded = false
    status.isFull = false
    let generation = status.generation
    condition.unlock()
    guard let fresh = try driver.run(at: time) else { return }
    let pipeline = try DecodePipeline(
      demuxer: fresh.demuxer, settings: settings, itemStart: fresh.itemStart,
      timestampJumpThreshold: fresh.timestampJumpThreshold)
    pipeline.filter(
      from: SeekRequest(
        target: time, toleranceBefore: .zero, toleranceAfter: .zero, generation: generation))
    main = RunPipeline(run: fresh, pipeline: pipeline)
    noteVariant(driver.variant(of: fresh), reason: driver.variantReason(of: fresh))
  }

  /// Keeps only the decoded audio before `time`.
  func trimAudioQueueLocked(from time: MediaTime) {
    var kept: [AudioBuffer] = []
    for buffer in audioQueue {
      guard let head = buffer.truncated(before: time) else { break }
      kept.append(head)
    }
    audioQueue = kept
    status.queuedAudioDuration = kept.reduce(MediaTime.zero) { $0 + $1.mediaDuration }
  }

  func recordAudioSelection(_ rendition: RenditionInfo?) {
    condition.lock()
    if status.selectedAudioRendition != rendition {
      status.selectedAudioRendition = rendition
      postLocked(.audioRenditionSelected(rendition))
    }
    condition.unlock()
    notifyLoop()
  }

  /// Selects a subtitle rendition (nil: none) and fetches its segment list; a playlist
  /// that cannot be loaded is logged and changes nothing.
  func applySubtitleSelection(
    _ selection: RenditionSelection, driver: any MediaSourceDriver
  ) {
    guard let rendition = selection.rendition else {
      condition.lock()
      if status.selectedSubtitleRendition != nil || status.subtitleSegments != nil {
        status.selectedSubtitleRendition = nil
        status.subtitleSegments = nil
        postLocked(.subtitleRenditionSelected(nil, segments: nil))
      }
      condition.unlock()
      notifyLoop()
      return
    }
    if rendition.streamIndex != nil {
      // A stream of the file: the demuxer reads its cues along with the media.
      condition.lock()
      status.selectedSubtitleRendition = rendition
      status.subtitleSegments = nil
      postLocked(.subtitleRenditionSelected(rendition, segments: nil))
      condition.unlock()
      notifyLoop()
      return
    }
    do throws(PlayheadError) {
      let segments = try driver.subtitleSegments(of: rendition)
      condition.lock()
      status.selectedSubtitleRendition = rendition
      status.subtitleSegments = segments
      postLocked(.subtitleRenditionSelected(rendition, segments: segments))
      condition.unlock()
      notifyLoop()
    } catch {
      noteSubtitleFailure(error, of: rendition)
      noteRecoverable(error)
    }
  }

  /// When the variant's runs move to a variant with other rendition groups, the
  /// selected renditions continue as their counterparts (same NAME) in the new groups.
  func followRenditionGroups(
    into next: MediaRun, main: inout RunPipeline, driver: any MediaSourceDriver
  ) {
    let audio = driver.alternateRenditions(.audio, for: next)
    let subtitles = driver.alternateRenditions(.subtitles, for: next)
    condition.lock()
    let knownAudio = status.audioRenditions
    let selectedAudio = status.selectedAudioRendition
    let knownSubtitles = status.subtitleRenditions
    let selectedSubtitle = status.selectedSubtitleRendition
    status.audioRenditions = audio
    status.subtitleRenditions = subtitles
    if audio != knownAudio || subtitles != knownSubtitles {
      postLocked(.renditionsListed(audio: audio, subtitles: subtitles))
    }
    condition.unlock()
    if audio != knownAudio, let selectedAudio, !audio.contains(selectedAudio) {
      let target =
        RenditionChoice.counterpart(of: selectedAudio, in: audio)
        ?? RenditionChoice.startRendition(
          in: audio, preferredLanguages: settings.preferredAudioLanguages)
      do throws(PlayheadError) {
        try switchAudio(
          to: target, at: next.itemStart, main: &main, driver: driver, restartsMain: false)
      } catch {
        noteRecoverable(error)
      }
    }
    if subtitles != knownSubtitles, let selectedSubtitle, !subtitles.contains(selectedSubtitle) {
      applySubtitleSelection(
        RenditionSelection(
          rendition: RenditionChoice.counterpart(of: selectedSubtitle, in: subtitles)),
        driver: driver)
    }
  }
}

extension AudioBuffer {
  /// The buffer without the samples at or after `time`; nil when nothing is left.
  func truncated(before time: MediaTime) -> AudioBuffer? {
    if pts >= time { return nil }
    if pts + mediaDuration <= time { return self }
    let keep = (time - pts).convertScale(Int32(format.sampleRate), rounding: .roundHalfAwayFromZero)
      .value
    let keepFrames = Int(min(Int64(frameCount), max(0, keep)))
    if keepFrames <= 0 { return nil }
    var copy = self
    copy.samples = Data(samples.prefix(keepFrames * format.bytesPerFrame))
    copy.frameCount = keepFrames
    return copy
  }
}
