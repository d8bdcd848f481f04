import Foundation
import PlayheadCore
import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// What the loader needs to know to open and decode an item.
struct LoaderSettings: Sendable {
  var decodesVideo: Bool
  var decodesAudio: Bool
  var decoderThreadCount: Int
  var audioFormat: AudioOutputFormat
  var audioChannel: AudioChannelMode
  var videoFramesAhead: Int
  /// Decoded audio kept ready ahead of the play position.
  var audioAhead: MediaTime
  /// How HLS streams load.
  var hls: HLSConfiguration
  /// The player's clock (HLS retry delays and live reloads wait on it).
  var clock: any Clock
  /// Asked for another URL when no decoder can open the media's codecs.
  var backupURLProvider: (@Sendable (URL, PlayheadError) -> URL?)?
  /// Languages to choose the start audio rendition by, most preferred first.
  var preferredAudioLanguages: [String] = []
  /// The audio rendition to start with (the item's selection, when a resume reopens it);
  /// nil applies the start rule.
  var initialAudioRendition: RenditionInfo?
  /// Opens the media over the player's data-source stack.
  var sources: MediaSourceFactory
  /// Refreshes the item's expired URLs, when the application set a handler.
  var refresher: SourceRefresher?

  /// The settings of a run whose audio comes from elsewhere (an alternate rendition).
  var withoutAudio: LoaderSettings {
    var copy = self
    copy.decodesAudio = false
    return copy
  }

  /// The settings of an alternate audio rendition's runs.
  var audioOnly: LoaderSettings {
    var copy = self
    copy.decodesVideo = false
    return copy
  }
}

/// An application's choice of alternate rendition, waiting for the loader (nil: none,
/// or the variant's own audio).
struct RenditionSelection: Sendable {
  var rendition: RenditionInfo?
}

/// A request to move the decode position, tagged with the loop's seek generation.
struct SeekRequest: Sendable {
  var target: MediaTime
  var toleranceBefore: MediaTime
  var toleranceAfter: MediaTime
  var generation: Int
}

/// A decoded video frame placed on the item's timeline.
struct TimedVideoFrame: Sendable {
  var frame: VideoFrame
  /// Item time (stream PTS minus the container's start time).
  var time: MediaTime
  var duration: MediaTime
}

/// What the media turned out to be once opened.
struct OpenedMedia: Sendable {
  var duration: MediaTime
  var tracks: [AssetTrack]
  var hasVideo: Bool
  var hasAudio: Bool
  var nominalFrameDuration: MediaTime
  var indicatedBitrate: Double
  var streamKind: StreamKind
  /// Where the first run starts on the item timeline: 0 for VOD, near the live edge for
  /// live streams.
  var startTime: MediaTime
  var variants: [VariantInfo]
  var renditions: [RenditionInfo]
  var iFrameVariants: [VariantInfo]
  /// Server-side ad periods on the item timeline (HLS markers).
  var adPeriods: [AdPeriod]
  /// The playlist's HLS Interstitials on the item timeline, as opened.
  var interstitials: InterstitialSchedule?
  /// The media time of item time 0 (the first run's container start minus its item
  /// start, docs/decisions/0003), for placing subtitle segments; nil when unknown.
  var textOrigin: MediaTime?
}

/// The loader's state as the playback loop sees it: the loader thread's own (its one
/// home), guarded by the loader's lock, and read by the loop as a whole copy
/// (`ItemLoader.snapshot()`) or, for the item's figures, through `figures()`.
///
/// The renditions, selections and variant here are the loader's record of what it plays;
/// the loop learns of their changes by `LoaderMessage`, in order, and never reads them here.
struct LoaderStatus: Sendable {
  enum Phase: Sendable {
    case opening
    case ready(OpenedMedia)
    case failed(PlayheadError)
  }
  var phase: Phase = .opening
  /// The seek generation whose data is in the queues.
  var generation = 0
  /// Whether the seek of `generation` has landed (its first data is queued).
  var seekLanded = false
  var videoEnded = false
  var audioEnded = false
  var queuedVideoFrames = 0
  var queuedAudioDuration: MediaTime = .zero
  /// Media time up to which data has been demuxed since the last seek.
  var bufferedRange: MediaTimeRange?
  var isFull = false
  var framesDecoded = 0
  var audioSamplesDecoded = 0
  var bytesRead: Int64 = 0
  /// An error that ended loading early; the queued data can still be played.
  var streamError: PlayheadError?
  /// The rendition of the run being decoded (changes are posted as messages).
  var variant: VariantInfo?
  /// The live seekable range, for live streams.
  var seekableRange: MediaTimeRange?
  /// The playlist's HLS Interstitials as last read (after the latest playlist load).
  var interstitials: InterstitialSchedule?
  /// A live stream's server-side ad periods in the latest playlist (nil for VOD, whose
  /// periods are known once opened).
  var liveAdPeriods: [AdPeriod]?
  /// The bandwidth estimate and last transfer speed (bits/s), for streaming sources.
  var bandwidth: (estimate: Double, lastTransfer: Double)?
  /// The current download speed (bits/s), for HLS and progressive HTTP media.
  var downloadSpeed: Double?
  /// The audio renditions of the variant's group, the one playing, and a count of the
  /// selection's changes (so the loop can tell a change to nil).
  var audioRenditions: [RenditionInfo] = []
  var selectedAudioRendition: RenditionInfo?
  /// The subtitle renditions of the variant's group, the selected one and its segments.
  var subtitleRenditions: [RenditionInfo] = []
  var selectedSubtitleRendition: RenditionInfo?
  var subtitleSegments: SubtitleSegmentList?
  /// What the media source (and the audio lane's) is doing, as of the snapshot.
  var sourceActivity = SourceActivity()
  /// What the media source (and the audio lane's, together) holds ahead of the demuxer,
  /// as of the snapshot.
  var sourceBuffer = SourceBuffer.unknown
}

