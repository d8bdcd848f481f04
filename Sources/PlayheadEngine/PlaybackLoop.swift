import Foundation
import PlayheadCore
import PlayheadMedia

/// The one owner of a player's playback state: a dedicated thread that runs commands
/// posted by the public API, presents frames at their deadlines on the player's clock,
/// and publishes snapshots for the getters (docs/decisions/0046).
final class PlaybackLoop: @unchecked Sendable {
  // Unchecked Sendable: commands, the snapshot and the settings have locks of their own;
  // everything else is the loop thread's.
  let configuration: PlayerConfiguration
  var clock: any Clock { configuration.clock }
  let wake = WakeSignal()
  let isFastMode: Bool
  /// Opens the items' media over the player's one data-source stack.
  let sources: MediaSourceFactory

  // Commands: guarded by `commandLock`.
  private let commandLock = NSLock()
  private var commands: [(PlaybackLoop) -> Void] = []
  private var closeRequested = false
  /// Raised once the loop has exited (a clock wait, so that a worker of a fast-mode clock
  /// may close a player without holding up its thread).
  private let finished = WakeSignal()
  private var hasFinished = false
  /// The loop's thread, held weakly: a running thread keeps itself alive, and a strong
  /// reference here would make a cycle (loop → thread → closure → loop) that outlives it.
  private weak var thread: Thread?

  // Published state: guarded by `snapshotLock`, replaced whole by `publishState()`.
  let snapshotLock = NSLock()
  var snapshot = PlayerSnapshot()
  var lastPresentedFrame: VideoFrame?
  /// What the application asks of the audio output: its setters write it, the audio
  /// stages read it for each buffer they write.
  let settings: Locked<PlayerSettings>

  // Everything below is owned by the loop thread.
  var queue: [PlayerItem] = []
  var current: ActiveItem?
  var preloaded: ActiveItem?
  var rate: Float = 0
  var defaultRate: Float = 1
  var actionAtItemEnd: ActionAtItemEnd
  var timeControl: TimeControlStatus = .paused
  var status: PlayerStatus = .unknown
  var seekGeneration = 0
  var periodicObservers: [UInt64: PeriodicObserver] = [:]
  var boundaryObservers: [UInt64: BoundaryObserver] = [:]
  var eventObservers: [UInt64: EventObserver] = [:]
  var tempo: AudioTempoProcessor?
  var tempoKey: (rate: Float, algorithm: AudioTimePitchAlgorithm)?
  /// The enhancement filters running (nil while they are off).
  var enhancer: AudioEnhancementProcessor?
  var boundaryCursor: MediaTime = .zero
  var sinksFinished = false
  /// The start holds in place (`Player.holdStart()`): playback does not start while any is.
  var startHolds: Set<UInt64> = []

  init(configuration: PlayerConfiguration, actionAtItemEnd: ActionAtItemEnd) {
    self.configuration = configuration
    self.actionAtItemEnd = actionAtItemEnd
    self.isFastMode = configuration.timing == .fast
    sources = MediaSourceFactory(stack: configuration.makeDataSourceStack())
    settings = Locked(
      PlayerSettings(
        audioEnhancement: configuration.audioEnhancement,
        isAudioEnhancementEnabled: configuration.isAudioEnhancementEnabled,
        audioOutputChannel: configuration.audioOutputChannel))
    snapshot = playerSnapshot()
  }

  /// Starts the loop thread.
  func start() {
    clock.startThread(named: "playhead.playback", stackSize: 1 << 20) { [self] in
      commandLock.lock()
      thread = Thread.current
      commandLock.unlock()
      run()
    }
  }

  /// Runs `command` on the loop thread, after the commands posted before it.
  func post(_ command: @escaping (PlaybackLoop) -> Void) {
    commandLock.lock()
    let accepted = !closeRequested
    if accepted { commands.append(command) }
    commandLock.unlock()
    if accepted { wake.raise() }
  }

  /// Stops the loop and its loaders, finishes the sinks, and returns once the loop has
  /// exited. Blocking I/O of loaders is interrupted, so this returns promptly.
  func close() {
    commandLock.lock()
    let alreadyClosed = closeRequested
    closeRequested = true
    commandLock.unlock()
    if alreadyClosed { return }
    wake.raise()
    commandLock.lock()
    let onLoopThread = Thread.current === thread
    commandLock.unlock()
    if onLoopThread { return }
    while true {
      commandLock.lock()
      let done = hasFinished
      commandLock.unlock()
      if done { return }
      clock.wait(for: finished)
    }
  }

