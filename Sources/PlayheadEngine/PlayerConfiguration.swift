import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// Everything a player is built with: its clock, outputs and decoding options.
///
/// The defaults play in real time on the host clock into discarding sinks. `fast()`
/// gives the same pipeline on a `ManualClock` that jumps to each deadline, so a whole
/// item plays as fast as it decodes while every timestamp stays consistent.
public struct PlayerConfiguration: Sendable {
  /// The clock that paces presentation and timestamps events.
  public var clock: any Clock
  /// How the player's time moves, which is the clock's: real time, moved by a test, or
  /// fast (as fast as decoding allows, the same events every run). Fast mode plays
  /// without stalls: the clock waits for the media.
  public var timing: PlaybackTiming { clock.timing }
  /// Where decoded video frames go; nil discards them.
  public var videoSink: (any VideoSink)?
  /// Where decoded audio goes; nil discards it (the audio clock still runs).
  public var audioSink: (any AudioSink)?
  /// The format audio is resampled to when there is no sink to ask.
  public var audioOutputFormat: AudioOutputFormat
  /// Which channel reaches the output (seed 003's `outputAudioChannel`): both, or the
  /// only the left or the right one, the others silenced. `Player.audioOutputChannel` changes it
  /// while playing; with a mono output only the value an item opens with applies.
  public var audioOutputChannel: AudioChannelMode
  /// The audio enhancement filters' options (seed 003's `audioEnhance` filter config):
  /// volume normalisation, dialogue enhancement, surround widening. All off by default;
  /// `Player.audioEnhancement` changes them while playing.
  public var audioEnhancement = AudioEnhancement.none
  /// Whether the enhancement filters run (seed 003's `setFilterValid`); true by default,
  /// so setting `audioEnhancement` is enough to hear them.
  public var isAudioEnhancementEnabled = true
  /// Skips video decoding entirely (audio-only playback of any file).
  public var isVideoDisabled: Bool
  /// Skips audio decoding entirely; the host or manual clock is then the master.
  public var isAudioDisabled: Bool
  /// Decoder threads per video stream (0, the default: one per core, at most 16).
  public var decoderThreadCount: Int
  /// Asks for hardware decoding. Playhead decodes in software on Linux and, when this is
  /// set, reports it once per item with a `softwareDecodingUsed` event.
  public var prefersHardwareDecoding: Bool
  /// How every request of the player is made (progressive media, HLS playlists, segments
  /// and keys, sidecar text, thumbnails): idle timeout, retries (resumed with a range
  /// request where a transfer stopped), headers, user agent, referer, read-ahead.
  public var request: RequestConfiguration
  /// The network the player's data-source stack sits on (`DataSourceStack`); nil (the
  /// default) reads local files and HTTP(S) with `request`. A simulated network
  /// (`SimulatedNetwork`) or a recording being replayed (`ReplayingNetwork`) plugs in here
  /// for every source kind: progressive, HLS, text, thumbnails.
  public var network: (any DataSourceFactory)?
  /// Records every transfer of the player (and, through the application, its events) into
  /// a session recording (`playhead play --record`); nil (the default) records nothing.
  public var recorder: SessionRecorder?
  /// Asked for another URL when no decoder can open the media's codecs (the seed SDK's
  /// H.265 fallback): return a URL to play instead, or nil to fail. Called on the
  /// loader's thread, at most once per URL.
  public var backupURLProvider: (@Sendable (URL, PlayheadError) -> URL?)?
  /// How HLS streams load: requests, buffer, caps, rendition choice.
  public var hls: HLSConfiguration
  /// Makes the load control of each item, which decides when playback starts and resumes
  /// after a stall and how far ahead media loads (docs/abr.md, "Load control"). Nil (the
  /// default) gives every item a `DefaultLoadControl` with `scene` (`.none`, the engine
  /// defaults, when nil) and `bufferSettings`: playback starts once 0.5 s is loaded ahead
  /// and resumes after a stall at 3 s, and loading runs to a target that grows from 10 s
  /// to 50 s with watch time. Called once per item, and once more for each alternate
  /// audio rendition the item plays; the player calls the control from its threads, one
  /// at a time.
  public var makeLoadControl: (@Sendable () -> any LoadControl)?
  /// The buffer preset every item loads with (nil: `.none`, the engine defaults); the same
  /// value as `hls.scene`.
  public var scene: PlayerScene? {
    get { hls.scene }
    set { hls.scene = newValue }
  }
  /// Explicit buffer values that win over the scene's (nil: the scene's); the same value
  /// as `hls.bufferSettings`. (`hls.forwardBufferDuration` set to other than its default,
  /// with neither a scene nor settings, is the high-water mark.)
  public var bufferSettings: BufferSettings? {
    get { hls.bufferSettings }
    set { hls.bufferSettings = newValue }
  }
  /// How many decoded video frames are kept ready ahead of the play position (≥ 2).
  public var videoFramesAhead: Int
  /// With this on, the first frame is decoded and shown while still paused (pre-render).
  public var prerendersFirstFrame: Bool
  /// How long after its time on screen ended a video frame may still be shown (50 ms by
  /// default): a later one is dropped and counted in `framesDropped`, and the previous
  /// picture stays, except for the first frame after a start or seek. Frames that come due
  /// together are dropped whatever the threshold, as only the latest can be seen.
  public var lateFrameDropThreshold: MediaTime
  /// The disk cache this player reads through (the per-player switch; nil, the default,
  /// plays without one). HLS playlists (VOD only), segments, initialisation sections and
  /// keys, and progressive HTTP media, go through it while `MediaCache.isEnabled` (the
  /// global switch) is also on; local files never do. See docs/cache.md.
  public var cache: MediaCache?
  /// Asked for a fresh URL when one of the item's URLs expired (seed 003's "URL source
  /// expired" callback): HTTP 403 or 410, or, with `sourceRefresh.signer`, a signature
  /// past its expiry on `sourceRefresh.wallClockSeconds`. Playlists, segments,
  /// initialisation sections, keys and progressive files all go through it; playback
  /// continues from the same position on the fresh URL. Nil (the default) leaves an
  /// expired URL an `.httpStatus` error. See docs/expiry.md and
  /// `SourceRefresh.resigning(with:validitySeconds:wallClockSeconds:)`.
  public var urlSourceExpiredHandler: URLSourceExpiredHandler?
  /// How expiry is recognised and how long and how often a refresh may take.
  public var sourceRefresh = SourceRefreshOptions()
  /// How long, in milliseconds of the player's clock, an item that should be playing may
  /// make no progress before it ends with `failedToPlayToEnd` and a `.noProgress` error
  /// saying what stalled (10,000 by default; 0 turns the watchdog off).
  ///
  /// Progress is the position moving, frames or audio decoded, or bytes arriving. The
  /// watchdog does not run while the rate is 0, while the item opens, or while a network
  /// request is pending or a live reload is due (their own timeouts and retries end
  /// those waits). On a clock that does not advance by itself (`ManualClock`: fast mode,
  /// or a clock a test moves) the clock only runs to the bound when the loading pipeline
  /// is provably stuck (a stream waits for a segment that its downloader holds back), so
  /// a slow decoder never trips it. See docs/decisions/0023.
  public var noProgressTimeoutMs = 10_000