/// Opens an item's media and decodes it ahead of the play position on its own thread.
///
/// The loader owns the demuxer, decoders and resampler; the playback loop only takes
/// finished frames and buffers out of its queues. Every shared field is guarded by
/// `condition`.
final class ItemLoader: @unchecked Sendable {
  // Unchecked Sendable: every shared field is guarded by `condition`; the demuxer and
  // decoders are the loading thread's.
  let asset: Asset
  let settings: LoaderSettings
  /// The cues of the file's text subtitle streams, read along with the media.
  let embeddedText = EmbeddedTextStore()
  let wake: WakeSignal
  let condition = NSLock()
  /// Raised whenever the loading thread has something to look at (space in a queue, a
  /// seek, a selection, a stop); it waits for it on the player's clock.
  let work = WakeSignal()
  var status = LoaderStatus()
  /// Messages for the playback loop, oldest first (`LoaderMessage`).
  var outbox: [LoaderMessage] = []
  var videoQueue: [TimedVideoFrame] = []
  var audioQueue: [AudioBuffer] = []
  var pendingSeek: SeekRequest?
  var stopped = false
  var driver: (any MediaSourceDriver)?
  /// Set when the current run's video (audio) decoder is drained while the other is not.
  var runVideoDrained = false
  /// The latest rendition limits, applied when the source opens.
  var pendingSelection: VariantSelection?
  var runAudioDrained = false
  var hasVideo = false
  var hasAudio = false
  /// The alternate audio rendition being played, when its audio replaces the variant's.
  var audioLane: AudioLane?
  /// Set after a seek while the audio lane waits for the video to decide where the seek
  /// lands (its audio is trimmed there).
  var audioLaneWaitsForSeek = false
  /// Selections made by the application, applied by the loading thread.
  var pendingAudioSelection: RenditionSelection?
  var pendingSubtitleSelection: RenditionSelection?
  /// An audio rendition's source while its first segment loads (so a stop reaches it).
  var openingLaneDriver: (any MediaSourceDriver)?
  /// Reaches the media's open while it blocks (a stop cancels it).
  let opening = OpenCancellation()
  /// The play position last reported by the playback loop.
  var playbackPosition: MediaTime = .zero

  init(asset: Asset, settings: LoaderSettings, wake: WakeSignal) {
    self.asset = asset
    self.settings = settings
    self.wake = wake
  }

  /// Starts the loading thread.
  func start() {
    // The thread keeps the loader alive until `run` returns; nothing keeps the thread.
    settings.clock.startThread(named: "playhead.loader") { [self] in run() }
  }

  /// Stops loading and interrupts any blocking read; returns at once.
  func stop() {
    condition.lock()
    stopped = true
    let driver = self.driver
    let laneDrivers = [audioLane?.driver, openingLaneDriver].compactMap { $0 }
    work.raise()
    condition.unlock()
    driver?.stop()
    for laneDriver in laneDrivers { laneDriver.stop() }
    opening.cancel()
  }

  /// Asks the loader to continue from `request.target`; queued data is discarded.
  func seek(_ request: SeekRequest) {
    condition.lock()
    let driver = self.driver
    let laneDriver = audioLane?.driver
    condition.unlock()
    driver?.willSeek(to: request.target)
    laneDriver?.willSeek(to: request.target)
    condition.lock()
    pendingSeek = request
    videoQueue.removeAll()
    audioQueue.removeAll()
    status.generation = request.generation
    status.seekLanded = false
    status.videoEnded = !hasVideo
    status.audioEnded = !hasAudio
    status.queuedVideoFrames = 0
    status.queuedAudioDuration = .zero
    status.bufferedRange = nil
    status.isFull = false
    work.raise()
    condition.unlock()
  }

  /// Where a seek to `time` goes (live streams keep it inside their window).
  func seekTarget(for time: MediaTime) -> MediaTime {
    condition.lock()
    let driver = self.driver
    condition.unlock()
    return driver?.seekTarget(for: time) ?? time
  }