  /// Reads the published state.
  func read<T>(_ body: (PlayerSnapshot) -> T) -> T {
    snapshotLock.lock()
    defer { snapshotLock.unlock() }
    return body(snapshot)
  }

  private func run() {
    while true {
      commandLock.lock()
      let pending = commands
      commands.removeAll()
      let closing = closeRequested
      commandLock.unlock()
      if closing { break }
      for command in pending {
        command(self)
        // The next command (a caller waiting for its commands, say) sees their effect.
        publishState()
      }
      if !pending.isEmpty { continue }
      let deadline = watchProgress(after: step())
      publishState()
      if let deadline {
        clock.wait(until: deadline, orUntil: wake)
      } else {
        clock.wait(for: wake)
      }
    }
    shutDown()
    publishState()
    commandLock.lock()
    hasFinished = true
    commandLock.unlock()
    finished.raise()
  }

  private func shutDown() {
    current?.loader.stop()
    preloaded?.loader.stop()
    // The text sources' threads end with the player, not when the items are released.
    current?.text.renderer?.disable()
    preloaded?.text.renderer?.disable()
    if let current { finishPeriod(current) }
    finishSinks()
  }

  func finishSinks() {
    guard !sinksFinished else { return }
    sinksFinished = true
    try? configuration.audioSink?.finish()
  }

  /// Sends `kind` to every event observer (or only to `observerID`) on its queue, stamped
  /// with `clockTime` (default: now), once the state it reports is published.
  func emit(
    _ kind: PlayerEvent.Kind, only observerID: UInt64? = nil, at clockTime: MediaTime? = nil
  ) {
    publishState()
    let event = PlayerEvent(
      kind: kind, clockTime: clockTime ?? clock.now, itemTime: current?.position ?? .invalid)
    for (id, observer) in eventObservers where observerID == nil || observerID == id {
      let handler = observer.handler
      observer.queue.async { handler(event) }
    }
  }

  /// Tells a new event observer the current item, its status and its buffer state.
  func sendInitialState(to observerID: UInt64) {
    guard let active = current else { return }
    emit(.currentItemChanged(active.item), only: observerID)
    let itemStatus = active.state.status
    if itemStatus != .unknown {
      emit(.itemStatusChanged(active.item, itemStatus), only: observerID)
    }
    if active.state.isLikelyToKeepUp {
      emit(.likelyToKeepUpChanged(active.item, true), only: observerID)
    }
    if active.state.isBufferFull {
      emit(.bufferFullChanged(active.item, true), only: observerID)
    }
  }
}

/// The player's state the public getters read: derived from the loop's fields by
/// `PlaybackLoop.playerSnapshot()` and published whole (`publishState()`).
struct PlayerSnapshot: Sendable {
  var rate: Float = 0
  var defaultRate: Float = 1
  var timeControl: TimeControlStatus = .paused
  var status: PlayerStatus = .unknown
  var currentItem: PlayerItem?
  var items: [PlayerItem] = []
  var actionAtItemEnd: ActionAtItemEnd = .pause
}

/// What the application asks of a player's audio output: its setters write it (reading
/// it back gives the value just set), the loop's audio stages read it as they write.
struct PlayerSettings: Sendable {
  var volume: Float = 1
  var isMuted = false
  var audioEnhancement = AudioEnhancement.none
  var isAudioEnhancementEnabled = true
  var audioOutputChannel = AudioChannelMode.both
}

/// A periodic time observer.
struct PeriodicObserver {
  var interval: MediaTime
  var queue: DispatchQueue
  var handler: @Sendable (MediaTime) -> Void
  /// The next multiple of the interval to report (nil until playback positions it).
  var nextFire: MediaTime?
}

/// A boundary time observer.
struct BoundaryObserver {
  var times: [MediaTime]
  var queue: DispatchQueue
  var handler: @Sendable () -> Void
}

/// An event observer.
struct EventObserver {
  var queue: DispatchQueue
  var handler: @Sendable (PlayerEvent) -> Void
}
