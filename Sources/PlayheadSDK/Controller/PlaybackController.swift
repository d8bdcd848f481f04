import Foundation
import PlayheadCore
import PlayheadEngine

/// Plays a list of videos, one session per video (seed 002's playback controller).
///
/// Make one with `PlayerSDKManager.shared.createPlaybackController()`, give it videos with
/// `setVideos(_:)` and control playback with `play()`, `pause()` and the seek methods.
/// Sessions come from the session-provider chain; each new session goes to the delegate and
/// to every session consumer. All methods are thread-safe and return at once: the work
/// happens on the controller's own queue in call order, and callbacks run on the callback
/// queue. Call `close()` when done.
///
/// ```swift
/// let controller = PlayerSDKManager.shared.createPlaybackController()
/// controller.delegate = myDelegate
/// controller.autoAdvance = true
/// controller.autoPlay = true
/// controller.setVideos([Video(url: url1), Video(url: url2)])
/// ```
public final class PlaybackController: @unchecked Sendable {
  // Unchecked Sendable: the `var`s below are touched only on `queue`; the rest are lets
  // of Sendable types and `Locked`s.
  let queue = DispatchQueue(label: "playhead.sdk.playback-controller")
  let callbackQueue: DispatchQueue
  let provider: any PlaybackSessionProvider
  let manager: PlayerSDKManager
  let basePlayerConfiguration: PlayerConfiguration
  let audioOutput: (any SharedAudioOutput)?
  let viewStrategy: ViewStrategy?

  /// The view every session's frames are presented to; reused across sessions.
  public let videoView = PlaybackView()

  private let settings = Locked(ControllerSettings())
  private let builtView = Locked<PlaybackView?>(nil)

  // State below is owned by `queue`.
  var videos: [Video] = []
  var currentIndex: Int?
  var current: SessionRuntime?
  var prepared: SessionRuntime?
  var consumers: [any PlaybackSessionConsumer] = []
  var playlistCompleted = false
  var isClosed = false

  init(
    provider: any PlaybackSessionProvider, viewStrategy: ViewStrategy?,
    playerConfiguration: PlayerConfiguration, callbackQueue: DispatchQueue,
    manager: PlayerSDKManager
  ) {
    self.provider = provider
    self.viewStrategy = viewStrategy
    self.callbackQueue = callbackQueue
    self.manager = manager
    self.audioOutput = playerConfiguration.audioSink.map(makeSharedAudioOutput)
    var configuration = playerConfiguration
    if let videoSink = playerConfiguration.videoSink { videoView.addOutput(videoSink) }
    configuration.videoSink = nil
    configuration.audioSink = nil
    self.basePlayerConfiguration = configuration
  }

  deinit {
    let current = self.current
    let prepared = self.prepared
    _ = current?.session.terminate()
    _ = current?.bumper?.session.terminate()
    _ = prepared?.session.terminate()
    _ = prepared?.bumper?.session.terminate()
  }

  /// The view to present: the view strategy's result, or `videoView` without a strategy.
  ///
  /// Built on first access and reused across sessions.
  public var view: PlaybackView {
    if let built = builtView.value { return built }
    // The strategy is the application's code: called without the lock.
    let made = viewStrategy?(videoView, self) ?? videoView
    return builtView.withLock { builtView in
      if builtView == nil { builtView = made }
      return builtView ?? made
    }
  }

  /// The controller's clock (the players' clock).
  public var clock: any Clock { basePlayerConfiguration.clock }

  /// The delegate; held weakly, called on the callback queue.
  public var delegate: (any PlaybackControllerDelegate)? {
    get { readSettings { $0.delegate.value } }
    set { writeSettings { $0.delegate = WeakDelegate(value: newValue) } }
  }

  /// Whether the next session starts when the current one sends `end` (default false).
  ///
  /// A session that sends `end` more than once advances only once.
  public var autoAdvance: Bool {
    get { readSettings { $0.autoAdvance } }
    set { writeSettings { $0.autoAdvance = newValue } }
  }