  /// Tells the media source where playback is (HLS keeps its buffer ahead of it).
  func playbackPositionChanged(_ position: MediaTime) {
    condition.lock()
    let driver = self.driver
    let laneDriver = audioLane?.driver
    playbackPosition = position
    condition.unlock()
    driver?.playbackPositionChanged(position)
    laneDriver?.playbackPositionChanged(position)
  }

  /// Asks the loading thread to play `selection`'s audio rendition (nil: the variant's
  /// own audio) from the play position.
  func selectAudioRendition(_ selection: RenditionSelection) {
    condition.lock()
    pendingAudioSelection = selection
    work.raise()
    condition.unlock()
  }

  /// Asks the loading thread to select `selection`'s subtitle rendition (nil: none) and
  /// fetch its segment list.
  func selectSubtitleRendition(_ selection: RenditionSelection) {
    condition.lock()
    pendingSubtitleSelection = selection
    work.raise()
    condition.unlock()
  }

  /// Hands new rendition limits to the media source (kept for one that is not open yet).
  func updateSelection(_ selection: VariantSelection) {
    condition.lock()
    pendingSelection = selection
    let driver = self.driver
    condition.unlock()
    driver?.updateSelection(selection)
  }

  /// A copy of the loader's state (the live window as the source reports it now).
  func snapshot() -> LoaderStatus {
    condition.lock()
    defer { condition.unlock() }
    if let driver {
      status.seekableRange = driver.seekableRange
      status.interstitials = driver.interstitialSchedule
      status.liveAdPeriods = status.seekableRange == nil ? nil : driver.serverSideAdPeriods
      status.sourceActivity = driver.activity.merged(with: audioLane?.driver.activity)
      if case .ready = status.phase {
        let demuxed = status.bufferedRange?.end
        var buffer = driver.buffer(demuxedUpTo: demuxed)
        if let lane = audioLane {
          buffer = buffer.combined(with: lane.driver.buffer(demuxedUpTo: demuxed))
        }
        status.sourceBuffer = buffer
      }
    }
    return status
  }

  /// What the loader has measured for the item's statistics, read at once under its lock.
  func figures() -> LoaderFigures {
    condition.lock()
    defer { condition.unlock() }
    return LoaderFigures(
      framesDecoded: status.framesDecoded, audioSamplesDecoded: status.audioSamplesDecoded,
      bytesRead: status.bytesRead, bandwidthEstimate: status.bandwidth?.estimate)
  }

  /// The next video frame of the current generation without removing it.
  func peekVideo() -> TimedVideoFrame? {
    condition.lock()
    defer { condition.unlock() }
    return videoQueue.first
  }

  /// Removes and returns the next video frame.
  @discardableResult
  func popVideo() -> TimedVideoFrame? {
    condition.lock()
    defer { condition.unlock() }
    guard !videoQueue.isEmpty else { return nil }
    let frame = videoQueue.removeFirst()
    status.queuedVideoFrames = videoQueue.count
    status.isFull = false
    work.raise()
    return frame
  }

  /// The next audio buffer without removing it.
  func peekAudio() -> AudioBuffer? {
    condition.lock()
    defer { condition.unlock() }
    return audioQueue.first
  }

  /// Removes and returns the next audio buffer.
  @discardableResult
  func popAudio() -> AudioBuffer? {
    condition.lock()
    defer { condition.unlock() }
    guard !audioQueue.isEmpty else { return nil }
    let buffer = audioQueue.removeFirst()
    status.queuedAudioDuration = status.queuedAudioDuration - buffer.mediaDuration
    status.isFull = false
    work.raise()
    return buffer
  }

  /// Where the queued media ends, per stream, and whether each stream has ended, read
  /// under one lock so that the four agree.
  ///
  /// An end is nil when its queue is empty.
  func queuedEnds() -> QueuedEnds {
    condition.lock()
    defer { condition.unlock() }
    return QueuedEnds(
      audio: audioQueue.last.map { $0.pts + $0.mediaDuration },
      video: videoQueue.last.map { $0.time + $0.duration },
      audioEnded: status.audioEnded, videoEnded: status.videoEnded)
  }

  /// Tells the playback loop that something changed.
  func notifyLoop() { wake.raise() }
}

/// The loader's measurements as of one read (`ItemLoader.figures()`): a view of its
/// status, never stored.
struct LoaderFigures: Sendable {
  var framesDecoded: Int
  var audioSamplesDecoded: Int
  var bytesRead: Int64
  var bandwidthEstimate: Double?
}

/// The end of the decoded media waiting in a loader's queues (see `ItemLoader.queuedEnds()`).
struct QueuedEnds: Sendable {
  /// The end of the last queued audio buffer; nil when none is queued.
  var audio: MediaTime?
  /// The end of the last queued video frame; nil when none is queued.
  var video: MediaTime?
  var audioEnded: Bool
  var videoEnded: Bool
}

extension AudioBuffer {
  /// The media time the buffer covers.
  var mediaDuration: MediaTime {
    MediaTime(value: Int64(frameCount), timescale: Int32(format.sampleRate))
  }
}
