import Foundation
import PlayheadCore
import PlayheadMedia

/// A run and the pipeline that decodes it.
struct RunPipeline {
  var run: MediaRun
  var pipeline: DecodePipeline
}

/// An alternate audio rendition played from a source of its own: its runs give the
/// item's audio while the variant's runs give the video.
final class AudioLane {
  let rendition: RenditionInfo
  let driver: any MediaSourceDriver
  var current: RunPipeline

  init(rendition: RenditionInfo, driver: any MediaSourceDriver, current: RunPipeline) {
    self.rendition = rendition
    self.driver = driver
    self.current = current
  }
}

/// What opening an item produced.
private struct OpenedSource {
  var driver: any MediaSourceDriver
  var main: RunPipeline
  var lane: AudioLane?
  /// The audio renditions of the start variant's group and the one chosen.
  var audioGroup: [RenditionInfo]
  var selectedAudio: RenditionInfo?
}

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
    var prepared: OpenedSource?
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
          source = Asset(url: backup)
          post(.backupUsed(backup))
          continue
        }
        finish(with: .failed(error))
        return
      }
    }
    guard let opened = prepared else { return }
    let driver = opened.driver
    let main = opened.main
    let lane = opened.lane
    let streams = main.run.demuxer.streams.filter { !$0.isAttachedPicture }
    var tracks = streams.map(AssetTrack.init)
    if let lane {
      // The alternate rendition's audio replaces the variant's own; its track IDs follow
      // the variant's so that they stay unique.
      tracks.removeAll { $0.kind == .audio }
      let base = (streams.map(\.index).max() ?? -1) + 1
      tracks += lane.current.run.demuxer.streams.filter { $0.kind == .audio }.map { stream in
        var track = AssetTrack(stream)
        track.id = base + stream.index
        return track
      }
    }
    let bitrates = tracks.compactMap(\.estimatedDataRate).reduce(0, +)
    let media = OpenedMedia(
      duration: driver.duration, tracks: tracks, hasVideo: main.pipeline.videoStream != nil,
      hasAudio: (lane?.current.pipeline ?? main.pipeline).audioStream != nil,
      nominalFrameDuration: main.pipeline.nominalFrameDuration,
      indicatedBitrate: Double(driver.variant(of: main.run)?.bandwidth ?? bitrates),
      streamKind: driver.streamKind, startTime: main.run.itemStart, variants: driver.variants,
      renditions: driver.renditions, iFrameVariants: driver.iFrameVariants,
      adPeriods: driver.serverSideAdPeriods, interstitials: driver.interstitialSchedule,
      textOrigin: Self.timelineOrigin(of: main.run))
    condition.lock()
    status.phase = .ready(media)
    hasVideo = media.hasVideo
    hasAudio = media.hasAudio
    status.videoEnded = !hasVideo
    status.audioEnded = !hasAudio
    status.bufferedRange = MediaTimeRange(start: main.run.itemStart, duration: .zero)
    status.variant = driver.variant(of: main.run)
    status.audioRenditions = opened.audioGroup
    status.selectedAudioRendition = opened.selectedAudio
    status.subtitleRenditions = driver.alternateRenditions(.subtitles, for: main.run)
    // The lists and the start selection are in the item before it is reported ready.
    postLocked(
      .renditionsListed(audio: status.audioRenditions, subtitles: status.subtitleRenditions))
    if !opened.audioGroup.isEmpty { postLocked(.audioRenditionSelected(opened.selectedAudio)) }
    postLocked(.opened(media))
    if let variant = status.variant { postLocked(.variantChanged(variant, .initial)) }
    condition.unlock()
    notifyLoop()

    decodeLoop(main, driver: driver)
  }

  /// Opens `source` and makes its first pipeline (and the audio lane of the start audio
  /// rendition, when it has a playlist of its own); nil when the loader was stopped.
  private func open(_ source: Asset, hls: HLSConfiguration, initialSeek: SeekRequest?)
    throws(PlayheadError) -> OpenedSource?
  {
    let driver = try settings.sources.open(
      source, hls: hls, startTime: initialSeek?.target, refresher: settings.refresher,
      cancellation: opening
    ).driver
    source.noteOpened(isProtected: driver.hasProtectedContent)
    let wake = self.wake
    driver.setChangeHandler { wake.raise() }
    driver.setRecoverableErrorHandler { [weak self] error in self?.noteRecoverable(error) }
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
    let group = driver.alternateRenditions(.audio, for: run)
    var chosen =
      settings.initialAudioRendition.flatMap { RenditionChoice.counterpart(of: $0, in: group) }
      ?? RenditionChoice.startRendition(
        in: group, preferredLanguages: settings.preferredAudioLanguages)
    var lane: AudioLane?
    if let rendition = chosen, rendition.uri != nil, settings.decodesAudio {
      do throws(PlayheadError) {
        lane = try openAudioLane(
          rendition, driver: driver, at: initialSeek?.target ?? run.itemStart)
      } catch {
        if error.code == .cancelled { throw error }
        // The variant's own audio plays instead; the error is logged.
        chosen = nil
        noteRecoverable(error)
      }
    }
    let pipeline: DecodePipeline
    do throws(PlayheadError) {
      // A file's audio stream chosen at start (its index) is the one decoded.
      pipeline = try DecodePipeline(
        demuxer: run.demuxer, settings: lane == nil ? settings : settings.withoutAudio,
        itemStart: run.itemStart, requiresStream: lane == nil,
        timestampJumpThreshold: run.timestampJumpThreshold,
        audioStreamIndex: chosen?.streamIndex,
        textStreamIndexes: driver.alternateRenditions(.subtitles, for: run).compactMap(
          \.streamIndex))
    } catch {
      lane?.driver.stop()
      throw error
    }
    if let initialSeek, driver.seeksByRuns {
      condition.lock()
      if pendingSeek?.generation == initialSeek.generation { pendingSeek = nil }
      condition.unlock()
      pipeline.filter(from: initialSeek)
    }
    let waits = initialSeek != nil && pipeline.videoStream != nil
    if let lane, !waits {
      lane.current.pipeline.startAudio(at: initialSeek?.target ?? run.itemStart)
    }
    embeddedText.beginStretch(at: run.itemStart)
    condition.lock()
    audioLane = lane
    audioLaneWaitsForSeek = lane != nil && waits
    let stoppedMeanwhile = stopped
    condition.unlock()
    if stoppedMeanwhile { lane?.driver.stop() }
    return OpenedSource(
      driver: driver, main: RunPipeline(run: run, pipeline: pipeline), lane: lane,
      audioGroup: group, selectedAudio: lane?.rendition ?? chosen)
  }

  /// Opens `rendition`'s playlist as a source of its own, from the segment holding
  /// `time`, and its first pipeline (audio only). A stop while it opens stops it.
  func openAudioLane(_ rendition: RenditionInfo, driver: any MediaSourceDriver, at time: MediaTime)
    throws(PlayheadError) -> AudioLane
  {
    let laneDriver = try driver.openAlternate(rendition, at: time)
    condition.lock()
    let wasStopped = stopped
    openingLaneDriver = laneDriver
    condition.unlock()
    defer {
      condition.lock()
      openingLaneDriver = nil
      condition.unlock()
    }
    do throws(PlayheadError) {
      if wasStopped { throw PlayheadError(.cancelled, "loading was stopped") }
      let run = try laneDriver.firstRun()
      let pipeline = try DecodePipeline(
        demuxer: run.demuxer, settings: settings.audioOnly, itemStart: run.itemStart,
        timestampJumpThreshold: run.timestampJumpThreshold)
      return AudioLane(
        rendition: rendition, driver: laneDriver,
        current: RunPipeline(run: run, pipeline: pipeline))
    } catch {
      laneDriver.stop()
      throw error
    }
  }

  /// Records an error that did not stop playback (the loop logs it).
  func noteRecoverable(_ error: PlayheadError) {
    post(.recoverableError(error))
  }

  func finish(with phase: LoaderStatus.Phase) {
    condition.lock()
    status.phase = phase
    if case .failed(let error) = phase { postLocked(.failed(error)) }
    condition.unlock()
    notifyLoop()
  }
}