  /// Whether creating a player applies `ProcessHeap.mapLargeAllocations()` (default true):
  /// decoded frames and segment buffers then go back to the system when freed, so resident
  /// memory stays flat through hours of playback (docs/soak.md).
  ///
  /// The setting is process-wide and is applied once; it is skipped when the environment
  /// sets `MALLOC_MMAP_THRESHOLD_`. An application that tunes its allocator itself sets
  /// this to false on every player it creates.
  public var mapsLargeAllocations = true

  /// Where the player logs what it does (docs/logging.md): item open, ready and failure,
  /// stalls and rendition switches at `.info`; each ABR decision with its reason, playlist
  /// loads and seeks at `.debug`. Nothing is logged per frame at `.info` or above.
  ///
  /// `Logger(label: "playhead.player")` by default, made from the factory
  /// `LoggingSystem.bootstrap(_:)` set when the configuration is created. A test passes a
  /// logger of its own (an `InMemoryLogHandler`'s) here, as the logging system can be
  /// bootstrapped only once per process.
  public var logger = Logger(label: "playhead.player")

  public init(
    clock: any Clock = HostClock.shared,
    videoSink: (any VideoSink)? = nil,
    audioSink: (any AudioSink)? = nil,
    audioOutputFormat: AudioOutputFormat = AudioOutputFormat(
      sampleRate: 48_000, channels: 2, sampleFormat: .int16),
    audioOutputChannel: AudioChannelMode = .both,
    isVideoDisabled: Bool = false,
    isAudioDisabled: Bool = false,
    decoderThreadCount: Int = 0,
    prefersHardwareDecoding: Bool = false,
    request: RequestConfiguration = RequestConfiguration(),
    network: (any DataSourceFactory)? = nil,
    hls: HLSConfiguration = HLSConfiguration(),
    videoFramesAhead: Int = 3,
    prerendersFirstFrame: Bool = false,
    lateFrameDropThreshold: MediaTime = MediaTime(value: 50, timescale: 1000)
  ) {
    self.clock = clock
    self.videoSink = videoSink
    self.audioSink = audioSink
    self.audioOutputFormat = audioOutputFormat
    self.audioOutputChannel = audioOutputChannel
    self.isVideoDisabled = isVideoDisabled
    self.isAudioDisabled = isAudioDisabled
    self.decoderThreadCount = decoderThreadCount
    self.prefersHardwareDecoding = prefersHardwareDecoding
    self.request = request
    self.hls = hls
    self.backupURLProvider = nil
    self.makeLoadControl = nil
    self.cache = nil
    self.network = network
    self.recorder = nil
    self.videoFramesAhead = max(2, videoFramesAhead)
    self.prerendersFirstFrame = prerendersFirstFrame
    self.lateFrameDropThreshold = lateFrameDropThreshold
  }