  /// Whether a new session starts playing as soon as it is delivered (default false).
  public var autoPlay: Bool {
    get { readSettings { $0.autoPlay } }
    set { writeSettings { $0.autoPlay = newValue } }
  }

  /// The options; set them before `setVideos` (each session is built with the options of
  /// the moment it is made).
  public var options: PlaybackControllerOptions {
    get { readSettings { $0.options } }
    set { writeSettings { $0.options = newValue } }
  }

  /// How often `didProgressTo` is sent while playing (default 0.25 s; values ≤ 0 become 1 ms).
  ///
  /// Applies to sessions made after the change.
  public var progressInterval: MediaTime {
    get { readSettings { $0.progressInterval } }
    set {
      let safe =
        newValue.isNumeric && newValue > .zero ? newValue : MediaTime(value: 1, timescale: 1000)
      writeSettings { $0.progressInterval = safe }
    }
  }

  /// The controller's analytics: QoE of the current session and the SDK session ID.
  public var analytics: ControllerAnalytics {
    let session = queue.sync { current?.session }
    return ControllerAnalytics(
      sdkSessionID: manager.sessionID, session: session, qoe: session?.qoe)
  }

  /// The session being played, if any.
  public var currentSession: PlaybackSession? {
    queue.sync { current?.session }
  }

  /// The list of videos, with insertions.
  public var queuedVideos: [Video] {
    queue.sync { videos }
  }

  /// Stops and discards every session; the controller cannot be used afterwards.
  ///
  /// The current session receives `terminate`; the audio output is finished.
  public func close() {
    queue.sync {
      guard !isClosed else { return }
      terminateCurrent()
      discardPrepared()
      isClosed = true
    }
    try? audioOutput?.finishTarget()
  }

  func readSettings<T: Sendable>(_ body: (ControllerSettings) -> T) -> T {
    settings.withLock { body($0) }
  }

  func writeSettings(_ body: (inout ControllerSettings) -> Void) {
    settings.withLock { body(&$0) }
  }

  func writeSettingsReturning<T: Sendable>(_ body: (inout ControllerSettings) -> T) -> T {
    settings.withLock { body(&$0) }
  }
}

/// The controller's analytics object: who is playing, and how well.
public struct ControllerAnalytics: Sendable {
  /// `PlayerSDKManager.shared.sessionID`.
  public let sdkSessionID: String
  /// The current playback session, if any.
  public let session: PlaybackSession?
  /// Its QoE figures, if there is a session.
  public let qoe: SessionQoE?
}

/// The controller's settings, read from any thread under the settings lock.
struct ControllerSettings: Sendable {
  var delegate = WeakDelegate(value: nil)
  var autoAdvance = false
  var autoPlay = false
  var options = PlaybackControllerOptions()
  var progressInterval = MediaTime(value: 1, timescale: 4)
  var playbackRate: Float = 1
  var audioTimePitchAlgorithm: AudioTimePitchAlgorithm = .timeDomain
  var preferredPeakBitRate: Double = 0
  var previewDuration: MediaTime = .invalid
  var allowsBackgroundAudioPlayback = false
  var allowsExternalPlayback = false
  var usesExternalPlaybackWhileExternalScreenIsActive = false
  var isPictureInPictureActive = false
  var thumbnailSeekingEnabled = true
  var viewProjection = ViewProjection()
  var adsDisabled = false
  var isMuted = false
  var streamConcurrencyEnabled = false
  var audienceSegmentTargetingValues: [String: JSONValue] = [:]
  var bumperVideo: Video?
  var bumperLookup: (@Sendable (String) -> Video?)?
  var urlSourceExpiredHandler: SessionSourceExpiredHandler?
  var catalogSourceRefresh: CatalogSourceRefresh?
}

/// A weak reference to the delegate.
struct WeakDelegate: Sendable {
  weak var value: (any PlaybackControllerDelegate)?
}
