import Foundation
import PlayheadCore
import PlayheadMedia

extension ItemLoader {
  /// The loading thread: open, then decode ahead until stopped.
  func run() {
    let demuxer: Demuxer
    let source: CountingByteSource
    do throws(PlayheadError) {
      (demuxer, source) = try asset.takeDemuxer()
    } catch {
      finish(with: .failed(error))
      return
    }
    condition.lock()
    if stopped {
      condition.unlock()
      demuxer.interrupt()
      return
    }
    self.demuxer = demuxer
    condition.unlock()

    let pipeline: DecodePipeline
    do throws(PlayheadError) {
      pipeline = try DecodePipeline(demuxer: demuxer, settings: settings)
    } catch {
      finish(with: .failed(error))
      return
    }
    let tracks = demuxer.streams.filter { !$0.isAttachedPicture }.map(AssetTrack.init)
    let bitrates = tracks.compactMap(\.estimatedDataRate).reduce(0, +)
    let opened = OpenedMedia(
      duration: demuxer.duration, tracks: tracks, hasVideo: pipeline.videoStream != nil,
      hasAudio: pipeline.audioStream != nil, nominalFrameDuration: pipeline.nominalFrameDuration,
      indicatedBitrate: Double(bitrates))
    condition.lock()
    status.phase = .ready(opened)
    hasVideo = opened.hasVideo
    hasAudio = opened.hasAudio
    status.videoEnded = !hasVideo
    status.audioEnded = !hasAudio
    status.bufferedRange = MediaTimeRange(start: .zero, duration: .zero)
    condition.unlock()
    notifyLoop()

    decodeLoop(pipeline, source: source)
  }

  private func decodeLoop(_ pipeline: DecodePipeline, source: CountingByteSource) {
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

      if let seek {
        do throws(PlayheadError) {
          try pipeline.seek(seek)
          condition.lock()
          status.bufferedRange = MediaTimeRange(start: seek.target, duration: .zero)
          condition.unlock()
        } catch {
          endStream(with: error, generation: generation)
        }
        continue
      }
      do throws(PlayheadError) {
        let output = try pipeline.step(needVideo: needs.video, needAudio: needs.audio)
        deliver(output, generation: generation, bytesRead: source.bytesRead)
      } catch {
        if error.code == .cancelled && isStopped { return }
        endStream(with: error, generation: generation)
      }
    }
  }

  private var isStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  /// Which decoded queues are below their targets.
  func needsLocked() -> (video: Bool, audio: Bool) {
    guard case .ready = status.phase else { return (false, false) }
    let video = hasVideo && !status.videoEnded && videoQueue.count < settings.videoFramesAhead
    let audio = hasAudio && !status.audioEnded && status.queuedAudioDuration < settings.audioAhead
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

  private func deliver(_ output: DecodeOutput, generation: Int, bytesRead: Int64) {
    condition.lock()
    defer {
      condition.unlock()
      notifyLoop()
    }
    status.bytesRead = bytesRead
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
    if output.videoEnded { status.videoEnded = true }
    if output.audioEnded { status.audioEnded = true }
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