  /// The fast-mode configuration: a fresh `ManualClock` that advances to each deadline.
  public static func fast(
    videoSink: (any VideoSink)? = nil, audioSink: (any AudioSink)? = nil
  ) -> PlayerConfiguration {
    PlayerConfiguration(
      clock: ManualClock(advancesOnWait: true), videoSink: videoSink, audioSink: audioSink)
  }

  /// Makes one item's load control: `makeLoadControl`'s, or the default one.
  var loadControlFactory: @Sendable () -> any LoadControl {
    if let makeLoadControl { return makeLoadControl }
    let scene = hls.scene ?? .none
    var settings = hls.bufferSettings ?? BufferSettings()
    let fixed = hls.forwardBufferDuration
    if hls.scene == nil, hls.bufferSettings == nil, fixed.isNumeric, fixed > .zero,
      fixed != HLSConfiguration.defaultForwardBufferDuration
    {
      // A fixed forward buffer set the old way: the high-water mark, no optimiser.
      settings = BufferSettings(
        lowWaterMark: fixed, highWaterMark: fixed, optimizer: BufferOptimizer.none)
    }
    let resolved = settings
    return { DefaultLoadControl(scene: scene, settings: resolved) }
  }

  /// The data-source stack a player with this configuration reads through: `network` (or
  /// files and HTTP(S)), the recorder, the cache, retries on the clock, all with `request`.
  /// Components beside a player (thumbnails, a preload, the catalog) read through it too,
  /// so that a simulated network or a replay serves them as well. Each call makes a new
  /// stack (with its own HTTP session when `network` is nil).
  public func makeDataSourceStack() -> DataSourceStack {
    var stack = DataSourceStack(
      request: request, clock: clock, network: network, cache: cache, recorder: recorder)
    let logger = logger
    stack.onRetry = { retry in
      logger.info(
        "retrying a request",
        metadata: [
          "url": .url(retry.request.url), "purpose": "\(retry.request.purpose.rawValue)",
          "attempt": "\(retry.attempt)", "delay": .seconds(retry.delay),
          "error": "\(retry.error.message)",
        ])
    }
    return stack
  }

  /// The audio format actually produced: the sink's if there is one.
  var effectiveAudioFormat: AudioOutputFormat { audioSink?.format ?? audioOutputFormat }
}
